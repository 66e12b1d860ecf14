package projectapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProjects_archive: Owners and administrators archive and unarchive (201 with the project,
// repeating is harmless); Maintainers get 403, callers who cannot see the project 404, anonymous
// callers 401; the archived filter of the listing sees the change.
func TestProjects_archive(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "arch", "private", nil)
	p := in.NewProject(t, g, "proj", "private")
	maint, maintTok := in.NewUser(t, "maint")
	owner, ownerTok := in.NewUser(t, "owner")
	_, strangerTok := in.NewUser(t, "stranger")
	in.AddProjectMember(t, p, maint, 40)
	in.AddProjectMember(t, p, owner, 50)
	path := fmt.Sprintf("/projects/%d", p.ID)

	got, _, err := in.Client(t, ownerTok).Projects.ArchiveProject(p.ID)
	require.NoError(t, err)
	assert.True(t, got.Archived)
	assert.Equal(t, p.ID, int(got.ID))
	assert.Nil(t, got.Permissions, "the plain Project entity, as GitLab presents it")

	again := in.Do(t, "POST", path+"/archive", ownerTok, nil)
	require.Equal(t, http.StatusCreated, again.Status, again.String())
	assert.Equal(t, true, servertest.Object(t, again)["archived"])
	listed := servertest.List(t, in.Do(t, "GET", "/projects?archived=true", ownerTok, nil))
	require.Len(t, listed, 1)
	assert.Equal(t, float64(p.ID), listed[0]["id"])

	for _, tc := range []struct {
		desc, token string
		status      int
		body        string
	}{
		{"maintainer", maintTok, 403, `{"message":"403 Forbidden"}`},
		{"non-member of a private project", strangerTok, 404, `{"message":"404 Project Not Found"}`},
		{"anonymous", "", 401, `{"message":"401 Unauthorized"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "POST", path+"/unarchive", tc.token, nil)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.body, string(r.Body))
		})
	}

	got, _, err = in.Client(t, servertest.RootToken).Projects.UnarchiveProject(p.ID)
	require.NoError(t, err)
	assert.False(t, got.Archived)
	stored, err := in.DB.Client.Project.Get(t.Context(), p.ID)
	require.NoError(t, err)
	assert.False(t, stored.Archived)
	missing := in.Do(t, "POST", "/projects/999999/archive", servertest.RootToken, nil)
	assert.Equal(t, http.StatusNotFound, missing.Status)
	assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(missing.Body))
}
