package rest_test

import (
	"fmt"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestConventions_idAsIntegerOrEncodedPath checks that every project and group route takes :id
// as the integer id and as the URL-encoded full path in every spelling clients send: %2F for
// slashes, client-go's %2E for dots, a raw dot, and '+' kept literal (not a space).
func TestConventions_idAsIntegerOrEncodedPath(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	top := in.NewGroup(t, "conv", "public", nil)
	sub := in.NewGroup(t, "sub", "public", top)
	dotted := in.NewGroup(t, "my.group", "public", nil)
	plus := in.NewGroup(t, "c++", "public", nil)
	in.NewGroup(t, "c", "public", nil) // what "c++" would be read as if '+' became a space and was trimmed
	p := in.NewProject(t, sub, "proj.x", "public")
	alice, _ := in.NewUser(t, "alice")
	in.AddProjectMember(t, p, alice, 30)
	in.AddGroupMember(t, sub, alice, 20)

	projectForms := []string{strconv.Itoa(p.ID), "conv%2Fsub%2Fproj%2Ex", "conv%2Fsub%2Fproj.x", "conv%2fsub%2fproj%2ex"}
	groupForms := []string{strconv.Itoa(sub.ID), "conv%2Fsub", "conv%2fsub"}

	for _, tc := range []struct {
		desc   string
		forms  []string
		suffix string
		wantID int // for single objects; 0 for lists, which must be identical across forms
	}{
		{"project", projectForms, "", p.ID},
		{"project members", projectForms, "/members", 0},
		{"project members/all", projectForms, "/members/all", 0},
		{"project member", projectForms, "/members/" + strconv.Itoa(alice.ID), alice.ID},
		{"project access tokens", projectForms, "/access_tokens", 0},
		{"project protected branches", projectForms, "/protected_branches", 0},
		{"group", groupForms, "", sub.ID},
		{"group members", groupForms, "/members", 0},
		{"group members/all", groupForms, "/members/all", 0},
		{"group subgroups", groupForms, "/subgroups", 0},
		{"group descendant groups", groupForms, "/descendant_groups", 0},
		{"group projects", groupForms, "/projects", 0},
		{"group access tokens", groupForms, "/access_tokens", 0},
		{"group billable members", []string{strconv.Itoa(top.ID), "conv"}, "/billable_members", 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			prefix := "/projects/"
			if tc.forms[0] == strconv.Itoa(sub.ID) || tc.forms[0] == strconv.Itoa(top.ID) {
				prefix = "/groups/"
			}
			var first string
			for _, id := range tc.forms {
				r := in.Do(t, "GET", prefix+id+tc.suffix, root, nil)
				require.Equal(t, 200, r.Status, "%s%s%s: %s", prefix, id, tc.suffix, r.String())
				if tc.wantID != 0 {
					assert.Equal(t, float64(tc.wantID), servertest.Object(t, r)["id"], id)
					continue
				}
				servertest.List(t, r) // a JSON array
				if first == "" {
					first = string(r.Body)
				} else {
					assert.Equal(t, first, string(r.Body), "%s answers differently from %s", id, tc.forms[0])
				}
			}
		})
	}

	t.Run("dotted group path", func(t *testing.T) {
		for _, id := range []string{"my.group", "my%2Egroup", strconv.Itoa(dotted.ID)} {
			r := in.Do(t, "GET", "/groups/"+id, root, nil)
			require.Equal(t, 200, r.Status, r.String())
			assert.Equal(t, "my.group", servertest.Object(t, r)["full_path"])
		}
	})

	t.Run("plus stays literal", func(t *testing.T) {
		for _, id := range []string{"c++", "c%2B%2B"} {
			r := in.Do(t, "GET", "/groups/"+id, root, nil)
			require.Equal(t, 200, r.Status, r.String())
			assert.Equal(t, float64(plus.ID), servertest.Object(t, r)["id"], id)
		}
		// A path parameter that is not an id: the custom attribute key "a+b".
		r := in.Do(t, "PUT", "/users/"+strconv.Itoa(alice.ID)+"/custom_attributes/a+b", root, `{"value":"v+1"}`)
		require.Equal(t, 200, r.Status, r.String())
		assert.JSONEq(t, `{"key":"a+b","value":"v+1"}`, string(r.Body))
		r = in.Do(t, "GET", "/users/"+strconv.Itoa(alice.ID)+"/custom_attributes/a%2Bb", root, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.JSONEq(t, `{"key":"a+b","value":"v+1"}`, string(r.Body))
	})

	t.Run("client-go encodes paths itself", func(t *testing.T) {
		c := in.Client(t, root)
		got, _, err := c.Projects.GetProject("conv/sub/proj.x", nil)
		require.NoError(t, err)
		assert.EqualValues(t, p.ID, got.ID)
		g, _, err := c.Groups.GetGroup("conv/sub", nil)
		require.NoError(t, err)
		assert.EqualValues(t, sub.ID, g.ID)
		members, _, err := c.ProjectMembers.ListProjectMembers("conv/sub/proj.x", nil)
		require.NoError(t, err)
		require.Len(t, members, 1)
		assert.Equal(t, "alice", members[0].Username)
		upd, _, err := c.Projects.EditProject("conv/sub/proj.x", &gitlab.EditProjectOptions{Description: gitlab.Ptr("by path")})
		require.NoError(t, err)
		assert.Equal(t, "by path", upd.Description)
	})

	t.Run("repository routes", func(t *testing.T) {
		r := in.Do(t, "POST", "/projects", root, fmt.Sprintf(`{"name":"repo.x","path":"repo.x","namespace_id":%d,"initialize_with_readme":true}`, sub.ID))
		require.Equal(t, 201, r.Status, r.String())
		repoID := int(servertest.Object(t, r)["id"].(float64))
		for _, branch := range []string{"feature+x", "feat/a"} {
			r = in.Do(t, "POST", pathWith("/projects/conv%2Fsub%2Frepo%2Ex/repository/branches", "branch", branch, "ref", "main"), root, nil)
			require.Equal(t, 201, r.Status, r.String())
			assert.Equal(t, branch, servertest.Object(t, r)["name"])
		}
		forms := []string{strconv.Itoa(repoID), "conv%2Fsub%2Frepo%2Ex", "conv%2Fsub%2Frepo.x"}
		for _, tc := range []struct{ suffix, field, want string }{
			{"/repository/branches", "", ""},
			{"/repository/tags", "", ""},
			{"/repository/tree", "", ""},
			{"/repository/commits", "", ""},
			{"/repository/contributors", "", ""},
			{"/repository/branches/main", "name", "main"},
			{"/repository/branches/feature+x", "name", "feature+x"},
			{"/repository/branches/feature%2Bx", "name", "feature+x"},
			{"/repository/branches/feat%2Fa", "name", "feat/a"},
			{"/repository/files/README%2Emd?ref=main", "file_path", "README.md"},
			{"/repository/files/README.md?ref=main", "file_path", "README.md"},
			{"/repository/files/README.md?ref=feature+x", "ref", "feature x"}, // '+' in a query is a space
			{"/repository/files/README.md?ref=feature%2Bx", "ref", "feature+x"},
			{"/repository/files/README%2Emd/raw?ref=main", "", ""},
		} {
			var first string
			for _, id := range forms {
				r := in.Do(t, "GET", "/projects/"+id+tc.suffix, root, nil)
				if tc.want == "feature x" {
					// No branch is called "feature x": GitLab answers 404 there too.
					require.Equal(t, 404, r.Status, "%s%s: %s", id, tc.suffix, r.String())
					continue
				}
				require.Equal(t, 200, r.Status, "%s%s: %s", id, tc.suffix, r.String())
				if tc.field != "" {
					assert.Equal(t, tc.want, servertest.Object(t, r)[tc.field], "%s%s", id, tc.suffix)
				}
				if first == "" {
					first = string(r.Body)
				} else if tc.field == "" {
					assert.Equal(t, first, string(r.Body), "%s%s answers differently from %s", id, tc.suffix, forms[0])
				}
			}
		}
		c := in.Client(t, root)
		b, _, err := c.Branches.GetBranch("conv/sub/repo.x", "feature+x")
		require.NoError(t, err)
		assert.Equal(t, "feature+x", b.Name)
		f, _, err := c.RepositoryFiles.GetFile("conv/sub/repo.x", "README.md", &gitlab.GetFileOptions{Ref: gitlab.Ptr("feat/a")})
		require.NoError(t, err)
		assert.Equal(t, "README.md", f.FilePath)
	})

	t.Run("unknown ids and paths", func(t *testing.T) {
		for _, tc := range []struct{ path, body string }{
			{"/projects/999999", `{"message":"404 Project Not Found"}`},
			{"/projects/-1", `{"message":"404 Project Not Found"}`},
			{"/projects/nope%2Fnope", `{"message":"404 Project Not Found"}`},
			{"/projects/conv%2Fsub%2Fnope", `{"message":"404 Project Not Found"}`},
			{"/projects/999999/members", `{"message":"404 Project Not Found"}`},
			{"/projects/999999/access_tokens", `{"message":"404 Project Not Found"}`},
			{"/groups/999999", `{"message":"404 Group Not Found"}`},
			{"/groups/nope%2Fnope", `{"message":"404 Group Not Found"}`},
			{"/groups/999999/members", `{"message":"404 Group Not Found"}`},
			{"/groups/999999/subgroups", `{"message":"404 Group Not Found"}`},
			{"/groups/999999/projects", `{"message":"404 Group Not Found"}`},
			{"/users/999999", `{"message":"404 User Not Found"}`},
			{"/users/999999/projects", `{"message":"404 User Not Found"}`},
			{"/personal_access_tokens/999999", `{"message":"404 Not Found"}`},
			// An unencoded slash is another route shape altogether.
			{"/projects/conv/sub/proj.x", `{"error":"404 Not Found"}`},
		} {
			requireJSONError(t, in.Do(t, "GET", tc.path, root, nil), 404, tc.body)
		}
	})
}
