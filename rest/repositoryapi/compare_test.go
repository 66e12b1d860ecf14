package repositoryapi_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/service/forks"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// diffPaths lists new_path of each diff.
func diffPaths(c map[string]any) []string {
	var out []string
	for _, d := range c["diffs"].([]any) {
		out = append(out, d.(map[string]any)["new_path"].(string))
	}
	return out
}

// commitIDs lists the ids of a comparison's commits.
func commitIDs(c map[string]any) []string {
	out := []string{}
	for _, x := range c["commits"].([]any) {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	return out
}

func testCompare(t *testing.T, f *fixture) {
	p, s := f.pub, f.pubSeed
	cmp := func(t *testing.T, query string) map[string]any {
		t.Helper()
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/compare?"+query, "", nil)
		require.Equal(t, 200, res.Status, res.String())
		return servertest.Object(t, res)
	}
	web := f.In.URL + "/g/pub/-/compare/"

	t.Run("tag to branch through the merge base", func(t *testing.T) {
		c := cmp(t, "from=v1.0&to=main")
		require.Equal(t, []string{string(s.second), string(s.feature), string(s.merge)}, commitIDs(c))
		require.Equal(t, []string{"CHANGELOG.md", "README.md", "feature.txt", "src/main.go"}, diffPaths(c))
		require.Equal(t, false, c["compare_timeout"])
		require.Equal(t, false, c["compare_same_ref"])
		require.Equal(t, web+string(s.first)+"..."+string(s.merge), c["web_url"])
		require.Equal(t, map[string]any{
			"id": string(s.merge), "short_id": string(s.merge)[:8], "created_at": "2024-03-04T05:09:07.000+02:00",
			"parent_ids": []any{string(s.second), string(s.feature)}, "title": "commit by Merger", "message": "commit by Merger\n",
			"author_name": "Merger", "author_email": "merger@example.com", "authored_date": "2024-03-04T05:09:07.000+02:00",
			"committer_name": "Merger", "committer_email": "merger@example.com", "committed_date": "2024-03-04T05:09:07.000+02:00",
			"trailers": map[string]any{}, "extended_trailers": map[string]any{},
			"web_url": f.In.URL + "/g/pub/-/commit/" + string(s.merge),
		}, c["commit"])
		changelog := c["diffs"].([]any)[0].(map[string]any)
		require.Equal(t, map[string]any{
			"diff": "@@ -0,0 +1 @@\n+v1\n", "collapsed": false, "too_large": false,
			"new_path": "CHANGELOG.md", "old_path": "CHANGELOG.md", "a_mode": "0", "b_mode": "100644",
			"new_file": true, "renamed_file": false, "deleted_file": false, "generated_file": false,
		}, changelog)
		readme := c["diffs"].([]any)[1].(map[string]any)
		require.Equal(t, "100644", readme["a_mode"])
		require.Equal(t, "@@ -1,3 +1,3 @@\n # Demo\n \n-Hello.\n+Hello, world.\n", readme["diff"])
	})

	t.Run("unidiff adds file headers", func(t *testing.T) {
		c := cmp(t, "from=v1.0&to=main&unidiff=true")
		diffs := c["diffs"].([]any)
		require.Equal(t, "--- /dev/null\n+++ b/CHANGELOG.md\n@@ -0,0 +1 @@\n+v1\n", diffs[0].(map[string]any)["diff"])
		require.True(t, strings.HasPrefix(diffs[1].(map[string]any)["diff"].(string), "--- a/README.md\n+++ b/README.md\n@@ "))
	})

	t.Run("merge base mode shows only what to adds", func(t *testing.T) {
		c := cmp(t, "from=feature&to=main")
		require.Equal(t, []string{string(s.second), string(s.merge)}, commitIDs(c))
		require.Equal(t, []string{"CHANGELOG.md", "README.md"}, diffPaths(c))
	})

	t.Run("backwards: nothing new", func(t *testing.T) {
		c := cmp(t, "from=main&to=feature")
		require.Equal(t, []string{}, commitIDs(c))
		require.Nil(t, c["commit"])
		require.Equal(t, []any{}, c["diffs"])
	})

	t.Run("straight compares the two trees", func(t *testing.T) {
		c := cmp(t, "from=main&to=feature&straight=true")
		require.Equal(t, []string{}, commitIDs(c))
		require.Equal(t, []string{"CHANGELOG.md", "README.md"}, diffPaths(c))
		require.Equal(t, true, c["diffs"].([]any)[0].(map[string]any)["deleted_file"])
		require.Equal(t, web+string(s.merge)+"..."+string(s.feature), c["web_url"])
	})

	t.Run("same ref", func(t *testing.T) {
		c := cmp(t, "from=main&to="+string(s.merge))
		require.Equal(t, true, c["compare_same_ref"])
		require.Equal(t, []string{}, commitIDs(c))
		require.Equal(t, []any{}, c["diffs"])
		require.Nil(t, c["commit"])
	})

	t.Run("unrelated histories diff against nothing", func(t *testing.T) {
		c := cmp(t, "from=main&to=orphan")
		require.Equal(t, []string{string(s.orphan)}, commitIDs(c))
		require.Equal(t, []string{"other.txt"}, diffPaths(c))
	})

	t.Run("errors", func(t *testing.T) {
		for _, q := range []string{"from=nope&to=main", "from=main&to=nope", "from=&to=main", "from=-x&to=main"} {
			servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/compare?"+q, "", nil), 404, "message", "404 Ref Not Found")
		}
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/compare", "", nil), 400, "error", "from is missing, to is missing")
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/compare?from=a&to=b&straight=x", "", nil), 400, "error", "straight is invalid")
	})

	t.Run("from_project_id", func(t *testing.T) {
		other := f.Project(t, "other", "public")
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/compare?from=v1.0&to=main&from_project_id="+strconv.Itoa(other.ID), "", nil),
			400, "message", "Target project id:"+strconv.Itoa(other.ID)+" is not a fork of project id:g/pub")
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/repository/compare?from=v1.0&to=main&from_project_id=999999", "", nil),
			400, "message", "Target project id:999999 is not a fork of project id:"+strconv.Itoa(p.ID))
		c := cmp(t, "from=v1.0&to=main&from_project_id="+strconv.Itoa(p.ID))
		require.Len(t, commitIDs(c), 3)
	})

	t.Run("client-go", func(t *testing.T) {
		c, _, err := f.In.Client(t, "").Repositories.Compare("g/pub", &gitlab.CompareOptions{From: gitlab.Ptr("v1.0"), To: gitlab.Ptr("feature")})
		require.NoError(t, err)
		require.Len(t, c.Commits, 1)
		require.Equal(t, string(s.feature), c.Commit.ID)
		require.Equal(t, "Alice", c.Commit.AuthorName)
		require.Len(t, c.Diffs, 2)
		require.Equal(t, "feature.txt", c.Diffs[0].NewPath)
		require.True(t, c.Diffs[0].NewFile)
	})
}

// testCompareFork compares a fork's branch with its parent's default branch (from_project_id),
// after the parent moved on: the parent's new commit is not in the fork's repository until the
// comparison brings it over.
func testCompareFork(t *testing.T, f *fixture) {
	up := f.Project(t, "upstream", "public")
	upRepo := f.Repo(t, up)
	s := seed(t, upRepo)
	dev := f.Users["developer"]
	fork, _, err := f.In.Services.Forks.Fork(context.Background(), authz.System(dev), "g/upstream", forks.ForkInput{})
	require.NoError(t, err)
	forkRepo := f.Repo(t, fork)
	// The fork gets a branch; the parent gets a commit the fork never saw.
	mine := gittest.WriteCommit(t, forkRepo, gittest.Write{Epoch: epoch, Base: s.merge, Parents: []git.ObjectID{s.merge}, Author: bob, Minute: 10,
		Files: map[string]string{"mine.txt": "mine\n"}})
	gittest.SetRef(t, forkRepo, git.BranchRef("mine"), mine)
	later := gittest.WriteCommit(t, upRepo, gittest.Write{Epoch: epoch, Base: s.merge, Parents: []git.ObjectID{s.merge}, Author: alice, Minute: 11,
		Files: map[string]string{"later.txt": "later\n"}})
	gittest.SetRef(t, upRepo, git.BranchRef("main"), later)
	has, err := forkRepo.HasObject(context.Background(), later)
	require.NoError(t, err)
	require.False(t, has)

	forkPath := "/projects/" + strconv.Itoa(fork.ID) + "/repository/compare?from=main&to=mine&from_project_id=" + strconv.Itoa(up.ID)
	res := f.In.Do(t, "GET", forkPath, f.Tokens["developer"], nil)
	require.Equal(t, 200, res.Status, res.String())
	c := servertest.Object(t, res)
	require.Equal(t, []string{string(mine)}, commitIDs(c))
	require.Equal(t, []string{"mine.txt"}, diffPaths(c))
	has, err = forkRepo.HasObject(context.Background(), later)
	require.NoError(t, err)
	require.True(t, has)
	refs, err := forkRepo.ListRefs(context.Background(), git.ListRefsOptions{Patterns: []string{"refs/tmp/"}})
	require.NoError(t, err)
	require.Empty(t, refs, "the temporary ref is removed")

	// Straight: the fork's branch against the parent's newer tip.
	res = f.In.Do(t, "GET", forkPath+"&straight=true", f.Tokens["developer"], nil)
	require.Equal(t, 200, res.Status, res.String())
	require.Equal(t, []string{"later.txt", "mine.txt"}, diffPaths(servertest.Object(t, res)))

	// The parent compared with the fork: from_project_id works both ways in a fork network.
	res = f.In.Do(t, "GET", "/projects/g%2Fupstream/repository/compare?from=mine&to=main&from_project_id="+strconv.Itoa(fork.ID), "", nil)
	require.Equal(t, 200, res.Status, res.String())
	require.Equal(t, []string{string(later)}, commitIDs(servertest.Object(t, res)))
}

// TestCompare_limits checks the diff limits: past 1000 files the diff stops (compare_timeout),
// past the safe limit of 100 files patches are collapsed.
func testCompareLimits(t *testing.T, f *fixture) {
	p := f.Project(t, "bigdiff", "public")
	r := f.Repo(t, p)
	base := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Files: map[string]string{"README.md": "x\n"}})
	// 1005 new files sharing one blob, written with the git CLI (set-up only: quicker than
	// 1005 tree actions).
	blob := strings.TrimSpace(gittest.Git(t, r.Path(), []byte("line\n"), "hash-object", "-w", "--stdin"))
	listing := gittest.Git(t, r.Path(), nil, "ls-tree", string(base))
	for i := 0; i < 1005; i++ {
		listing += fmt.Sprintf("100644 blob %s\tf%04d.txt\n", blob, i)
	}
	tree := strings.TrimSpace(gittest.Git(t, r.Path(), []byte(listing), "mktree"))
	big, err := r.CommitTree(context.Background(), git.CommitTreeOptions{Tree: git.ObjectID(tree), Parents: []git.ObjectID{base}, Message: "big\n", Author: bob})
	require.NoError(t, err)
	gittest.SetRef(t, r, git.BranchRef("main"), base)
	gittest.SetRef(t, r, git.BranchRef("big"), big)

	res := f.In.Do(t, "GET", "/projects/g%2Fbigdiff/repository/compare?from=main&to=big", "", nil)
	require.Equal(t, 200, res.Status, res.String())
	c := servertest.Object(t, res)
	require.Equal(t, true, c["compare_timeout"])
	diffs := c["diffs"].([]any)
	require.Len(t, diffs, 1000)
	first, hundredth, last := diffs[0].(map[string]any), diffs[99].(map[string]any), diffs[100].(map[string]any)
	require.Equal(t, "@@ -0,0 +1 @@\n+line\n", first["diff"])
	require.Equal(t, false, hundredth["collapsed"])
	require.Equal(t, true, last["collapsed"])
	require.Equal(t, "", last["diff"])
	require.Equal(t, "f0100.txt", last["new_path"])
}

func testContributors(t *testing.T, f *fixture) {
	get := func(t *testing.T, query string) ([]map[string]any, map[string][]string) {
		t.Helper()
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/contributors"+query, "", nil)
		require.Equal(t, 200, res.Status, res.String())
		return servertest.List(t, res), res.Header
	}
	alice := map[string]any{"name": "Alice", "email": "alice@example.com", "commits": float64(2), "additions": float64(0), "deletions": float64(0)}
	bob := map[string]any{"name": "Bob", "email": "bob@example.com", "commits": float64(1), "additions": float64(0), "deletions": float64(0)}

	t.Run("merge commits are not counted; default order commits asc", func(t *testing.T) {
		got, h := get(t, "")
		require.Equal(t, []map[string]any{bob, alice}, got)
		require.Equal(t, []string{"2"}, h["X-Total"])
		link := h["Link"][0]
		require.Contains(t, link, "order_by=commits")
		require.Contains(t, link, "sort=asc")
	})

	t.Run("orders", func(t *testing.T) {
		cases := []struct {
			query string
			want  []map[string]any
		}{
			{"?order_by=commits&sort=desc", []map[string]any{alice, bob}},
			{"?order_by=name", []map[string]any{alice, bob}},
			{"?order_by=name&sort=desc", []map[string]any{bob, alice}},
			{"?order_by=email&sort=desc", []map[string]any{bob, alice}},
			{"?ref=orphan", []map[string]any{bob}},
			{"?ref=feature&order_by=name", []map[string]any{alice}},
		}
		for _, c := range cases {
			t.Run(c.query, func(t *testing.T) {
				got, _ := get(t, c.query)
				require.Equal(t, c.want, got)
			})
		}
	})

	t.Run("pages", func(t *testing.T) {
		got, h := get(t, "?per_page=1&page=2")
		require.Equal(t, []map[string]any{alice}, got)
		require.Equal(t, []string{"2"}, h["X-Total-Pages"])
	})

	t.Run("errors", func(t *testing.T) {
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/contributors?ref=nope", "", nil), 404, "message", "404 Not Found")
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/contributors?order_by=lines", "", nil), 400, "error", "order_by does not have a valid value")
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/contributors?sort=up", "", nil), 400, "error", "sort does not have a valid value")
	})

	t.Run("empty repository", func(t *testing.T) {
		f.Project(t, "empty-contrib", "public")
		res := f.In.Do(t, "GET", "/projects/g%2Fempty-contrib/repository/contributors", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, "[]", string(res.Body))
	})

	t.Run("client-go", func(t *testing.T) {
		cs, _, err := f.In.Client(t, "").Repositories.Contributors("g/pub", &gitlab.ListContributorsOptions{OrderBy: gitlab.Ptr("name")})
		require.NoError(t, err)
		require.Len(t, cs, 2)
		require.Equal(t, "Alice", cs[0].Name)
		require.Equal(t, int64(2), int64(cs[0].Commits))
	})
}

func testMergeBase(t *testing.T, f *fixture) {
	s := f.pubSeed
	base := "/projects/g%2Fpub/repository/merge_base"

	t.Run("two and more refs", func(t *testing.T) {
		cases := []struct {
			query string
			want  git.ObjectID
		}{
			{"?refs[]=feature&refs[]=main", s.feature},
			{"?refs[]=" + string(s.second) + "&refs[]=feature", s.first},
			{"?refs=main,feature", s.feature},
			{"?refs[]=main&refs[]=feature&refs[]=v1.0", s.feature}, // git merge-base: main against a merge of the others
		}
		for _, c := range cases {
			t.Run(c.query, func(t *testing.T) {
				res := f.In.Do(t, "GET", base+c.query, "", nil)
				require.Equal(t, 200, res.Status, res.String())
				got := servertest.Object(t, res)
				require.Equal(t, string(c.want), got["id"])
				require.Equal(t, f.In.URL+"/g/pub/-/commit/"+string(c.want), got["web_url"])
			})
		}
	})

	t.Run("commit shape", func(t *testing.T) {
		got := servertest.Object(t, f.In.Do(t, "GET", base+"?refs[]=v1.0&refs[]=main", "", nil))
		require.Equal(t, "First commit", got["title"])
		require.Equal(t, "First commit\n\nBody line.\n\nSigned-off-by: Alice <alice@example.com>\n", got["message"])
		// GitLab reads the merge base without parsing trailers.
		require.Equal(t, map[string]any{}, got["trailers"])
		require.Equal(t, map[string]any{}, got["extended_trailers"])
	})

	t.Run("errors", func(t *testing.T) {
		servertest.RequireError(t, f.In.Do(t, "GET", base+"?refs[]=main", "", nil), 400, "message", "Provide at least 2 refs")
		servertest.RequireError(t, f.In.Do(t, "GET", base, "", nil), 400, "error", "refs is missing")
		servertest.RequireError(t, f.In.Do(t, "GET", base+"?refs[]=main&refs[]=missing", "", nil), 400, "message", "Could not find ref: missing")
		servertest.RequireError(t, f.In.Do(t, "GET", base+"?refs[]=x&refs[]=main&refs[]=y", "", nil), 400, "message", "Could not find refs: x, y")
		servertest.RequireError(t, f.In.Do(t, "GET", base+"?refs[]=main&refs[]=orphan", "", nil), 404, "message", "404 Merge Base Not Found")
	})

	t.Run("client-go", func(t *testing.T) {
		c, _, err := f.In.Client(t, "").Repositories.MergeBase("g/pub", &gitlab.MergeBaseOptions{Ref: &[]string{"feature", "main"}})
		require.NoError(t, err)
		require.Equal(t, string(s.feature), c.ID)
	})
}
