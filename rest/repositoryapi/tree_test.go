package repositoryapi_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// names lists the paths of a tree response, in order.
func paths(entries []map[string]any) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e["path"].(string)
	}
	return out
}

func testTree(t *testing.T, f *fixture) {
	r, s := f.pubRepo, f.pubSeed
	base := "/projects/g%2Fpub/repository/tree"

	t.Run("root of the default branch, trees first, exact entries and page headers", func(t *testing.T) {
		res := f.In.Do(t, "GET", base, "", nil)
		require.Equal(t, 200, res.Status, res.String())
		got := servertest.List(t, res)
		require.Equal(t, []string{"a", "b", "bin", "docs", "src", "CHANGELOG.md", "README.md", "empty.txt", "feature.txt", "lib"}, paths(got))
		readme, err := r.TreeEntryAt(context.Background(), string(s.merge), "README.md")
		require.NoError(t, err)
		docs, err := r.TreeEntryAt(context.Background(), string(s.merge), "docs")
		require.NoError(t, err)
		require.Equal(t, map[string]any{"id": string(docs.ID), "name": "docs", "type": "tree", "path": "docs", "mode": "040000"}, got[3])
		require.Equal(t, map[string]any{"id": string(readme.ID), "name": "README.md", "type": "blob", "path": "README.md", "mode": "100644"}, got[6])
		require.Equal(t, map[string]any{"id": gittest.SubmoduleCommit, "name": "lib", "type": "commit", "path": "lib", "mode": "160000"}, got[9])
		require.Equal(t, "application/json", res.Header.Get("Content-Type"))
		require.Equal(t, "10", res.Header.Get("X-Total"))
		require.Equal(t, "1", res.Header.Get("X-Total-Pages"))
		require.Equal(t, "1", res.Header.Get("X-Page"))
		require.Equal(t, "20", res.Header.Get("X-Per-Page"))
		require.Equal(t, "", res.Header.Get("X-Next-Page"))
	})

	t.Run("subdirectory, ref, recursive", func(t *testing.T) {
		cases := []struct {
			desc, query string
			want        []string
		}{
			{"path", "?path=docs", []string{"docs/img", "docs/guide.md"}},
			{"path with slashes around", "?path=%2Fdocs%2F", []string{"docs/img", "docs/guide.md"}},
			{"nested path", "?path=docs/img", []string{"docs/img/logo.png"}},
			{"branch", "?ref=feature&path=src", []string{"src/util", "src/main.go"}},
			{"tag", "?ref=v1.0", []string{"a", "b", "bin", "docs", "src", "README.md", "empty.txt", "lib"}},
			{"commit id", "?ref=" + string(s.orphan), []string{"other.txt"}},
			{"recursive", "?recursive=true&path=docs&per_page=100", []string{"docs/img", "docs/guide.md", "docs/img/logo.png"}},
			{"recursive whole tree", "?recursive=1&per_page=100", []string{
				"a", "b", "bin", "docs", "docs/img", "src", "src/util",
				"CHANGELOG.md", "README.md", "a/dup.txt", "b/dup.txt", "bin/run.sh", "docs/guide.md", "docs/img/logo.png",
				"empty.txt", "feature.txt", "src/main.go", "src/util/util.go", "lib"}},
			{"a file lists nothing", "?path=README.md", []string{}},
		}
		for _, c := range cases {
			t.Run(c.desc, func(t *testing.T) {
				res := f.In.Do(t, "GET", base+c.query, "", nil)
				require.Equal(t, 200, res.Status, res.String())
				require.Equal(t, c.want, paths(servertest.List(t, res)))
			})
		}
	})

	t.Run("modes and names of nested entries", func(t *testing.T) {
		got := servertest.List(t, f.In.Do(t, "GET", base+"?path=bin", "", nil))
		require.Len(t, got, 1)
		require.Equal(t, "run.sh", got[0]["name"])
		require.Equal(t, "100755", got[0]["mode"])
	})

	t.Run("offset pages", func(t *testing.T) {
		res := f.In.Do(t, "GET", base+"?per_page=3&page=2", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, []string{"docs", "src", "CHANGELOG.md"}, paths(servertest.List(t, res)))
		require.Equal(t, "10", res.Header.Get("X-Total"))
		require.Equal(t, "4", res.Header.Get("X-Total-Pages"))
		require.Equal(t, "3", res.Header.Get("X-Next-Page"))
		require.Equal(t, "1", res.Header.Get("X-Prev-Page"))
		require.Contains(t, res.Header.Get("Link"), `rel="next"`)
	})

	t.Run("pagination=none returns everything without page headers", func(t *testing.T) {
		res := f.In.Do(t, "GET", base+"?recursive=true&pagination=none", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Len(t, servertest.List(t, res), 19)
		require.Empty(t, res.Header.Get("X-Total"))
		require.Empty(t, res.Header.Get("Link"))
	})

	t.Run("errors", func(t *testing.T) {
		cases := []struct {
			desc, query string
			status      int
			key, msg    string
		}{
			{"unknown ref", "?ref=nope", 404, "message", "404 Tree Not Found"},
			{"ref that is not a commit", "?ref=main:README.md", 404, "message", "404 Tree Not Found"},
			{"option-like ref", "?ref=--output=x", 404, "message", "404 Tree Not Found"},
			{"unknown path", "?path=nope", 404, "message", "404 invalid revision or path Not Found"},
			{"unknown recursive path", "?path=nope&recursive=true", 404, "message", "404 invalid revision or path Not Found"},
			{"traversal", "?path=docs/../..", 404, "message", "404 Path cannot include traversal syntax Not Found"},
			{"none without recursive", "?pagination=none", 400, "error", `pagination cannot be "none" unless "recursive" is true`},
			{"unknown pagination", "?pagination=cursor", 400, "error", "pagination does not have a valid value"},
			{"bad recursive", "?recursive=maybe", 400, "error", "recursive is invalid"},
			{"bad per_page", "?per_page=x", 400, "error", "per_page is invalid"},
			{"unknown page token", "?pagination=keyset&page_token=nope", 400, "error", "page_token is invalid"},
		}
		for _, c := range cases {
			t.Run(c.desc, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, "GET", base+c.query, "", nil), c.status, c.key, c.msg)
			})
		}
	})

	t.Run("empty repository has no tree", func(t *testing.T) {
		f.Project(t, "empty-tree", "public")
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fempty-tree/repository/tree", "", nil), 404, "message", "404 Tree Not Found")
	})

	t.Run("client-go", func(t *testing.T) {
		nodes, _, err := f.In.Client(t, f.Tokens["outsider"]).Repositories.ListTree("g/pub", &gitlab.ListTreeOptions{
			Path: gitlab.Ptr("src"), Ref: gitlab.Ptr("feature"), Recursive: gitlab.Ptr(true)})
		require.NoError(t, err)
		require.Len(t, nodes, 3)
		require.Equal(t, gitlab.TreeNode{ID: nodes[0].ID, Name: "util", Type: "tree", Path: "src/util", Mode: "040000"}, *nodes[0])
	})
}

var nextLink = regexp.MustCompile(`<([^>]+)>; rel="next"`)

func testTreeKeyset(t *testing.T, f *fixture) {
	all := paths(servertest.List(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/tree?recursive=true&pagination=none", "", nil)))

	t.Run("following Link rel=next visits every entry once", func(t *testing.T) {
		var got []string
		next := f.In.URL + "/api/v4/projects/g%2Fpub/repository/tree?recursive=true&pagination=keyset&per_page=4"
		for pages := 0; next != ""; pages++ {
			require.Less(t, pages, 10, "pagination does not end")
			res := f.In.Do(t, "GET", next, "", nil)
			require.Equal(t, 200, res.Status, res.String())
			page := paths(servertest.List(t, res))
			require.LessOrEqual(t, len(page), 4)
			got = append(got, page...)
			require.Empty(t, res.Header.Get("X-Total"))
			require.Empty(t, res.Header.Get("X-Next-Page"))
			next = ""
			if m := nextLink.FindStringSubmatch(res.Header.Get("Link")); m != nil {
				next = m[1]
				require.True(t, strings.HasPrefix(next, f.In.URL+"/api/v4/projects/g%2Fpub/repository/tree?"), next)
				u, err := url.Parse(next)
				require.NoError(t, err)
				require.NotEmpty(t, u.Query().Get("page_token"))
				require.Equal(t, "keyset", u.Query().Get("pagination"))
			}
		}
		require.Equal(t, all, got)
	})

	t.Run("page_token may be the last entry's id, as GitLab documents", func(t *testing.T) {
		first := servertest.List(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/tree?pagination=keyset&per_page=3", "", nil))
		require.Equal(t, []string{"a", "b", "bin"}, paths(first))
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/tree?pagination=keyset&per_page=3&page_token="+first[2]["id"].(string), "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, []string{"docs", "src", "CHANGELOG.md"}, paths(servertest.List(t, res)))
	})

	t.Run("the last page has no next link", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/tree?pagination=keyset&per_page=100", "", nil)
		require.Equal(t, 200, res.Status)
		require.Len(t, servertest.List(t, res), 10)
		require.Empty(t, res.Header.Get("Link"))
	})

	t.Run("client-go iterates keyset pages", func(t *testing.T) {
		c := f.In.Client(t, "")
		opt := &gitlab.ListTreeOptions{Recursive: gitlab.Ptr(true),
			ListOptions: gitlab.ListOptions{Pagination: "keyset", PerPage: 5}}
		var got []string
		for i := 0; i < 10; i++ {
			nodes, resp, err := c.Repositories.ListTree("g/pub", opt)
			require.NoError(t, err)
			for _, n := range nodes {
				got = append(got, n.Path)
			}
			if resp.NextLink == "" {
				break
			}
			opt.PageToken = ""
			u, err := url.Parse(resp.NextLink)
			require.NoError(t, err)
			opt.PageToken = u.Query().Get("page_token")
		}
		require.Equal(t, all, got)
	})
}

// TestTree_duplicateBlobs checks that keyset pages do not loop on identical files, which share
// a blob id.
func testTreeDuplicateBlobs(t *testing.T, f *fixture) {
	p := f.Project(t, "dups", "public")
	r := f.Repo(t, p)
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		files[n+"/.keep"] = ""
	}
	gittest.SetRef(t, r, git.BranchRef("main"), gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Files: files}))
	var got []string
	next := "/projects/g%2Fdups/repository/tree?recursive=true&pagination=keyset&per_page=1"
	for pages := 0; next != ""; pages++ {
		require.Less(t, pages, 20, "pagination does not end")
		res := f.In.Do(t, "GET", next, "", nil)
		require.Equal(t, 200, res.Status, res.String())
		got = append(got, paths(servertest.List(t, res))...)
		next = ""
		if m := nextLink.FindStringSubmatch(res.Header.Get("Link")); m != nil {
			next = m[1]
		}
	}
	require.Equal(t, []string{"a", "b", "c", "d", "e", "a/.keep", "b/.keep", "c/.keep", "d/.keep", "e/.keep"}, got)
}
