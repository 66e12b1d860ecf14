package projectapi_test

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingDriver counts the statements run outside transactions.
type countingDriver struct {
	dialect.Driver
	n *atomic.Int64
}

func (d countingDriver) Query(ctx context.Context, query string, args, v any) error {
	d.n.Add(1)
	return d.Driver.Query(ctx, query, args, v)
}

func (d countingDriver) Exec(ctx context.Context, query string, args, v any) error {
	d.n.Add(1)
	return d.Driver.Exec(ctx, query, args, v)
}

// countingService is a project service over the test server's database whose statements are
// counted.
func countingService(in *servertest.Instance) (*projects.Service, *atomic.Int64) {
	n := &atomic.Int64{}
	client := ent.NewClient(ent.Driver(countingDriver{entsql.OpenDB(in.DB.Dialect, in.DB.SQL), n}))
	svc := projects.New(client, authz.New(client), settings.New(client))
	svc.Complete(projects.Later{Repos: in.Services.Repos, StorageMoves: in.Services.StorageMoves})
	return svc, n
}

// perfWorld gives a user 120 readable projects of every kind: personal, in a group, in a
// nested subgroup, shared with a group of theirs, and forks.
func perfWorld(t testing.TB) (*servertest.Instance, *ent.User, string) {
	in := servertest.Start(t)
	u, tok := in.NewUser(t, "reader")
	top := in.NewGroup(t, "top", "private", nil)
	sub := in.NewGroup(t, "sub", "private", top)
	mates := in.NewGroup(t, "mates", "private", nil)
	other := in.NewGroup(t, "other", "private", nil)
	in.AddGroupMember(t, top, u, 30)
	in.AddGroupMember(t, mates, u, 20)
	home := in.PersonalNamespace(t, u)
	var first *ent.Project
	for i := 0; i < 30; i++ {
		for _, ns := range []*ent.Namespace{home, top, sub, other} {
			p := in.NewProject(t, ns, fmt.Sprintf("p%d", i), "private")
			switch ns {
			case other:
				require.NoError(t, in.DB.Client.ProjectGroupLink.Create().SetProjectID(p.ID).SetGroupID(mates.ID).SetGroupAccess(30).Exec(t.Context()))
			case sub:
				in.AddProjectMember(t, p, u, 40)
			}
			if first == nil {
				first = p
			} else if i%5 == 0 {
				require.NoError(t, in.DB.Client.Project.UpdateOne(p).SetForkedFromID(first.ID).Exec(t.Context()))
			}
		}
	}
	return in, u, tok
}

// TestProjects_perf_noPerRowQueries checks that a page of 100 projects costs the same number
// of statements as a page of 20, and that one project costs a handful.
func TestProjects_perf_noPerRowQueries(t *testing.T) {
	in, u, _ := perfWorld(t)
	svc, n := countingService(in)
	actor := &authz.Actor{User: u}
	ctx := context.Background()
	count := func(perPage int) int64 {
		n.Store(0)
		l, _, err := svc.List(ctx, actor, projects.ListParams{}, projects.Order{}, pagination.OffsetPage(1, perPage))
		require.NoError(t, err)
		require.Len(t, l.Items, perPage)
		return n.Load()
	}
	small, large := count(20), count(100) // both pages hold every kind of row
	assert.Equal(t, small, large, "statements must not grow with the page size")
	assert.LessOrEqual(t, large, int64(20))
	t.Logf("GET /projects: %d statements per page", large)

	for _, ref := range []string{"top/sub/p3", "other/p7", fmt.Sprintf("%s/p1", u.Username)} {
		n.Store(0)
		_, _, err := svc.Get(ctx, actor, ref)
		require.NoError(t, err)
		// Shares with private groups the viewer cannot administer cost a visibility check.
		assert.LessOrEqual(t, n.Load(), int64(12), ref)
		t.Logf("GET /projects/%s: %d statements", ref, n.Load())
	}
}

func BenchmarkProjects_get(b *testing.B) {
	in, _, tok := perfWorld(b)
	b.ResetTimer()
	for b.Loop() {
		if r := in.Do(b, "GET", "/projects/top%2Fsub%2Fp3", tok, nil); r.Status != http.StatusOK {
			b.Fatal(r.String())
		}
	}
}

func BenchmarkProjects_list100(b *testing.B) {
	in, _, tok := perfWorld(b)
	b.ResetTimer()
	for b.Loop() {
		if r := in.Do(b, "GET", "/projects?per_page=100", tok, nil); r.Status != http.StatusOK {
			b.Fatal(r.String())
		}
	}
}
