package projectapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/project"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeRepos records the repository hook calls and fails creation of paths named "broken".
type fakeRepos struct {
	mu      sync.Mutex
	created []string
	deleted []string
}

func (f *fakeRepos) Create(_ context.Context, p *ent.Project, readme bool, branch string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p.Path == "broken" {
		return errors.New("disk full")
	}
	f.created = append(f.created, fmt.Sprintf("%s readme=%v branch=%q", p.Path, readme, branch))
	return nil
}

func (f *fakeRepos) Delete(_ context.Context, p *ent.Project) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, p.Path)
	return nil
}

func (f *fakeRepos) Empty(_ context.Context, p *ent.Project) bool { return p.Path != "full" }

func TestProjects_repositoryHooks(t *testing.T) {
	in := servertest.Start(t)
	repos := &fakeRepos{}
	in.Services.Projects.Repos = repos
	_, tok := in.NewUser(t, "hooked")

	r := in.Do(t, "POST", "/projects", tok, `{"path":"full","initialize_with_readme":true,"default_branch":"trunk"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	assert.Equal(t, false, decode[map[string]any](t, r)["empty_repo"], "the inspector says the repository has commits")
	r = in.Do(t, "POST", "/projects", tok, `{"path":"bare"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	id := int(decode[map[string]any](t, r)["id"].(float64))
	assert.Equal(t, true, decode[map[string]any](t, r)["empty_repo"])

	r = in.Do(t, "POST", "/projects", tok, `{"path":"broken"}`)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.JSONEq(t, `{"message":{"base":["Failed to create repository"]}}`, string(r.Body))
	exists, err := in.DB.Client.Project.Query().Where(project.Path("broken")).Exist(t.Context())
	require.NoError(t, err)
	assert.False(t, exists, "a project whose repository failed is removed again")

	r = in.Do(t, "DELETE", fmt.Sprintf("/projects/%d", id), tok, nil)
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	assert.Equal(t, []string{`full readme=true branch="trunk"`, `bare readme=false branch=""`}, repos.created)
	assert.Equal(t, []string{"broken", "bare"}, repos.deleted)
}
