package commitapi_test

import (
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestCommits_List(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	r := f.Repo(t, p)
	s := seed(t, r)
	// A second history where date order and topological order differ.
	a := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Minute: 10, Files: map[string]string{"t.txt": "a\n"}})
	b1 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: a, Parents: []git.ObjectID{a}, Author: alice, Minute: 11, Files: map[string]string{"b.txt": "1\n"}})
	c1 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: a, Parents: []git.ObjectID{a}, Author: bob, Minute: 12, Files: map[string]string{"c.txt": "1\n"}})
	b2 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: b1, Parents: []git.ObjectID{b1}, Author: alice, Minute: 13, Files: map[string]string{"b.txt": "2\n"}})
	c2 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: c1, Parents: []git.ObjectID{c1}, Author: bob, Minute: 14, Files: map[string]string{"c.txt": "2\n"}})
	m := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: b2, Parents: []git.ObjectID{b2, c2}, Author: merger, Minute: 15, Files: map[string]string{"c.txt": "2\n"}})
	gittest.SetRef(t, r, git.BranchRef("topo"), m)
	path := base(p) + "/commits"

	t.Run("exact shape with the commit's time zone", func(t *testing.T) {
		res := f.In.Do(t, "GET", path+"?ref_name=main&per_page=3&page=1", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		got := servertest.List(t, res)
		require.Equal(t, strs(s.merge, s.feature, s.second), ids(got))
		require.Equal(t, map[string]any{
			"id": string(s.second), "short_id": string(s.second)[:8],
			"created_at": "2024-03-04T05:07:07.000+02:00", "parent_ids": []any{string(s.first)},
			"title": "Second [commit]", "message": "Second [commit]\n",
			"author_name": "Bob", "author_email": "bob@example.com", "authored_date": "2024-03-04T05:07:07.000+02:00",
			"committer_name": "Bob", "committer_email": "bob@example.com", "committed_date": "2024-03-04T05:07:07.000+02:00",
			"trailers": map[string]any{}, "extended_trailers": map[string]any{},
			"web_url": f.In.URL + "/g/p/-/commit/" + string(s.second),
		}, got[2])
		require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	})

	t.Run("ref_name forms", func(t *testing.T) {
		for _, tc := range []struct {
			desc, ref string
			want      []git.ObjectID
		}{
			{"default branch", "", []git.ObjectID{s.merge, s.feature, s.second, s.first}},
			{"HEAD", "HEAD", []git.ObjectID{s.merge, s.feature, s.second, s.first}},
			{"branch", "feature", []git.ObjectID{s.feature, s.first}},
			{"tag", "v1.0", []git.ObjectID{s.first}},
			{"sha", string(s.second), []git.ObjectID{s.second, s.first}},
			{"two-dot range", "v1.0..main", []git.ObjectID{s.merge, s.feature, s.second}},
			{"three-dot range", "feature...main", []git.ObjectID{s.merge, s.second}},
			{"unknown ref", "nope", nil},
			{"unknown range end", "v1.0..nope", nil},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				res := f.In.Do(t, "GET", path+"?"+url.Values{"ref_name": {tc.ref}}.Encode(), "", nil)
				require.Equal(t, 200, res.Status, res.String())
				require.Equal(t, strs(tc.want...), ids(servertest.List(t, res)))
			})
		}
	})

	t.Run("ref_name that is an option or has blanks is refused", func(t *testing.T) {
		for _, ref := range []string{"-main", "--upload-pack=x", "main branch", "main\tx"} {
			res := f.In.Do(t, "GET", path+"?"+url.Values{"ref_name": {ref}}.Encode(), "", nil)
			servertest.RequireError(t, res, 400, "message", "ref_name is invalid")
		}
	})

	t.Run("filters", func(t *testing.T) {
		for _, tc := range []struct {
			desc  string
			query url.Values
			want  []git.ObjectID
		}{
			{"since is inclusive", url.Values{"since": {"2024-03-04T05:07:07+02:00"}, "ref_name": {"main"}}, []git.ObjectID{s.merge, s.feature, s.second}},
			{"until is inclusive", url.Values{"until": {"2024-03-04T03:07:07Z"}, "ref_name": {"main"}}, []git.ObjectID{s.second, s.first}},
			{"path", url.Values{"path": {"feature.txt"}, "ref_name": {"main"}}, []git.ObjectID{s.feature}},
			{"author name", url.Values{"author": {"Bob"}, "ref_name": {"main"}}, []git.ObjectID{s.second}},
			{"author email", url.Values{"author": {"alice@example"}, "ref_name": {"main"}}, []git.ObjectID{s.feature, s.first}},
			{"author is literal text", url.Values{"author": {"[a"}, "ref_name": {"main"}}, nil},
			{"empty author", url.Values{"author": {""}, "ref_name": {"feature"}}, []git.ObjectID{s.feature, s.first}},
			{"first_parent", url.Values{"first_parent": {"true"}, "ref_name": {"main"}}, []git.ObjectID{s.merge, s.second, s.first}},
			{"all", url.Values{"all": {"true"}, "ref_name": {"feature"}, "until": {"2024-03-04T05:10:07+02:00"}}, []git.ObjectID{s.orphan, s.merge, s.feature, s.second, s.first}},
			{"default order", url.Values{"ref_name": {"topo"}, "order": {"default"}}, []git.ObjectID{m, c2, b2, c1, b1, a}},
			{"topo order", url.Values{"ref_name": {"topo"}, "order": {"topo"}}, []git.ObjectID{m, c2, c1, b2, b1, a}},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				res := f.In.Do(t, "GET", path+"?"+tc.query.Encode(), "", nil)
				require.Equal(t, 200, res.Status, res.String())
				require.Equal(t, strs(tc.want...), ids(servertest.List(t, res)))
			})
		}
	})

	t.Run("with_stats", func(t *testing.T) {
		res := f.In.Do(t, "GET", path+"?ref_name="+string(s.second)+"&with_stats=true", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		got := servertest.List(t, res)
		require.Equal(t, map[string]any{"additions": 2.0, "deletions": 1.0, "total": 3.0}, got[0]["stats"])
		require.Equal(t, map[string]any{"additions": 5.0, "deletions": 0.0, "total": 5.0}, got[1]["stats"])
		res = f.In.Do(t, "GET", path+"?ref_name="+string(s.second), "", nil)
		require.NotContains(t, servertest.List(t, res)[0], "stats")
	})

	t.Run("trailers only when asked", func(t *testing.T) {
		res := f.In.Do(t, "GET", path+"?ref_name=v1.0", "", nil)
		got := servertest.List(t, res)
		require.Equal(t, map[string]any{}, got[0]["trailers"])
		require.Equal(t, map[string]any{}, got[0]["extended_trailers"])
		res = f.In.Do(t, "GET", path+"?ref_name=v1.0&trailers=true", "", nil)
		got = servertest.List(t, res)
		require.Equal(t, map[string]any{"Signed-off-by": "Bob <bob@example.com>"}, got[0]["trailers"])
		require.Equal(t, map[string]any{"Signed-off-by": []any{"Alice <alice@example.com>", "Bob <bob@example.com>"}}, got[0]["extended_trailers"])
	})

	t.Run("pagination headers without totals", func(t *testing.T) {
		for _, tc := range []struct {
			page, next, prev string
			n                int
		}{{"1", "2", "", 2}, {"2", "3", "1", 2}, {"3", "", "2", 0}} {
			res := f.In.Do(t, "GET", path+"?ref_name=main&per_page=2&page="+tc.page, "", nil)
			require.Equal(t, 200, res.Status, res.String())
			require.Len(t, servertest.List(t, res), tc.n)
			h := res.Header
			require.Equal(t, "2", h.Get("X-Per-Page"))
			require.Equal(t, tc.page, h.Get("X-Page"))
			require.Equal(t, tc.next, h.Get("X-Next-Page"))
			require.Equal(t, tc.prev, h.Get("X-Prev-Page"))
			require.Empty(t, h.Values("X-Total"))
			require.Empty(t, h.Values("X-Total-Pages"))
			require.Contains(t, h.Get("Link"), `rel="first"`)
			require.NotContains(t, h.Get("Link"), `rel="last"`)
		}
		res := f.In.Do(t, "GET", path+"?per_page=101", "", nil)
		require.Equal(t, "100", res.Header.Get("X-Per-Page"))
	})

	t.Run("bad parameters", func(t *testing.T) {
		servertest.RequireError(t, f.In.Do(t, "GET", path+"?order=random", "", nil), 400, "error", "order does not have a valid value")
		servertest.RequireError(t, f.In.Do(t, "GET", path+"?since=invalid-date", "", nil), 400, "error", "since is invalid")
		servertest.RequireError(t, f.In.Do(t, "GET", path+"?per_page=a", "", nil), 400, "error", "per_page is invalid")
		servertest.RequireError(t, f.In.Do(t, "GET", path+"?path=../x", "", nil), 400, "error", "path is invalid")
	})

	t.Run("client-go", func(t *testing.T) {
		gl := f.In.Client(t, f.Tokens["reporter"])
		got, resp, err := gl.Commits.ListCommits(p.ID, &gitlab.ListCommitsOptions{RefName: gitlab.Ptr("feature"), WithStats: gitlab.Ptr(true)})
		require.NoError(t, err)
		require.Equal(t, int64(0), resp.NextPage)
		require.Len(t, got, 2)
		require.Equal(t, string(s.feature), got[0].ID)
		require.Equal(t, "Add feature", got[0].Title)
		require.Equal(t, int64(1), got[0].Stats.Additions)
		require.Equal(t, epoch.Add(2*60e9).Unix(), got[0].CommittedDate.Unix())
	})

	t.Run("empty repository", func(t *testing.T) {
		empty := f.Project(t, "empty", "public")
		res := f.In.Do(t, "GET", base(empty)+"/commits", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, "[]", string(res.Body))
	})

	t.Run("permissions", func(t *testing.T) {
		priv := f.ProjectWithReadme(t, "priv", "private")
		path := base(priv) + "/commits"
		servertest.RequireError(t, f.In.Do(t, "GET", path, "", nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.In.Do(t, "GET", path, f.Tokens["outsider"], nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.In.Do(t, "GET", path, f.Tokens["guest"], nil), 403, "message", "403 Forbidden")
		for _, who := range []string{"reporter", "developer", "maintainer", "root"} {
			res := f.In.Do(t, "GET", path, f.Tokens[who], nil)
			require.Equal(t, 200, res.Status, who+": "+res.String())
			require.Len(t, servertest.List(t, res), 1)
			require.Equal(t, "Initial commit", servertest.List(t, res)[0]["title"])
		}
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/999999/repository/commits", f.Tokens["root"], nil), 404, "message", "404 Project Not Found")
	})
}
