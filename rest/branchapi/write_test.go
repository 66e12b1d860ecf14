package branchapi_test

import (
	"anvil/cmd/anvil/server/servertest"

	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"anvil/ent/pushevent"
	"anvil/internal/git"
	"anvil/internal/service/protectedbranches"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestBranches_Get(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	s := seed(t, f, p)
	base := fmt.Sprintf("/projects/%d/repository/branches/", p.ID)

	t.Run("a name with a slash, URL-encoded", func(t *testing.T) {
		b, _, err := f.In.Client(t, f.Tokens["developer"]).Branches.GetBranch(p.ID, "release/1.0")
		require.NoError(t, err)
		assert.Equal(t, "release/1.0", b.Name)
		assert.Equal(t, string(s.c3), b.Commit.ID)
		assert.False(t, b.Merged) // at main's commit
		assert.False(t, b.Default)
		assert.True(t, b.CanPush)
		o := servertest.Object(t, f.Do(t, "GET", base+"feature", "developer", nil))
		assert.Equal(t, true, o["merged"])
		o = servertest.Object(t, f.Do(t, "GET", base+"main", "developer", nil))
		assert.Equal(t, true, o["default"])
		assert.Equal(t, false, o["merged"])
	})

	t.Run("errors", func(t *testing.T) {
		servertest.RequireError(t, f.Do(t, "GET", base+"nope", "developer", nil), http.StatusNotFound, "message", "404 Branch Not Found")
		for _, bad := range []string{"--upload-pack=x", "-x", "a..b", "HEAD", "refs/heads/main", "a b", "x.lock"} {
			servertest.RequireError(t, f.Do(t, "GET", base+servertest.Esc(bad), "developer", nil), http.StatusBadRequest, "message", "The branch refname is invalid")
		}
	})

	t.Run("HEAD", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			status int
		}{{"main", http.StatusNoContent}, {"release/1.0", http.StatusNoContent}, {"nope", http.StatusNotFound}, {"--upload-pack=x", http.StatusNotFound}} {
			r := f.Do(t, "HEAD", base+servertest.Esc(tc.name), "", nil)
			assert.Equal(t, tc.status, r.Status, tc.name)
			assert.Empty(t, r.Body, tc.name)
		}
	})
}

func TestBranches_Create(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	s := seed(t, f, p)
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", fmt.Sprintf("/projects/%d/protected_branches", p.ID), "maintainer",
		`{"name":"stable-*"}`).Status)
	base := fmt.Sprintf("/projects/%d/repository/branches", p.ID)

	t.Run("from a branch and from a commit id", func(t *testing.T) {
		b, resp, err := f.In.Client(t, f.Tokens["developer"]).Branches.CreateBranch(p.ID, &gitlab.CreateBranchOptions{
			Branch: gitlab.Ptr("new/one"), Ref: gitlab.Ptr("topic"),
		})
		require.NoError(t, err)
		assert.Equal(t, http.StatusCreated, resp.StatusCode)
		assert.Equal(t, "new/one", b.Name)
		assert.Equal(t, string(s.c4), b.Commit.ID)
		assert.True(t, b.CanPush)
		assert.False(t, b.Merged)
		assert.False(t, b.Protected)
		assert.Equal(t, f.In.URL+"/g/p/-/tree/new/one", b.WebURL)

		r := f.Do(t, "POST", base, "developer", url.Values{"branch": {"from-sha"}, "ref": {string(s.c2)}})
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		o := servertest.Object(t, r)
		assert.Equal(t, string(s.c2), o["commit"].(map[string]any)["id"])
		assert.Equal(t, true, o["merged"])
		head, err := f.Repo(t, p).ResolveCommit(context.Background(), git.BranchRef("from-sha"))
		require.NoError(t, err)
		assert.Equal(t, s.c2, head)
		// The change is recorded as a push.
		n, err := f.In.Services.DB.Client.PushEvent.Query().Where(pushevent.ProjectID(p.ID), pushevent.Ref("refs/heads/from-sha"),
			pushevent.ActionEQ(pushevent.ActionCreated)).Count(context.Background())
		require.NoError(t, err)
		assert.Equal(t, 1, n)
	})

	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			desc, role, body string
			status           int
			key, msg         string
		}{
			{"existing", "developer", `{"branch":"feature","ref":"main"}`, 400, "message", "Branch already exists"},
			{"invalid name", "developer", `{"branch":"a..b","ref":"main"}`, 400, "message", "Branch name is invalid"},
			{"option-like name", "developer", `{"branch":"--upload-pack=x","ref":"main"}`, 400, "message", "Branch name is invalid"},
			{"full ref name", "developer", `{"branch":"refs/heads/x","ref":"main"}`, 400, "message", "Branch name is invalid"},
			{"HEAD", "developer", `{"branch":"HEAD","ref":"main"}`, 400, "message", "Branch name is invalid"},
			{"unknown ref", "developer", `{"branch":"x","ref":"nope"}`, 400, "message", "Invalid reference name: nope"},
			{"option-like ref", "developer", `{"branch":"x","ref":"--output=/tmp/x"}`, 400, "message", "Invalid reference name: --output=/tmp/x"},
			{"unknown sha", "developer", `{"branch":"x","ref":"1234567890123456789012345678901234567890"}`, 400, "message",
				"Invalid reference name: 1234567890123456789012345678901234567890"},
			{"hex name", "developer", `{"branch":"` + strings.Repeat("ab", 20) + `","ref":"main"}`, 400, "message", protectedbranches.MsgHexBranchName},
			{"protected name", "developer", `{"branch":"stable-1","ref":"main"}`, 400, "message", protectedbranches.MsgCreateProtected},
			{"missing", "developer", `{}`, 400, "error", "branch is missing, ref is missing"},
			{"empty", "developer", `{"branch":"","ref":"main"}`, 400, "error", "branch is empty"},
			{"reporter", "reporter", `{"branch":"x","ref":"main"}`, 403, "message", "403 Forbidden"},
			{"outsider", "outsider", `{"branch":"x","ref":"main"}`, 403, "message", "403 Forbidden"},
			{"anonymous", "", `{"branch":"x","ref":"main"}`, 401, "message", "401 Unauthorized"},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				servertest.RequireError(t, f.Do(t, "POST", base, tc.role, tc.body), tc.status, tc.key, tc.msg)
			})
		}
		refs, err := f.Repo(t, p).ListRefs(context.Background(), git.ListRefsOptions{Patterns: []string{"refs/heads/x", "refs/heads/stable-1", "refs/heads/--upload-pack=x"}})
		require.NoError(t, err)
		assert.Empty(t, refs)
	})

	t.Run("a maintainer creates a protected branch", func(t *testing.T) {
		r := f.Do(t, "POST", base, "maintainer", `{"branch":"stable-1","ref":"main"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		o := servertest.Object(t, r)
		assert.Equal(t, true, o["protected"])
		assert.Equal(t, true, o["can_push"])
	})

	t.Run("an empty repository first gets its default branch", func(t *testing.T) {
		empty := f.Project(t, "empty", "private")
		r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/repository/branches", empty.ID), "maintainer", `{"branch":"dev","ref":"main"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		o := servertest.Object(t, r)
		c := o["commit"].(map[string]any)
		assert.Equal(t, "Add README.md", c["title"])
		assert.Equal(t, f.Users["maintainer"].Name, c["author_name"])
		assert.Equal(t, false, o["merged"])
		main := servertest.Object(t, f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches/main", empty.ID), "maintainer", nil))
		assert.Equal(t, c["id"], main["commit"].(map[string]any)["id"])
		assert.Equal(t, true, main["default"])
		assert.Equal(t, true, main["protected"]) // a new default branch gets the default protection
	})
}

func TestBranches_Delete(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	s := seed(t, f, p)
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", fmt.Sprintf("/projects/%d/protected_branches", p.ID), "maintainer",
		`{"name":"release/*","push_access_level":30}`).Status)
	base := fmt.Sprintf("/projects/%d/repository/branches/", p.ID)

	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			desc, role, branch string
			status             int
			key, msg           string
		}{
			{"unknown", "developer", "nope", 404, "message", "404 Branch Not Found"},
			{"invalid", "developer", "--upload-pack=x", 400, "message", "The branch refname is invalid"},
			{"default branch", "maintainer", "main", 400, "message", protectedbranches.MsgDeleteDefault},
			{"protected, as developer", "developer", "release/1.0", 400, "message", protectedbranches.MsgDeleteProtected},
			{"reporter", "reporter", "topic", 403, "message", "403 Forbidden"},
			{"anonymous", "", "topic", 401, "message", "401 Unauthorized"},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				servertest.RequireError(t, f.Do(t, "DELETE", base+servertest.Esc(tc.branch), tc.role, nil), tc.status, tc.key, tc.msg)
			})
		}
	})

	t.Run("If-Unmodified-Since", func(t *testing.T) {
		req, err := http.NewRequest("DELETE", f.In.URL+"/api/v4"+base+"topic", nil)
		require.NoError(t, err)
		req.Header.Set("PRIVATE-TOKEN", f.Tokens["developer"])
		req.Header.Set("If-Unmodified-Since", servertest.Epoch.Add(-time.Hour).UTC().Format(http.TimeFormat))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusPreconditionFailed, resp.StatusCode)
	})

	t.Run("deleted", func(t *testing.T) {
		_, err := f.In.Client(t, f.Tokens["developer"]).Branches.DeleteBranch(p.ID, "topic")
		require.NoError(t, err)
		servertest.RequireError(t, f.Do(t, "GET", base+"topic", "developer", nil), http.StatusNotFound, "message", "404 Branch Not Found")
		r := f.Do(t, "DELETE", base+servertest.Esc("release/1.0"), "maintainer", nil)
		assert.Equal(t, http.StatusNoContent, r.Status, r.String())
		assert.Empty(t, r.Body)
		// The commit stays; only the ref went.
		ok, err := f.Repo(t, p).HasObject(context.Background(), s.c4)
		require.NoError(t, err)
		assert.True(t, ok)
	})
}

func TestBranches_DeleteMerged(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	seed(t, f, p)
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", fmt.Sprintf("/projects/%d/protected_branches", p.ID), "maintainer",
		`{"name":"fix-*"}`).Status)
	path := fmt.Sprintf("/projects/%d/repository/merged_branches", p.ID)

	servertest.RequireError(t, f.Do(t, "DELETE", path, "reporter", nil), http.StatusForbidden, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "DELETE", path, "", nil), http.StatusUnauthorized, "message", "401 Unauthorized")
	r := f.Do(t, "DELETE", path, "developer", nil)
	assert.Equal(t, http.StatusAccepted, r.Status, r.String())
	assert.JSONEq(t, `{"message":"202 Accepted"}`, string(r.Body))
	// a-fix and feature were merged; fix-a is protected; main is the default branch;
	// release/1.0 is at main's commit; fix and topic are not merged.
	r = f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches", p.ID), "developer", nil)
	assert.Equal(t, []string{"fix", "fix-a", "main", "release/1.0", "topic"}, servertest.Names(servertest.List(t, r)))
	_, err := f.In.Client(t, f.Tokens["developer"]).Branches.DeleteMergedBranches(p.ID)
	require.NoError(t, err)
}
