package protectedbranchapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// fixture is the shared repository fixture with an owner and an administrator added; its
// projects have a README (so main exists and is protected).
type fixture struct{ *servertest.RepoFixture }

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{servertest.NewRepoFixture(t)}
	owner, tok := f.In.NewUser(t, "owner")
	f.In.AddGroupMember(t, f.Group, owner, 50)
	f.Users["owner"], f.Tokens["owner"] = owner, tok
	admin, tok := f.In.NewUser(t, "superuser", servertest.Admin)
	f.Users["admin"], f.Tokens["admin"] = admin, tok
	return f
}

// do sends a request as a role ("" anonymous).
func (f *fixture) do(t *testing.T, method, path, role, body string) *servertest.Response {
	t.Helper()
	var b any
	if body != "" {
		b = body
	}
	return f.In.Do(t, method, path, f.Tokens[role], b)
}

func TestProtectedBranches_DefaultBranchAndRead(t *testing.T) {
	f := newFixture(t)
	code := f.ProjectWithReadme(t, "code", "private")
	f.ProjectWithReadme(t, "pub", "public")
	base := fmt.Sprintf("/projects/%d/protected_branches", code.ID)

	mainRule := `{"id":1,"name":"main",
		"push_access_levels":[{"id":1,"access_level":40,"access_level_description":"Maintainers","deploy_key_id":null,"user_id":null,"group_id":null}],
		"merge_access_levels":[{"id":2,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
		"allow_force_push":false,"unprotect_access_levels":[],"code_owner_approval_required":false,"inherited":false}`

	t.Run("a new project's default branch is protected for Maintainers", func(t *testing.T) {
		r := f.do(t, http.MethodGet, base, "maintainer", "")
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, "["+mainRule+"]", string(r.Body))
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		assert.Equal(t, "1", r.Header.Get("X-Total"))
		assert.Equal(t, "1", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "20", r.Header.Get("X-Per-Page"))
		r = f.do(t, http.MethodGet, base+"/main", "reporter", "")
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, mainRule, string(r.Body))
	})
	t.Run("read permissions", func(t *testing.T) {
		for _, c := range []struct {
			role, path string
			status     int
			body       string
		}{
			{"reporter", base, 200, ""},
			{"developer", base, 200, ""},
			{"guest", base, 403, `{"message":"403 Forbidden"}`},
			{"outsider", base, 404, `{"message":"404 Project Not Found"}`},
			{"", base, 404, `{"message":"404 Project Not Found"}`},
			{"", "/projects/g%2Fpub/protected_branches", 200, ""},
			{"reporter", base + "/nope", 404, `{"message":"404 Not found"}`},
			{"guest", base + "/main", 403, `{"message":"403 Forbidden"}`},
		} {
			r := f.do(t, http.MethodGet, c.path, c.role, "")
			assert.Equal(t, c.status, r.Status, "%s %s: %s", c.role, c.path, r)
			if c.body != "" {
				assert.JSONEq(t, c.body, string(r.Body))
			}
		}
	})
	t.Run("client-go reads them", func(t *testing.T) {
		c := f.In.Client(t, f.Tokens["developer"])
		list, _, err := c.ProtectedBranches.ListProtectedBranches("g/code", nil)
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, "main", list[0].Name)
		assert.Equal(t, gitlab.MaintainerPermissions, list[0].PushAccessLevels[0].AccessLevel)
		assert.Equal(t, "Maintainers", list[0].MergeAccessLevels[0].AccessLevelDescription)
	})
}

func TestProtectedBranches_Write(t *testing.T) {
	f := newFixture(t)
	code := f.ProjectWithReadme(t, "code", "private")
	base := fmt.Sprintf("/projects/%d/protected_branches", code.ID)

	t.Run("create with levels", func(t *testing.T) {
		r := f.do(t, http.MethodPost, base, "maintainer",
			`{"name":"release/*","push_access_level":30,"merge_access_level":40,"unprotect_access_level":40,"allow_force_push":true}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.JSONEq(t, `{"id":2,"name":"release/*",
			"push_access_levels":[{"id":1,"access_level":30,"access_level_description":"Developers + Maintainers","deploy_key_id":null,"user_id":null,"group_id":null}],
			"merge_access_levels":[{"id":2,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
			"allow_force_push":true,
			"unprotect_access_levels":[{"id":3,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
			"code_owner_approval_required":false,"inherited":false}`, string(r.Body))
	})
	t.Run("defaults and conflicts", func(t *testing.T) {
		r := f.do(t, http.MethodPost, base, "maintainer", `{"name":"stable"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.JSONEq(t, `{"id":3,"name":"stable",
			"push_access_levels":[{"id":1,"access_level":40,"access_level_description":"Maintainers","deploy_key_id":null,"user_id":null,"group_id":null}],
			"merge_access_levels":[{"id":2,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
			"allow_force_push":false,
			"unprotect_access_levels":[{"id":3,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
			"code_owner_approval_required":false,"inherited":false}`, string(r.Body))
		r = f.do(t, http.MethodPost, base, "maintainer", `{"name":"stable"}`)
		assert.Equal(t, http.StatusConflict, r.Status)
		assert.JSONEq(t, `{"message":"Protected branch 'stable' already exists"}`, string(r.Body))
	})
	t.Run("bad parameters", func(t *testing.T) {
		for _, c := range []struct{ body, msg string }{
			{`{}`, "name is missing"},
			{`{"name":"x","push_access_level":20}`, "push_access_level does not have a valid value"},
			{`{"name":"x","merge_access_level":"abc"}`, "merge_access_level is invalid"},
			{`{"name":"x","unprotect_access_level":0}`, "unprotect_access_level does not have a valid value"},
			{`{"name":"x","allowed_to_push":[{"access_level":15}]}`, "allowed_to_push[0][access_level] does not have a valid value"},
			{`{"name":"x","allowed_to_merge":[{"user_id":"me"}]}`, "allowed_to_merge[0][user_id] is invalid"},
		} {
			r := f.do(t, http.MethodPost, base, "maintainer", c.body)
			assert.Equal(t, http.StatusBadRequest, r.Status, c.body)
			assert.JSONEq(t, `{"error":"`+c.msg+`"}`, string(r.Body), c.body)
		}
	})
	t.Run("user and group entries", func(t *testing.T) {
		dev := f.Users["developer"]
		r := f.do(t, http.MethodPost, base, "maintainer", fmt.Sprintf(
			`{"name":"users","allowed_to_push":[{"user_id":%d}],"allowed_to_merge":[{"access_level":30},{"access_level":40}]}`, dev.ID))
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.JSONEq(t, fmt.Sprintf(`{"id":4,"name":"users",
			"push_access_levels":[{"id":1,"access_level":40,"access_level_description":"User developer","deploy_key_id":null,"user_id":%d,"group_id":null}],
			"merge_access_levels":[{"id":2,"access_level":30,"access_level_description":"Developers + Maintainers","user_id":null,"group_id":null},
				{"id":3,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
			"allow_force_push":false,
			"unprotect_access_levels":[{"id":4,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
			"code_owner_approval_required":false,"inherited":false}`, dev.ID), string(r.Body))

		other := f.In.NewGroup(t, "other", "public", nil)
		r = f.do(t, http.MethodPost, base, "maintainer", fmt.Sprintf(
			`{"name":"bad","allowed_to_push":[{"user_id":%d},{"group_id":%d}],"allowed_to_merge":[{"access_level":30},{"access_level":30}]}`,
			f.Users["outsider"].ID, other.ID))
		assert.Equal(t, http.StatusUnprocessableEntity, r.Status)
		assert.JSONEq(t, `{"message":["Push access levels user is not a member of the project",
			"Push access levels group does not have access to the project",
			"Merge access levels access level has already been taken"]}`, string(r.Body))
	})
	t.Run("update entries", func(t *testing.T) {
		path := base + "/release%2F%2A"
		r := f.do(t, http.MethodPatch, path, "maintainer", `{"allow_force_push":false,"code_owner_approval_required":true,
			"allowed_to_push":[{"access_level":40}],"allowed_to_merge":[{"id":2,"access_level":0}]}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, `{"id":2,"name":"release/*",
			"push_access_levels":[{"id":1,"access_level":30,"access_level_description":"Developers + Maintainers","deploy_key_id":null,"user_id":null,"group_id":null},
				{"id":4,"access_level":40,"access_level_description":"Maintainers","deploy_key_id":null,"user_id":null,"group_id":null}],
			"merge_access_levels":[{"id":2,"access_level":0,"access_level_description":"No one","user_id":null,"group_id":null}],
			"allow_force_push":false,
			"unprotect_access_levels":[{"id":3,"access_level":40,"access_level_description":"Maintainers","user_id":null,"group_id":null}],
			"code_owner_approval_required":true,"inherited":false}`, string(r.Body))

		r = f.do(t, http.MethodPatch, path, "maintainer", `{"allowed_to_push":[{"id":1,"_destroy":true}]}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Contains(t, r.String(), `"push_access_levels":[{"id":4,`)

		r = f.do(t, http.MethodPatch, path, "maintainer", `{"allowed_to_push":[{"access_level":40}]}`)
		assert.Equal(t, http.StatusUnprocessableEntity, r.Status)
		assert.JSONEq(t, `{"message":["Push access levels access level has already been taken"]}`, string(r.Body))

		r = f.do(t, http.MethodPatch, path, "maintainer", `{"allowed_to_push":[{"id":99,"_destroy":true}]}`)
		assert.Equal(t, http.StatusNotFound, r.Status)
		assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))
	})
	t.Run("write permissions", func(t *testing.T) {
		for _, c := range []struct {
			role, method, path, body string
			status                   int
			resp                     string
		}{
			{"developer", http.MethodPost, base, `{"name":"dev"}`, 403, `{"message":"403 Forbidden"}`},
			{"reporter", http.MethodPost, base, `{"name":"dev"}`, 403, `{"message":"403 Forbidden"}`},
			{"outsider", http.MethodPost, base, `{"name":"dev"}`, 404, `{"message":"404 Project Not Found"}`},
			{"", http.MethodPost, base, `{"name":"dev"}`, 404, `{"message":"404 Project Not Found"}`},
			{"developer", http.MethodPatch, base + "/stable", `{"allow_force_push":true}`, 403, `{"message":"403 Forbidden"}`},
			{"developer", http.MethodPatch, base + "/nope", `{"allow_force_push":true}`, 404, `{"message":"404 Not found"}`},
			{"developer", http.MethodDelete, base + "/stable", "", 403, `{"message":"403 Forbidden"}`},
			{"outsider", http.MethodDelete, base + "/stable", "", 404, `{"message":"404 Project Not Found"}`},
		} {
			r := f.do(t, c.method, c.path, c.role, c.body)
			assert.Equal(t, c.status, r.Status, "%s %s %s: %s", c.role, c.method, c.path, r)
			assert.JSONEq(t, c.resp, string(r.Body))
		}
	})
	t.Run("unprotect rules limit who may change a rule", func(t *testing.T) {
		r := f.do(t, http.MethodPost, base, "maintainer", `{"name":"locked","allowed_to_unprotect":[{"access_level":60}]}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Contains(t, r.String(), `"unprotect_access_levels":[{"id":3,"access_level":60,"access_level_description":"Instance admins","user_id":null,"group_id":null}]`)
		r = f.do(t, http.MethodPatch, base+"/locked", "owner", `{"allow_force_push":true}`)
		assert.Equal(t, http.StatusForbidden, r.Status, r.String())
		r = f.do(t, http.MethodDelete, base+"/locked", "maintainer", "")
		assert.Equal(t, http.StatusForbidden, r.Status, r.String())
		r = f.do(t, http.MethodDelete, base+"/locked", "admin", "")
		assert.Equal(t, http.StatusNoContent, r.Status, r.String())
	})
	t.Run("unprotect", func(t *testing.T) {
		r := f.do(t, http.MethodDelete, base+"/stable", "maintainer", "")
		require.Equal(t, http.StatusNoContent, r.Status, r.String())
		assert.Empty(t, r.Body)
		r = f.do(t, http.MethodGet, base+"/stable", "maintainer", "")
		assert.Equal(t, http.StatusNotFound, r.Status)
	})
	t.Run("search and pagination", func(t *testing.T) {
		r := f.do(t, http.MethodGet, base+"?search=REL", "developer", "")
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Contains(t, r.String(), `"name":"release/*"`)
		assert.Equal(t, "1", r.Header.Get("X-Total"))
		r = f.do(t, http.MethodGet, base+"?per_page=1&page=2", "developer", "")
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "3", r.Header.Get("X-Total"))
		assert.Equal(t, "3", r.Header.Get("X-Next-Page"))
		assert.Contains(t, r.String(), `"name":"release/*"`)
	})
	t.Run("client-go round trip", func(t *testing.T) {
		c := f.In.Client(t, f.Tokens["maintainer"])
		pb, _, err := c.ProtectedBranches.ProtectRepositoryBranches("g/code", &gitlab.ProtectRepositoryBranchesOptions{
			Name:            gitlab.Ptr("hotfix-*"),
			PushAccessLevel: gitlab.Ptr(gitlab.DeveloperPermissions),
			AllowForcePush:  gitlab.Ptr(true),
		})
		require.NoError(t, err)
		assert.Equal(t, "hotfix-*", pb.Name)
		assert.True(t, pb.AllowForcePush)
		got, _, err := c.ProtectedBranches.GetProtectedBranch("g/code", "hotfix-*")
		require.NoError(t, err)
		assert.Equal(t, pb.ID, got.ID)
		upd, _, err := c.ProtectedBranches.UpdateProtectedBranch("g/code", "hotfix-*", &gitlab.UpdateProtectedBranchOptions{
			AllowedToMerge: &[]*gitlab.BranchPermissionOptions{{AccessLevel: gitlab.Ptr(gitlab.DeveloperPermissions)}},
		})
		require.NoError(t, err)
		require.Len(t, upd.MergeAccessLevels, 2)
		_, err = c.ProtectedBranches.UnprotectRepositoryBranches("g/code", "hotfix-*")
		require.NoError(t, err)
		_, _, err = c.ProtectedBranches.GetProtectedBranch("g/code", "hotfix-*")
		assert.ErrorIs(t, err, gitlab.ErrNotFound)
	})
}
