package mergerequestapi_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/require"
)

// mrFixture is a repository fixture with a project whose repository has main (the README)
// and a feature branch one commit ahead.
type mrFixture struct {
	*servertest.RepoFixture
	P    *ent.Project
	base string
}

// newMRFixture makes the fixture with project "app" of the given visibility.
func newMRFixture(t *testing.T, visibility string) *mrFixture {
	t.Helper()
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "app", visibility)
	addBranch(t, f, p, "feature", "feature.txt")
	return &mrFixture{RepoFixture: f, P: p, base: "/projects/" + strconv.Itoa(p.ID) + "/merge_requests"}
}

// addBranch makes branch name one commit (changing file) ahead of main.
func addBranch(t *testing.T, f *servertest.RepoFixture, p *ent.Project, name, file string) {
	t.Helper()
	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, name, servertest.Commit(t, repo, main.Commit.ID, file, 1))
}

// create opens a merge request as role and returns its JSON (201 required).
func (f *mrFixture) create(t *testing.T, role string, body map[string]any) map[string]any {
	t.Helper()
	r := f.Do(t, "POST", f.base, role, js(t, body))
	require.Equal(t, 201, r.Status, r.String())
	return servertest.Object(t, r)
}

// js is a JSON request body.
func js(t *testing.T, v map[string]any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
