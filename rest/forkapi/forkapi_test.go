package forkapi_test

import (
	"anvil/cmd/anvil/server/servertest"

	"context"
	"fmt"
	"net/http"
	"testing"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// seed writes c1 ── c2 (main), c1 ── c3 (feature), an annotated tag v1 on c1 and a
// lightweight tag v2 on c2.
func seed(t *testing.T, f *servertest.RepoFixture, p *ent.Project) {
	t.Helper()
	ctx := context.Background()
	r := f.Repo(t, p)
	c1 := servertest.Commit(t, r, "", "a.txt", 0)
	c2 := servertest.Commit(t, r, c1, "b.txt", 1)
	c3 := servertest.Commit(t, r, c1, "c.txt", 2)
	servertest.SetBranch(t, r, "main", c2)
	servertest.SetBranch(t, r, "feature", c3)
	_, err := r.CreateTag(ctx, git.CreateTagOptions{Name: "v1", Target: c1, Message: "one", Tagger: servertest.Author})
	require.NoError(t, err)
	_, err = r.CreateTag(ctx, git.CreateTagOptions{Name: "v2", Target: c2})
	require.NoError(t, err)
}

// refs lists a project's refs with their targets, through the API.
func refs(f *servertest.RepoFixture, t *testing.T, projectID int, role string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, kind := range []string{"branches", "tags"} {
		r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/%s", projectID, kind), role, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		for _, it := range servertest.List(t, r) {
			out[kind+"/"+it["name"].(string)] = it["commit"].(map[string]any)["id"].(string)
		}
	}
	return out
}

func TestForks_Fork(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	src := f.Project(t, "src", "public")
	seed(t, f, src)
	team := f.In.NewGroup(t, "team", "internal", nil)
	f.In.AddGroupMember(t, team, f.Users["outsider"], 30)
	f.In.AddGroupMember(t, team, f.Users["reporter"], 20)
	hidden := f.In.NewGroup(t, "hidden", "private", nil)
	srcRefs := refs(f, t, src.ID, "")
	require.Len(t, srcRefs, 4)

	var fork *gitlab.Project
	t.Run("into the personal namespace", func(t *testing.T) {
		var err error
		var resp *gitlab.Response
		fork, resp, err = f.In.Client(t, f.Tokens["outsider"]).Projects.ForkProject(src.ID, nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusCreated, resp.StatusCode)
		assert.Equal(t, "outsider/src", fork.PathWithNamespace)
		assert.Equal(t, "src", fork.Name)
		assert.Equal(t, gitlab.PublicVisibility, fork.Visibility)
		assert.Equal(t, "main", fork.DefaultBranch)
		assert.False(t, fork.EmptyRepo)
		require.NotNil(t, fork.ForkedFromProject)
		assert.Equal(t, int64(src.ID), fork.ForkedFromProject.ID)
		assert.Equal(t, "g/src", fork.ForkedFromProject.PathWithNamespace)
		// The fork's repository has the source's branches and tags.
		assert.Equal(t, srcRefs, refs(f, t, int(fork.ID), ""))
		main := servertest.Object(t, f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches/main", fork.ID), "outsider", nil))
		assert.Equal(t, true, main["protected"])
		assert.Equal(t, true, main["default"])
		// The source counts it.
		o := servertest.Object(t, f.Do(t, "GET", fmt.Sprintf("/projects/%d", src.ID), "developer", nil))
		assert.Equal(t, float64(1), o["forks_count"])
	})

	t.Run("into a group, with another path and a lower visibility", func(t *testing.T) {
		r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", src.ID), "outsider",
			`{"namespace_path":"team","path":"copy","name":"Copy","description":"mine"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		o := servertest.Object(t, r)
		assert.Equal(t, "team/copy", o["path_with_namespace"])
		assert.Equal(t, "Copy", o["name"])
		assert.Equal(t, "mine", o["description"])
		assert.Equal(t, "internal", o["visibility"]) // at most the namespace's
		assert.Equal(t, float64(src.ID), o["forked_from_project"].(map[string]any)["id"])

		r = f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", src.ID), "outsider",
			fmt.Sprintf(`{"namespace_id":%d,"path":"private-copy","visibility":"private"}`, team.ID))
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, "private", servertest.Object(t, r)["visibility"])
		// A higher visibility than allowed is lowered, not refused.
		r = f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", src.ID), "outsider",
			`{"namespace":"team","path":"public-copy","name":"Public copy","visibility":"public"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, "internal", servertest.Object(t, r)["visibility"])
	})

	t.Run("one branch", func(t *testing.T) {
		p, _, err := f.In.Client(t, f.Tokens["developer"]).Projects.ForkProject(src.ID, &gitlab.ForkProjectOptions{
			Branches: gitlab.Ptr("feature"), Path: gitlab.Ptr("feature-only"),
		})
		require.NoError(t, err)
		assert.Equal(t, "feature", p.DefaultBranch)
		got := refs(f, t, int(p.ID), "developer")
		assert.Equal(t, map[string]string{"branches/feature": srcRefs["branches/feature"], "tags/v1": srcRefs["tags/v1"]}, got)
	})

	t.Run("a source without a repository", func(t *testing.T) {
		bare := f.In.NewProject(t, f.Group, "bare", "public")
		r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", bare.ID), "developer", `{}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		o := servertest.Object(t, r)
		assert.Equal(t, true, o["empty_repo"])
		assert.Equal(t, float64(bare.ID), o["forked_from_project"].(map[string]any)["id"])
		b := f.Do(t, "GET", fmt.Sprintf("/projects/%v/repository/branches", o["id"]), "developer", nil)
		assert.Equal(t, "[]", string(b.Body))
	})

	t.Run("refusals", func(t *testing.T) {
		priv := f.Project(t, "priv", "private")
		noFork := f.Project(t, "nofork", "public")
		_, err := f.In.Services.DB.Client.Project.UpdateOneID(noFork.ID).SetForkingAccessLevel("disabled").Save(context.Background())
		require.NoError(t, err)
		for _, tc := range []struct {
			desc, role string
			project    int
			body       string
			status     int
			want       string
		}{
			{"taken", "outsider", src.ID, `{}`, 409, `{"message":["Name has already been taken","Path has already been taken","Project namespace name has already been taken"]}`},
			{"invalid path", "outsider", src.ID, `{"path":"-bad","name":"Bad"}`, 409, `{"message":["Path can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"]}`},
			{"unknown branch", "outsider", src.ID, `{"branches":"nope","path":"x"}`, 404, `{"message":"404 Source Branch Not Found"}`},
			{"option-like branch", "outsider", src.ID, `{"branches":"--upload-pack=x","path":"x"}`, 404, `{"message":"404 Source Branch Not Found"}`},
			{"unknown namespace", "outsider", src.ID, `{"namespace_id":999999}`, 404, `{"message":"404 Namespace Not Found"}`},
			{"invisible namespace", "outsider", src.ID, `{"namespace_path":"hidden"}`, 404, `{"message":"404 Namespace Not Found"}`},
			{"someone else's namespace", "outsider", src.ID, `{"namespace_path":"developer"}`, 404, `{"message":"404 Namespace Not Found"}`},
			{"no right to create there", "reporter", src.ID, `{"namespace_path":"team"}`, 404, `{"message":"404 Target Namespace Not Found"}`},
			{"invisible source", "outsider", priv.ID, `{}`, 404, `{"message":"404 Project Not Found"}`},
			{"guest of a private source", "guest", priv.ID, `{}`, 404, `{"message":"404 Not Found"}`},
			{"forking disabled", "developer", noFork.ID, `{}`, 404, `{"message":"404 Not Found"}`},
			{"bad visibility", "outsider", src.ID, `{"visibility":"secret"}`, 400, `{"error":"visibility does not have a valid value"}`},
			{"anonymous", "", src.ID, `{}`, 401, `{"message":"401 Unauthorized"}`},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", tc.project), tc.role, tc.body)
				require.Equal(t, tc.status, r.Status, r.String())
				assert.JSONEq(t, tc.want, string(r.Body))
			})
		}
		_ = hidden
		// A reporter of a private project may fork it.
		r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", priv.ID), "reporter", `{}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, "private", servertest.Object(t, r)["visibility"])
	})
}

func TestForks_ListAndLink(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	src := f.Project(t, "src", "public")
	seed(t, f, src)
	team := f.In.NewGroup(t, "team", "private", nil)
	f.In.AddGroupMember(t, team, f.Users["outsider"], 40)
	fork := func(role, body string) int {
		r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", src.ID), role, body)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		return int(servertest.Object(t, r)["id"].(float64))
	}
	public := fork("developer", `{}`)
	private := fork("outsider", `{"namespace_path":"team"}`)

	t.Run("list", func(t *testing.T) {
		for _, tc := range []struct {
			role string
			want []float64
		}{
			{"", []float64{float64(public)}},
			{"developer", []float64{float64(public)}},
			{"outsider", []float64{float64(private), float64(public)}},
		} {
			r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/forks", src.ID), tc.role, nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			var ids []float64
			for _, it := range servertest.List(t, r) {
				ids = append(ids, it["id"].(float64))
			}
			assert.Equal(t, tc.want, ids, tc.role)
			assert.Equal(t, fmt.Sprint(len(tc.want)), r.Header.Get("X-Total"))
		}
		ps, resp, err := f.In.Client(t, f.Tokens["outsider"]).Projects.ListProjectForks(src.ID, &gitlab.ListProjectsOptions{
			Visibility: gitlab.Ptr(gitlab.PrivateVisibility),
		})
		require.NoError(t, err)
		require.Len(t, ps, 1)
		assert.Equal(t, int64(private), ps[0].ID)
		assert.Equal(t, int64(1), resp.TotalItems)
		r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/forks", public), "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "[]", string(r.Body))
		assert.Equal(t, "0", r.Header.Get("X-Total"))
		r = f.Do(t, "GET", fmt.Sprintf("/projects/%d/forks", private), "developer", nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
	})

	t.Run("link and unlink", func(t *testing.T) {
		ctx := context.Background()
		path := "mine"
		mine, _, err := f.In.Services.Projects.Create(ctx, authz.System(f.Users["developer"]), projects.CreateInput{
			Attributes: projects.Attributes{Path: &path, Visibility: gitlab.Ptr("public")},
		})
		require.NoError(t, err)
		groupProject := f.Project(t, "gp", "public")
		linkPath := fmt.Sprintf("/projects/%d/fork/%d", mine.ID, src.ID)

		servertest.RequireError(t, f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork/%d", groupProject.ID, src.ID), "developer", nil),
			http.StatusForbidden, "message", "403 Forbidden")
		servertest.RequireError(t, f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork/%d", mine.ID, mine.ID), "developer", nil),
			http.StatusBadRequest, "message", "Target project cannot be equal to source project")
		servertest.RequireError(t, f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork/999999", mine.ID), "developer", nil),
			http.StatusNotFound, "message", "404 Project Not Found")

		r := f.Do(t, "POST", linkPath, "developer", nil)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, float64(src.ID), servertest.Object(t, r)["forked_from_project"].(map[string]any)["id"])
		servertest.RequireError(t, f.Do(t, "POST", linkPath, "developer", nil), http.StatusConflict, "message", "Project already forked")

		servertest.RequireError(t, f.Do(t, "DELETE", fmt.Sprintf("/projects/%d/fork", public), "maintainer", nil), http.StatusForbidden, "message", "403 Forbidden")
		_, err = f.In.Client(t, f.Tokens["developer"]).Projects.DeleteProjectForkRelation(mine.ID)
		require.NoError(t, err)
		o := servertest.Object(t, f.Do(t, "GET", fmt.Sprintf("/projects/%d", mine.ID), "developer", nil))
		assert.NotContains(t, o, "forked_from_project")
		r = f.Do(t, "DELETE", fmt.Sprintf("/projects/%d/fork", mine.ID), "developer", nil)
		assert.Equal(t, http.StatusNotModified, r.Status)
		assert.Empty(t, r.Body)
	})
}
