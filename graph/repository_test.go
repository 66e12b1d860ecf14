package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Commit identities and dates of the written history: a +02:00 zone, kept in the dates shown.
var (
	sigAlice = git.Signature{Name: "Alice", Email: "alice@example.com"}
	sigBob   = git.Signature{Name: "Bob", Email: "bob@example.com"}
	epoch    = time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 2*3600))
)

// pngBytes is a 1x1 PNG image: binary content.
var pngBytes = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82"

// repoWorld is a public group g with a public project created with a README, a private project
// whose history is written through the git layer, an empty public project and a public project
// whose repository feature is disabled; alice is a Developer of g, gus a Guest, bob an outsider.
type repoWorld struct {
	in                      *servertest.Instance
	root                    *ent.User
	alice, gus, bob         string
	readme, code            *ent.Project
	first, second, featureC git.ObjectID
}

func newRepoWorld(t *testing.T) *repoWorld {
	t.Helper()
	in := servertest.Start(t)
	root, err := in.Services.Users.FindByRef(context.Background(), "root")
	require.NoError(t, err)
	w := &repoWorld{in: in, root: root}
	g := in.NewGroup(t, "g", "public", nil)
	alice, aliceToken := in.NewUser(t, "alice")
	gus, gusToken := in.NewUser(t, "gus")
	_, w.bob = in.NewUser(t, "bob")
	w.alice, w.gus = aliceToken, gusToken
	in.AddGroupMember(t, g, alice, 30)
	in.AddGroupMember(t, g, gus, 10)

	w.readme = w.project(t, g, "readme", "public", true, nil)
	w.code = w.project(t, g, "code", "private", false, nil)
	w.project(t, g, "empty", "public", false, nil)
	w.project(t, g, "nocode", "public", true, map[string]string{"repository": "disabled"})

	r, err := in.Services.Repos.Repository(w.code)
	require.NoError(t, err)
	w.first = gittest.WriteCommit(t, r, gittest.Write{Author: sigAlice, Epoch: epoch, Message: "First commit\n\nBody line.\n", Files: map[string]string{
		"README.md":         "# Code\n",
		"docs/guide.md":     "Guide\n",
		"docs/img/logo.png": pngBytes,
		"deep/a/b/c.txt":    "deep\n",
		"src/main.go":       "package main\n",
		"bin/run.sh+x":      "#!/bin/sh\n",
	}, Submodule: "lib"})
	require.NoError(t, r.UpdateRef(context.Background(), git.TagRef("v1.0"), w.first, ""))
	w.second = gittest.WriteCommit(t, r, gittest.Write{Base: w.first, Parents: []git.ObjectID{w.first}, Author: sigBob, Epoch: epoch, Minute: 1,
		Message: "Update the README\n", Files: map[string]string{"README.md": "# Code\n\nMore.\n"}})
	require.NoError(t, r.UpdateRef(context.Background(), git.BranchRef("main"), w.second, ""))
	w.featureC = gittest.WriteCommit(t, r, gittest.Write{Base: w.first, Parents: []git.ObjectID{w.first}, Author: sigAlice, Epoch: epoch, Minute: 2,
		Message: "Add a feature\n", Files: map[string]string{"feature.txt": "feature\n"}})
	require.NoError(t, r.UpdateRef(context.Background(), git.BranchRef("feature"), w.featureC, ""))
	return w
}

// project creates a project in g through the project service, so that it owns a repository
// (with a first commit when readme).
func (w *repoWorld) project(t *testing.T, g *ent.Namespace, path, visibility string, readme bool, levels map[string]string) *ent.Project {
	t.Helper()
	p, _, err := w.in.Services.Projects.Create(context.Background(), authz.System(w.root), projects.CreateInput{
		Attributes:           projects.Attributes{Path: &path, Visibility: &visibility, AccessLevels: levels},
		NamespaceID:          &g.ID,
		InitializeWithReadme: readme,
	})
	require.NoError(t, err)
	return p
}

// TestRepository runs the repository reads on one server.
func TestRepository(t *testing.T) {
	w := newRepoWorld(t)
	t.Run("project created with a README", func(t *testing.T) { testReadmeRepository(t, w) })
	t.Run("tree of a written history", func(t *testing.T) { testTree(t, w) })
	t.Run("tree pages", func(t *testing.T) { testTreePages(t, w) })
	t.Run("blobs", func(t *testing.T) { testBlobs(t, w) })
	t.Run("branch names", func(t *testing.T) { testBranchNames(t, w) })
	t.Run("branches", func(t *testing.T) { testBranches(t, w) })
	t.Run("commits", func(t *testing.T) { testCommits(t, w) })
	t.Run("empty repository", func(t *testing.T) { testEmptyRepository(t, w) })
	t.Run("bad arguments", func(t *testing.T) { testRepositoryArguments(t, w) })
	t.Run("visibility parity with REST", func(t *testing.T) { testRepositoryVisibility(t, w) })
}

func testReadmeRepository(t *testing.T, w *repoWorld) {
	// The REST commit list says which commit the README made.
	r := w.in.Do(t, "GET", "/projects/g%2Freadme/repository/commits", "", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	restCommits := decodeList(t, r)
	require.Len(t, restCommits, 1)
	sha := restCommits[0]["id"].(string)

	d := data(t, w.in, "", `{ project(fullPath: "g/readme") { repository {
		rootRef empty exists
		tree {
			lastCommit { id sha shortId title fullTitle description message authorName authorEmail webUrl webPath author { username } }
			trees { nodes { name } }
			submodules { nodes { name } }
			blobs { nodes { id sha name path flatPath type mode webUrl webPath lfsOid } }
		}
		blobs(paths: ["README.md", "missing.txt"]) { nodes { id oid name path size rawSize rawBlob rawTextBlob mode webPath rawPath storedExternally } }
		branchNames(searchPattern: "*", offset: 0, limit: 10)
	} } }`, nil)
	repo := path(d, "project", "repository").(map[string]any)
	assert.Equal(t, "main", repo["rootRef"])
	assert.Equal(t, false, repo["empty"])
	assert.Equal(t, true, repo["exists"])
	assert.Equal(t, []any{"main"}, repo["branchNames"])
	assert.Equal(t, map[string]any{
		"id": "gid://gitlab/CommitPresenter/" + sha, "sha": sha, "shortId": sha[:8],
		"title": "Initial commit", "fullTitle": "Initial commit", "description": nil, "message": "Initial commit",
		"authorName": "Administrator", "authorEmail": restCommits[0]["author_email"],
		"webUrl": w.in.URL + "/g/readme/-/commit/" + sha, "webPath": "/g/readme/-/commit/" + sha,
		"author": map[string]any{"username": "root"},
	}, path(repo, "tree", "lastCommit"))
	assert.Equal(t, []any{}, path(repo, "tree", "trees", "nodes"))
	assert.Equal(t, []any{}, path(repo, "tree", "submodules", "nodes"))

	// The tree lists what REST lists.
	r = w.in.Do(t, "GET", "/projects/g%2Freadme/repository/tree", "", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	restTree := decodeList(t, r)
	require.Len(t, restTree, 1)
	blobID := restTree[0]["id"].(string)
	assert.Equal(t, []any{map[string]any{
		"id": "gid://gitlab/Gitlab::Graphql::Representation::TreeEntry/" + blobID, "sha": blobID,
		"name": "README.md", "path": "README.md", "flatPath": "README.md", "type": "blob", "mode": "100644",
		"webUrl": w.in.URL + "/g/readme/-/blob/" + sha + "/README.md", "webPath": "/g/readme/-/blob/" + sha + "/README.md", "lfsOid": nil,
	}}, path(repo, "tree", "blobs", "nodes"))

	// The file API and the blobs field agree.
	r = w.in.Do(t, "GET", "/projects/g%2Freadme/repository/files/README%2Emd?ref=main", "", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	file := decodeObject(t, r)
	assert.Equal(t, []any{map[string]any{
		"id": "gid://gitlab/Blob/" + blobID, "oid": blobID, "name": "README.md", "path": "README.md",
		"size": file["size"], "rawSize": file["size"], "rawBlob": "# readme\n", "rawTextBlob": "# readme\n", "mode": "100644",
		"webPath": "/g/readme/-/blob/main/README.md", "rawPath": "/g/readme/-/raw/main/README.md", "storedExternally": false,
	}}, path(repo, "blobs", "nodes"))
	assert.Equal(t, file["blob_id"], blobID)
}

func testTree(t *testing.T, w *repoWorld) {
	query := `query($path: String, $ref: String, $type: RefType, $rec: Boolean) { project(fullPath: "g/code") { repository {
		tree(path: $path, ref: $ref, refType: $type, recursive: $rec) {
			lastCommit { sha title description authoredDate committedDate authorName authorGravatar author { username } }
			trees { nodes { name path flatPath type webPath } }
			blobs { nodes { name path mode } }
			submodules { nodes { id name path type flatPath webUrl } }
		}
	} } }`
	names := func(v any) []string {
		out := []string{}
		for _, n := range v.([]any) {
			out = append(out, n.(map[string]any)["path"].(string))
		}
		return out
	}
	t.Run("root at HEAD", func(t *testing.T) {
		d := data(t, w.in, w.alice, query, nil)
		tree := path(d, "project", "repository", "tree")
		second := string(w.second)
		assert.Equal(t, map[string]any{
			"sha": second, "title": "Update the README", "description": "", "authorName": "Bob",
			"authoredDate": "2024-03-04T05:07:07+02:00", "committedDate": "2024-03-04T05:07:07+02:00",
			"authorGravatar": "https://www.gravatar.com/avatar/4b9bb80620f03eb3719e0a061c14283d?s=80&d=identicon",
			"author":         map[string]any{"username": "bob"},
		}, path(tree, "lastCommit"))
		assert.Equal(t, []any{
			map[string]any{"name": "bin", "path": "bin", "flatPath": "bin", "type": "tree", "webPath": "/g/code/-/tree/" + second + "/bin"},
			map[string]any{"name": "deep", "path": "deep", "flatPath": "deep/a/b", "type": "tree", "webPath": "/g/code/-/tree/" + second + "/deep"},
			map[string]any{"name": "docs", "path": "docs", "flatPath": "docs", "type": "tree", "webPath": "/g/code/-/tree/" + second + "/docs"},
			map[string]any{"name": "src", "path": "src", "flatPath": "src", "type": "tree", "webPath": "/g/code/-/tree/" + second + "/src"},
		}, path(tree, "trees", "nodes"))
		assert.Equal(t, []any{map[string]any{"name": "README.md", "path": "README.md", "mode": "100644"}}, path(tree, "blobs", "nodes"))
		assert.Equal(t, []any{map[string]any{
			"id":   "gid://gitlab/Gitlab::Graphql::Representation::SubmoduleTreeEntry/1234567890123456789012345678901234567890",
			"name": "lib", "path": "lib", "type": "commit", "flatPath": "lib", "webUrl": nil,
		}}, path(tree, "submodules", "nodes"))
	})
	t.Run("directory, its last commit and REST parity", func(t *testing.T) {
		d := data(t, w.in, w.alice, query, map[string]any{"path": "docs"})
		tree := path(d, "project", "repository", "tree")
		assert.Equal(t, []string{"docs/img"}, names(path(tree, "trees", "nodes")))
		assert.Equal(t, []string{"docs/guide.md"}, names(path(tree, "blobs", "nodes")))
		assert.Equal(t, string(w.first), path(tree, "lastCommit", "sha"))
		assert.Equal(t, "\nBody line.", path(tree, "lastCommit", "description"))
		assert.Equal(t, "alice", path(tree, "lastCommit", "author", "username"))
		r := w.in.Do(t, "GET", "/projects/g%2Fcode/repository/tree?path=docs", w.alice, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		var rest []string
		for _, e := range decodeList(t, r) {
			rest = append(rest, e["path"].(string))
		}
		assert.Equal(t, rest, append(names(path(tree, "trees", "nodes")), names(path(tree, "blobs", "nodes"))...))
	})
	t.Run("branch, tag and recursive listings", func(t *testing.T) {
		d := data(t, w.in, w.alice, query, map[string]any{"ref": "feature"})
		tree := path(d, "project", "repository", "tree")
		assert.Equal(t, []string{"README.md", "feature.txt"}, names(path(tree, "blobs", "nodes")))
		assert.Equal(t, string(w.featureC), path(tree, "lastCommit", "sha"))
		assert.Equal(t, "/g/code/-/tree/feature/bin", path(tree, "trees", "nodes", 0, "webPath"))

		d = data(t, w.in, w.alice, query, map[string]any{"ref": "v1.0", "type": "TAGS"})
		assert.Equal(t, string(w.first), path(d, "project", "repository", "tree", "lastCommit", "sha"))
		d = data(t, w.in, w.alice, query, map[string]any{"ref": "v1.0", "type": "HEADS"})
		assert.Equal(t, map[string]any{"lastCommit": nil, "trees": map[string]any{"nodes": []any{}},
			"blobs": map[string]any{"nodes": []any{}}, "submodules": map[string]any{"nodes": []any{}}},
			path(d, "project", "repository", "tree"), "no branch is named v1.0")

		d = data(t, w.in, w.alice, query, map[string]any{"path": "deep", "rec": true})
		tree = path(d, "project", "repository", "tree")
		assert.Equal(t, []string{"deep/a", "deep/a/b"}, names(path(tree, "trees", "nodes")))
		assert.Equal(t, []string{"deep/a/b/c.txt"}, names(path(tree, "blobs", "nodes")))
	})
	t.Run("unknown ref and path list nothing", func(t *testing.T) {
		for _, vars := range []map[string]any{{"ref": "nope"}, {"path": "missing"}, {"path": "README.md"}, {"path": "../etc"}} {
			d := data(t, w.in, w.alice, `query($path: String, $ref: String) { project(fullPath: "g/code") { repository {
				tree(path: $path, ref: $ref) { trees { nodes { name } } blobs { nodes { name } } } } } }`, vars)
			assert.Equal(t, map[string]any{"trees": map[string]any{"nodes": []any{}}, "blobs": map[string]any{"nodes": []any{}}},
				path(d, "project", "repository", "tree"), vars)
		}
	})
}

func testTreePages(t *testing.T, w *repoWorld) {
	t.Run("connections page the listing", func(t *testing.T) {
		q := `query($after: Cursor) { project(fullPath: "g/code") { repository { tree {
			trees(first: 3, after: $after) { pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { name } } }
		} } } }`
		d := data(t, w.in, w.alice, q, nil)
		conn := path(d, "project", "repository", "tree", "trees")
		assert.Equal(t, true, path(conn, "pageInfo", "hasNextPage"))
		assert.Equal(t, false, path(conn, "pageInfo", "hasPreviousPage"))
		assert.Len(t, path(conn, "edges"), 3)
		assert.Equal(t, path(conn, "edges", 2, "cursor"), path(conn, "pageInfo", "endCursor"))
		d = data(t, w.in, w.alice, q, map[string]any{"after": path(conn, "pageInfo", "endCursor")})
		conn = path(d, "project", "repository", "tree", "trees")
		assert.Equal(t, false, path(conn, "pageInfo", "hasNextPage"))
		assert.Equal(t, []any{map[string]any{"name": "src"}}, []any{path(conn, "edges", 0, "node")})
	})
	t.Run("paginatedTree", func(t *testing.T) {
		q := `query($after: Cursor) { project(fullPath: "g/code") { repository {
			paginatedTree(first: 4, after: $after) {
				pageInfo { hasNextPage endCursor }
				nodes { trees { nodes { path } } blobs { nodes { path } } submodules { nodes { path } } }
			} } } }`
		var seen []string
		var after any
		for range 3 {
			d := data(t, w.in, w.alice, q, map[string]any{"after": after})
			conn := path(d, "project", "repository", "paginatedTree")
			require.Len(t, path(conn, "nodes"), 1)
			node := path(conn, "nodes", 0)
			for _, kind := range []string{"trees", "blobs", "submodules"} {
				for _, n := range path(node, kind, "nodes").([]any) {
					seen = append(seen, n.(map[string]any)["path"].(string))
				}
			}
			if path(conn, "pageInfo", "hasNextPage") != true {
				break
			}
			after = path(conn, "pageInfo", "endCursor")
		}
		assert.Equal(t, []string{"bin", "deep", "docs", "src", "README.md", "lib"}, seen)
	})
}

func testBlobs(t *testing.T, w *repoWorld) {
	d := data(t, w.in, w.alice, `{ project(fullPath: "g/code") { repository {
		main: blobs(paths: ["docs/img/logo.png", "bin/run.sh", "docs", "nope"]) { nodes { path size rawTextBlob mode } }
		tag: blobs(paths: ["README.md"], ref: "v1.0", refType: TAGS) { nodes { rawTextBlob webPath } }
		paged: blobs(paths: ["README.md", "bin/run.sh"], first: 1) { pageInfo { hasNextPage } nodes { path } }
		unknown: blobs(paths: ["README.md"], ref: "nope") { nodes { path } }
	} } }`, nil)
	repo := path(d, "project", "repository")
	assert.Equal(t, []any{
		map[string]any{"path": "docs/img/logo.png", "size": float64(len(pngBytes)), "rawTextBlob": nil, "mode": "100644"},
		map[string]any{"path": "bin/run.sh", "size": float64(len("#!/bin/sh\n")), "rawTextBlob": "#!/bin/sh\n", "mode": "100755"},
	}, path(repo, "main", "nodes"))
	assert.Equal(t, []any{map[string]any{"rawTextBlob": "# Code\n", "webPath": "/g/code/-/blob/v1.0/README.md"}}, path(repo, "tag", "nodes"))
	assert.Equal(t, map[string]any{"pageInfo": map[string]any{"hasNextPage": true}, "nodes": []any{map[string]any{"path": "README.md"}}}, path(repo, "paged"))
	assert.Equal(t, []any{}, path(repo, "unknown", "nodes"))
}

func testBranchNames(t *testing.T, w *repoWorld) {
	for _, tc := range []struct {
		pattern       string
		offset, limit int
		want          any
	}{
		{"*", 0, 10, []any{"feature", "main"}},
		{"f*", 0, 10, []any{"feature"}},
		{"ma?n", 0, 10, []any{"main"}},
		{"[fm]*", 1, 1, []any{"main"}},
		{"Main", 0, 10, []any{}},
		{"*", 5, 10, []any{}},
		{"", 0, 10, nil},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			d := data(t, w.in, w.alice, `query($p: String!, $o: Int!, $l: Int!) { project(fullPath: "g/code") { repository { branchNames(searchPattern: $p, offset: $o, limit: $l) } } }`,
				map[string]any{"p": tc.pattern, "o": tc.offset, "l": tc.limit})
			assert.Equal(t, tc.want, path(d, "project", "repository", "branchNames"))
		})
	}
}

func testBranches(t *testing.T, w *repoWorld) {
	const fields = `name default merged protected canPush developersCanPush developersCanMerge webUrl commit { sha }`
	q := `query($p: ID!, $after: Cursor, $search: String) { project(fullPath: $p) { repository {
		branches(first: 1, after: $after, search: $search) { pageInfo { hasNextPage endCursor } nodes { ` + fields + ` } } } } }`
	var got []any
	var after any
	for range 3 {
		d := data(t, w.in, w.alice, q, map[string]any{"p": "g/code", "after": after})
		conn := path(d, "project", "repository", "branches")
		got = append(got, path(conn, "nodes").([]any)...)
		if path(conn, "pageInfo", "hasNextPage") != true {
			break
		}
		after = path(conn, "pageInfo", "endCursor")
	}
	branch := func(name string, def bool, sha git.ObjectID) map[string]any {
		return map[string]any{"name": name, "default": def, "merged": false, "protected": false, "canPush": true,
			"developersCanPush": false, "developersCanMerge": false, "webUrl": w.in.URL + "/g/code/-/tree/" + name,
			"commit": map[string]any{"sha": string(sha)}}
	}
	assert.Equal(t, []any{branch("feature", false, w.featureC), branch("main", true, w.second)}, got)

	d := data(t, w.in, w.alice, q, map[string]any{"p": "g/code", "search": "mai"})
	assert.Equal(t, []any{branch("main", true, w.second)}, path(d, "project", "repository", "branches", "nodes"))

	// The flags are REST's, for the same caller.
	r := w.in.Do(t, "GET", "/projects/g%2Freadme/repository/branches/main", w.gus, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	rest := decodeObject(t, r)
	d = data(t, w.in, w.gus, q, map[string]any{"p": "g/readme"})
	node := path(d, "project", "repository", "branches", "nodes", 0).(map[string]any)
	for gqlName, restName := range map[string]string{"name": "name", "default": "default", "merged": "merged", "protected": "protected",
		"canPush": "can_push", "developersCanPush": "developers_can_push", "developersCanMerge": "developers_can_merge", "webUrl": "web_url"} {
		assert.Equal(t, rest[restName], node[gqlName], gqlName)
	}
	assert.Equal(t, path(rest, "commit", "id"), path(node, "commit", "sha"))
}

func testCommits(t *testing.T, w *repoWorld) {
	d := data(t, w.in, w.alice, `{ project(fullPath: "g/code") { repository {
		tag: commit(ref: "v1.0") { sha title fullTitle description }
		sha: commit(ref: "`+string(w.featureC)+`") { sha }
		missing: commit(ref: "nope") { sha }
	} } }`, nil)
	repo := path(d, "project", "repository")
	assert.Equal(t, map[string]any{"sha": string(w.first), "title": "First commit", "fullTitle": "First commit", "description": "\nBody line."}, path(repo, "tag"))
	assert.Equal(t, string(w.featureC), path(repo, "sha", "sha"))
	assert.Nil(t, path(repo, "missing"))

	q := `query($after: Cursor, $author: String) { project(fullPath: "g/code") { repository {
		commits(ref: "main", first: 1, after: $after, author: $author) { pageInfo { hasNextPage endCursor } nodes { sha } }
	} } }`
	var shas []any
	var after any
	for range 3 {
		d := data(t, w.in, w.alice, q, map[string]any{"after": after})
		conn := path(d, "project", "repository", "commits")
		shas = append(shas, path(conn, "nodes", 0, "sha"))
		if path(conn, "pageInfo", "hasNextPage") != true {
			break
		}
		after = path(conn, "pageInfo", "endCursor")
	}
	assert.Equal(t, []any{string(w.second), string(w.first)}, shas)
	d = data(t, w.in, w.alice, q, map[string]any{"author": "Bob"})
	assert.Equal(t, []any{map[string]any{"sha": string(w.second)}}, path(d, "project", "repository", "commits", "nodes"))
}

func testEmptyRepository(t *testing.T, w *repoWorld) {
	d := data(t, w.in, "", `{ project(fullPath: "g/empty") { repository {
		rootRef empty exists tree { lastCommit { sha } }
		paginatedTree { nodes { lastCommit { sha } } pageInfo { hasNextPage } }
		blobs(paths: ["README.md"]) { nodes { path } }
		branchNames(searchPattern: "*", offset: 0, limit: 5)
		commits(ref: "main") { nodes { sha } }
		branches { nodes { name } pageInfo { hasNextPage } }
	} } }`, nil)
	assert.Equal(t, map[string]any{
		"rootRef": "main", "empty": true, "exists": true, "tree": nil,
		"paginatedTree": map[string]any{"nodes": []any{}, "pageInfo": map[string]any{"hasNextPage": false}},
		"blobs":         map[string]any{"nodes": []any{}}, "branchNames": []any{},
		"commits":  map[string]any{"nodes": []any{}},
		"branches": map[string]any{"nodes": []any{}, "pageInfo": map[string]any{"hasNextPage": false}},
	}, path(d, "project", "repository"))
}

// testRepositoryVisibility checks that a repository is shown exactly to those REST lets read
// its commits, and its project exactly to those REST shows it to. (The commit routes apply
// GitLab's check of a disabled repository feature to administrators too.)
func testRepositoryVisibility(t *testing.T, w *repoWorld) {
	viewers := []struct{ name, token string }{
		{"anonymous", ""}, {"outsider", w.bob}, {"guest", w.gus}, {"developer", w.alice}, {"admin", servertest.RootToken},
	}
	want := map[string]map[string]string{ // project → viewer → "" (null project), "null" or "repo"
		"g/readme": {"anonymous": "repo", "outsider": "repo", "guest": "repo", "developer": "repo", "admin": "repo"},
		"g/code":   {"anonymous": "", "outsider": "", "guest": "null", "developer": "repo", "admin": "repo"},
		"g/nocode": {"anonymous": "null", "outsider": "null", "guest": "null", "developer": "null", "admin": "null"},
	}
	for fullPath, byViewer := range want {
		for _, v := range viewers {
			t.Run(fullPath+" as "+v.name, func(t *testing.T) {
				id := url.PathEscape(fullPath)
				restProject := w.in.Do(t, "GET", "/projects/"+id, v.token, nil).Status
				restCode := w.in.Do(t, "GET", "/projects/"+id+"/repository/commits", v.token, nil).Status
				d := data(t, w.in, v.token, `query($p: ID!) { project(fullPath: $p) { repository { exists tree { lastCommit { sha } } } } }`,
					map[string]any{"p": fullPath})
				got := "repo"
				switch {
				case d["project"] == nil:
					got = ""
				case path(d, "project", "repository") == nil:
					got = "null"
				}
				assert.Equal(t, byViewer[v.name], got)
				assert.Equal(t, restProject == http.StatusOK, got != "", "project visible as in REST (%d)", restProject)
				assert.Equal(t, restCode == http.StatusOK, got == "repo", "repository readable as in REST (%d)", restCode)
			})
		}
	}
}

func testRepositoryArguments(t *testing.T, w *repoWorld) {
	for _, tc := range []struct{ desc, field, want string }{
		{"negative offset", `branchNames(searchPattern: "*", offset: -1, limit: 1)`, "offset and limit must be non-negative"},
		{"negative first", `tree { trees(first: -1) { nodes { name } } }`, "first and last must be non-negative"},
		{"negative first of commits", `commits(ref: "main", first: -2) { nodes { sha } }`, "first and last must be non-negative"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := gql(t, w.in, w.alice, `{ project(fullPath: "g/code") { repository { `+tc.field+` } } }`, nil)
			require.Equal(t, http.StatusOK, r.Status)
			var body struct {
				Errors []struct {
					Message    string         `json:"message"`
					Extensions map[string]any `json:"extensions"`
				} `json:"errors"`
			}
			require.NoError(t, json.Unmarshal(r.Body, &body), r.String())
			require.Len(t, body.Errors, 1, r.String())
			assert.Equal(t, tc.want, body.Errors[0].Message)
			assert.Equal(t, "BAD_USER_INPUT", body.Errors[0].Extensions["code"])
		})
	}
	t.Run("an empty page of the paginated tree", func(t *testing.T) {
		d := data(t, w.in, w.alice, `{ project(fullPath: "g/code") { repository { paginatedTree(first: 0) { nodes { lastCommit { sha } } } } } }`, nil)
		assert.Equal(t, []any{}, path(d, "project", "repository", "paginatedTree", "nodes"))
	})
}
