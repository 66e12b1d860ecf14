package authz_test

import (
	"context"
	"sort"
	"testing"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/authz"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scopeOf loads the actor's scope as the finders do (none for anonymous callers).
func scopeOf(t *testing.T, f *fixture, a *authz.Actor) *authz.Scope {
	t.Helper()
	if a.IsAnonymous() {
		return nil
	}
	s, err := f.policy.Scope(context.Background(), a, authz.Guest)
	require.NoError(t, err)
	return s
}

func sorted(ids []int) []int {
	sort.Ints(ids)
	return ids
}

// TestVisibleProjectsIn: the listing predicates select exactly the projects the single-project
// decision (ProjectLevel) lets each role read, or reach at a level; ProjectLevelIn agrees with
// ProjectLevel on every row.
func TestVisibleProjectsIn(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, role := range roles {
		a := f.actors[role]
		s := scopeOf(t, f, a)
		var readable, reporter []int
		for _, p := range f.projects {
			level, ok, err := f.policy.ProjectLevel(ctx, a, p)
			require.NoError(t, err)
			if ok {
				readable = append(readable, p.ID)
			}
			if level >= authz.Reporter && !a.IsAdmin() {
				reporter = append(reporter, p.ID)
			}
			assert.Equal(t, level, authz.ProjectLevelIn(a, s, p), "%s %s", role, p.Name)
			assert.Equal(t, ok, authz.CanReadProjectIn(a, p, authz.ProjectLevelIn(a, s, p)), "%s %s", role, p.Name)
		}
		got, err := f.client.Project.Query().Where(authz.VisibleProjectsIn(a, s)).IDs(ctx)
		require.NoError(t, err)
		assert.Equal(t, sorted(readable), sorted(got), role)
		got, err = f.client.Project.Query().Where(authz.ProjectsWithLevelIn(a, s, authz.Reporter)).IDs(ctx)
		require.NoError(t, err)
		assert.Equal(t, sorted(reporter), sorted(got), role)
	}
}

// TestVisibleGroupsIn: the group predicate selects exactly the groups GroupLevel lets each role
// read: by visibility, as a member, or as a member of a subgroup or of a project inside.
func TestVisibleGroupsIn(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c := f.client
	group := func(path string, vis namespace.Visibility, parent *ent.Namespace) *ent.Namespace {
		q := c.Namespace.Create().SetName(path).SetPath(path).SetFullPath(path).SetVisibility(vis)
		if parent != nil {
			q.SetParentID(parent.ID).SetFullPath(parent.FullPath + "/" + path)
		}
		ns, err := q.Save(ctx)
		require.NoError(t, err)
		return ns
	}
	internal := group("int", namespace.VisibilityInternal, nil)
	private := group("priv", namespace.VisibilityPrivate, nil)
	sub := group("sub", namespace.VisibilityPrivate, private)
	holder := group("holder", namespace.VisibilityPrivate, nil)
	inner, err := c.Project.Create().SetName("inner").SetPath("inner").SetNamespaceID(holder.ID).Save(ctx)
	require.NoError(t, err)
	guest, reporter := f.actors["guest"].User, f.actors["reporter"].User
	require.NoError(t, c.Member.Create().SetUserID(guest.ID).SetNamespaceID(sub.ID).SetAccessLevel(int(authz.Guest)).Exec(ctx))
	require.NoError(t, c.Member.Create().SetUserID(reporter.ID).SetProjectID(inner.ID).SetAccessLevel(int(authz.Reporter)).Exec(ctx))
	groups := []*ent.Namespace{f.group, internal, private, sub, holder}
	want := map[string][]string{
		"anonymous": {"g"}, "non-member": {"g", "int"}, "external": {"g"}, "external guest": {"g"},
		"guest": {"g", "int", "priv", "priv/sub"}, "reporter": {"g", "holder", "int"},
		"developer": {"g", "int"}, "maintainer": {"g", "int"}, "owner": {"g", "int"},
		"admin": {"g", "holder", "int", "priv", "priv/sub"},
	}
	for _, role := range roles {
		a := f.actors[role]
		var readable []string
		for _, ns := range groups {
			_, ok, err := f.policy.GroupLevel(ctx, a, ns)
			require.NoError(t, err)
			if ok {
				readable = append(readable, ns.FullPath)
			}
		}
		sort.Strings(readable)
		assert.Equal(t, want[role], readable, role)
		pred, err := f.policy.VisibleGroups(ctx, a)
		require.NoError(t, err)
		got, err := c.Namespace.Query().Where(pred).Order(namespace.ByFullPath()).Select(namespace.FieldFullPath).Strings(ctx)
		require.NoError(t, err)
		assert.Equal(t, want[role], got, role)
	}
}

// TestPolicyInTransaction: a question asked inside a transaction sees what the transaction
// wrote; outside it, and after a rollback, the committed state.
func TestPolicyInTransaction(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.actors["non-member"]
	p := f.projects[key("private", "enabled", false)]
	tx, err := f.client.Tx(ctx)
	require.NoError(t, err)
	txCtx := ent.NewTxContext(ctx, tx)
	require.NoError(t, tx.Member.Create().SetUserID(a.User.ID).SetProjectID(p.ID).SetAccessLevel(int(authz.Developer)).Exec(txCtx))

	level, readable, err := f.policy.ProjectLevel(txCtx, a, p)
	require.NoError(t, err)
	assert.Equal(t, authz.Developer, level)
	assert.True(t, readable)
	assert.NoError(t, f.policy.Project(txCtx, a, p, authz.PushCode))
	s, err := f.policy.Scope(txCtx, a, authz.Guest)
	require.NoError(t, err)
	ids, err := tx.Project.Query().Where(authz.VisibleProjectsIn(a, s), project.VisibilityEQ(project.VisibilityPrivate)).IDs(txCtx)
	require.NoError(t, err)
	assert.Equal(t, []int{p.ID}, ids)

	level, readable, err = f.policy.ProjectLevel(ctx, a, p)
	require.NoError(t, err)
	assert.Equal(t, authz.NoAccess, level, "outside the transaction")
	assert.False(t, readable)

	require.NoError(t, tx.Rollback())
	level, _, err = f.policy.ProjectLevel(ctx, a, p)
	require.NoError(t, err)
	assert.Equal(t, authz.NoAccess, level, "after the rollback")
}
