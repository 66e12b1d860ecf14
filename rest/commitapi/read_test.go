package commitapi_test

import (
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestCommits_Read(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	r := f.Repo(t, p)
	s := seed(t, r)
	gittest.SetRef(t, r, git.BranchRef("fix/slash"), s.second)
	gittest.SetRef(t, r, git.BranchRef("ends-with.json"), s.second)
	gittest.SetRef(t, r, git.TagRef("v2.0"), s.merge)
	path := base(p) + "/commits/"

	t.Run("single commit: exact shape", func(t *testing.T) {
		res := f.In.Do(t, "GET", path+"v1.0", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, map[string]any{
			"id": string(s.first), "short_id": string(s.first)[:8],
			"created_at": "2024-03-04T05:06:07.000+02:00", "parent_ids": []any{},
			"title":       "First commit",
			"message":     "First commit\n\nBody line.\n\nSigned-off-by: Alice <alice@example.com>\nSigned-off-by: Bob <bob@example.com>\n",
			"author_name": "Alice", "author_email": "alice@example.com", "authored_date": "2024-03-04T05:06:07.000+02:00",
			"committer_name": "Alice", "committer_email": "alice@example.com", "committed_date": "2024-03-04T05:06:07.000+02:00",
			"trailers": map[string]any{}, "extended_trailers": map[string]any{},
			"web_url": f.In.URL + "/g/p/-/commit/" + string(s.first),
			"stats":   map[string]any{"additions": 5.0, "deletions": 0.0, "total": 5.0},
			"status":  nil, "project_id": float64(p.ID), "last_pipeline": nil,
		}, servertest.Object(t, res))
	})

	t.Run("single commit by any name", func(t *testing.T) {
		for name, want := range map[string]git.ObjectID{
			string(s.merge): s.merge, "main": s.merge, "fix%2Fslash": s.second, "ends-with.json": s.second,
			"ends-with%2Ejson": s.second, string(s.first)[:10]: s.first,
		} {
			res := f.In.Do(t, "GET", path+name, "", nil)
			require.Equal(t, 200, res.Status, name+": "+res.String())
			require.Equal(t, string(want), servertest.Object(t, res)["id"], name)
		}
		res := f.In.Do(t, "GET", path+"main?stats=false", "", nil)
		require.NotContains(t, servertest.Object(t, res), "stats")
		servertest.RequireError(t, f.In.Do(t, "GET", path+"fix/slash", "", nil), 404, "error", "404 Not Found")
		for _, name := range []string{"unknown", "--output=x", "0000000000000000000000000000000000000000", "v1.0..main"} {
			servertest.RequireError(t, f.In.Do(t, "GET", path+servertest.Esc(name), "", nil), 404, "message", "404 Commit Not Found")
		}
	})

	t.Run("client-go GetCommit", func(t *testing.T) {
		c, _, err := f.In.Client(t, f.Tokens["reporter"]).Commits.GetCommit(p.ID, "ends-with.json", nil)
		require.NoError(t, err)
		require.Equal(t, string(s.second), c.ID)
		require.Equal(t, int64(p.ID), c.ProjectID)
		require.Equal(t, int64(3), c.Stats.Total)
		require.Nil(t, c.LastPipeline)
	})

	t.Run("refs", func(t *testing.T) {
		res := f.In.Do(t, "GET", path+string(s.first)+"/refs", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, []map[string]any{
			{"type": "branch", "name": "ends-with.json"}, {"type": "branch", "name": "feature"},
			{"type": "branch", "name": "fix/slash"}, {"type": "branch", "name": "main"},
			{"type": "tag", "name": "v1.0"}, {"type": "tag", "name": "v2.0"},
		}, servertest.List(t, res))
		res = f.In.Do(t, "GET", path+"feature/refs?type=branch", "", nil)
		require.Equal(t, []map[string]any{{"type": "branch", "name": "feature"}, {"type": "branch", "name": "main"}}, servertest.List(t, res))
		res = f.In.Do(t, "GET", path+"main/refs?type=tag", "", nil)
		require.Equal(t, []map[string]any{{"type": "tag", "name": "v2.0"}}, servertest.List(t, res))

		for _, tc := range []struct {
			page, next string
			n          int
		}{{"1", "2", 4}, {"2", "", 2}} {
			res := f.In.Do(t, "GET", path+string(s.first)+"/refs?per_page=4&page="+tc.page, "", nil)
			require.Len(t, servertest.List(t, res), tc.n)
			require.Equal(t, tc.next, res.Header.Get("X-Next-Page"))
			require.Empty(t, res.Header.Values("X-Total"))
			require.NotContains(t, res.Header.Get("Link"), `rel="last"`)
		}
		servertest.RequireError(t, f.In.Do(t, "GET", path+"main/refs?type=x", "", nil), 400, "error", "type does not have a valid value")
		servertest.RequireError(t, f.In.Do(t, "GET", path+"unknown/refs", "", nil), 404, "message", "404 Commit Not Found")

		refs, _, err := f.In.Client(t, "").Commits.GetCommitRefs(p.ID, "main", &gitlab.GetCommitRefsOptions{Type: gitlab.Ptr("all")})
		require.NoError(t, err)
		require.Equal(t, []*gitlab.CommitRef{{Type: "branch", Name: "main"}, {Type: "tag", Name: "v2.0"}}, refs)
	})

	t.Run("sequence", func(t *testing.T) {
		for q, want := range map[string]float64{
			"main/sequence": 4, "main/sequence?first_parent=true": 3, string(s.first) + "/sequence": 1, "orphan/sequence": 1,
		} {
			res := f.In.Do(t, "GET", path+q, "", nil)
			require.Equal(t, 200, res.Status, res.String())
			require.Equal(t, map[string]any{"count": want}, servertest.Object(t, res), q)
		}
		servertest.RequireError(t, f.In.Do(t, "GET", path+"unknown/sequence", "", nil), 404, "message", "404 Commit Not Found")
	})

	t.Run("diff", func(t *testing.T) {
		res := f.In.Do(t, "GET", path+string(s.second)+"/diff", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, []map[string]any{{
			"diff": "@@ -0,0 +1 @@\n+v1\n", "new_path": "CHANGELOG.md", "old_path": "CHANGELOG.md",
			"a_mode": "0", "b_mode": "100644", "new_file": true, "renamed_file": false, "deleted_file": false,
			"collapsed": false, "too_large": false, "generated_file": false,
		}, {
			"diff": "@@ -1,3 +1,3 @@\n # Demo\n \n-Hello.\n+Hello, world.\n", "new_path": "README.md", "old_path": "README.md",
			"a_mode": "100644", "b_mode": "100644", "new_file": false, "renamed_file": false, "deleted_file": false,
			"collapsed": false, "too_large": false, "generated_file": false,
		}}, servertest.List(t, res))
		require.Equal(t, "2", res.Header.Get("X-Total"))

		res = f.In.Do(t, "GET", path+string(s.second)+"/diff?unidiff=true&per_page=1", "", nil)
		got := servertest.List(t, res)
		require.Len(t, got, 1)
		require.Equal(t, "--- /dev/null\n+++ b/CHANGELOG.md\n@@ -0,0 +1 @@\n+v1\n", got[0]["diff"])
		require.Equal(t, "2", res.Header.Get("X-Total-Pages"))
		require.Equal(t, "2", res.Header.Get("X-Next-Page"))

		// A merge is compared with its first parent; a root commit with the empty tree.
		res = f.In.Do(t, "GET", path+"main/diff", "", nil)
		require.Equal(t, []any{"feature.txt"}, pluck(servertest.List(t, res), "new_path"))
		res = f.In.Do(t, "GET", path+"v1.0/diff", "", nil)
		require.Equal(t, []any{"README.md", "lib", "src/main.go"}, pluck(servertest.List(t, res), "new_path"))

		diffs, _, err := f.In.Client(t, "").Commits.GetCommitDiff(p.ID, "feature", nil)
		require.NoError(t, err)
		require.Equal(t, []*gitlab.Diff{{Diff: "@@ -0,0 +1 @@\n+feature\n", NewPath: "feature.txt", OldPath: "feature.txt", AMode: "0", BMode: "100644", NewFile: true}}, diffs)
		servertest.RequireError(t, f.In.Do(t, "GET", path+"unknown/diff", "", nil), 404, "message", "404 Commit Not Found")
	})

	t.Run("private project reads", func(t *testing.T) {
		priv := f.ProjectWithReadme(t, "priv", "private")
		for _, sub := range []string{"main", "main/refs", "main/sequence", "main/diff"} {
			path := base(priv) + "/commits/" + sub
			servertest.RequireError(t, f.In.Do(t, "GET", path, "", nil), 404, "message", "404 Project Not Found")
			servertest.RequireError(t, f.In.Do(t, "GET", path, f.Tokens["guest"], nil), 403, "message", "403 Forbidden")
			require.Equal(t, 200, f.In.Do(t, "GET", path, f.Tokens["reporter"], nil).Status, sub)
		}
	})
}

// pluck returns one field of each object.
func pluck(items []map[string]any, key string) []any {
	out := make([]any, len(items))
	for i, m := range items {
		out[i] = m[key]
	}
	return out
}
