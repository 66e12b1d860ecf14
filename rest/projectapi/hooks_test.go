package projectapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"
	"anvil/rest/httpx"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeRepos records the repository hook calls and fails creation of paths named "broken".
type fakeRepos struct {
	mu      sync.Mutex
	created []string
	deleted []string
}

func (f *fakeRepos) Create(_ context.Context, p *ent.Project, readme bool, branch, _ string) error {
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

func (f *fakeRepos) EmptyRepos(ctx context.Context, ps []*ent.Project) map[int]bool {
	out := make(map[int]bool, len(ps))
	for _, p := range ps {
		out[p.ID] = f.Empty(ctx, p)
	}
	return out
}

func (f *fakeRepos) SetDefaultBranch(context.Context, *ent.Project, string) error { return nil }

func (f *fakeRepos) ReadmePath(context.Context, *ent.Project) string { return "" }

// TestProjects_repositoryHooks checks the project lifecycle's calls into the repository layer,
// through a project service built over the test server's database with a fake layer.
func TestProjects_repositoryHooks(t *testing.T) {
	in := servertest.Start(t)
	repos := &fakeRepos{}
	svc := projects.New(in.DB.Client, authz.New(in.DB.Client), settings.New(in.DB.Client))
	svc.Complete(projects.Later{Repos: repos, StorageMoves: in.Services.StorageMoves})
	u, _ := in.NewUser(t, "hooked")
	actor, ctx := &authz.Actor{User: u}, t.Context()
	create := func(path string, readme bool, branch *string) (*ent.Project, *projects.View, error) {
		return svc.Create(ctx, actor, projects.CreateInput{
			Attributes:           projects.Attributes{Path: &path, DefaultBranch: branch},
			InitializeWithReadme: readme,
		})
	}

	full, v, err := create("full", true, ptr("trunk"))
	require.NoError(t, err)
	assert.False(t, v.EmptyRepo(full), "the inspector says the repository has commits")
	bare, v, err := create("bare", false, nil)
	require.NoError(t, err)
	assert.True(t, v.EmptyRepo(bare))

	_, _, err = create("broken", false, nil)
	r := httpRender(err)
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.JSONEq(t, `{"message":{"base":["Failed to create repository"]}}`, r.body)
	exists, err := in.DB.Client.Project.Query().Where(project.Path("broken")).Exist(t.Context())
	require.NoError(t, err)
	assert.False(t, exists, "a project whose repository failed is removed again")

	require.NoError(t, svc.Delete(ctx, actor, fmt.Sprint(bare.ID)))
	assert.Equal(t, []string{`full readme=true branch="trunk"`, `bare readme=false branch=""`}, repos.created)
	assert.Equal(t, []string{"broken", "bare"}, repos.deleted)
}

func ptr[T any](v T) *T { return &v }

type rendered struct {
	status int
	body   string
}

// httpRender is the REST answer to err.
func httpRender(err error) rendered {
	status, body := httpx.Render(err)
	b, _ := json.Marshal(body)
	return rendered{status, string(b)}
}
