package protectedbranches_test

import (
	"context"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, branch string
		want            bool
	}{
		{"main", "main", true},
		{"main", "main2", false},
		{"release/*", "release/1", true},
		{"release/*", "release/1/2", true},
		{"release/*", "release", false},
		{"*-stable", "1-0-stable", true},
		{"*-stable", "stable", false},
		{"*", "anything/at/all", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"a*a", "a", false},
		{"a*a", "aa", true},
		{"feat.*", "featX", false},
	} {
		assert.Equal(t, c.want, protectedbranches.Match(c.pattern, c.branch), "%s ~ %s", c.pattern, c.branch)
	}
}

// errText renders an error as GitLab's body would carry it ("" for nil).
func errText(err error) string {
	if err == nil {
		return ""
	}
	e, ok := apperr.As(err)
	if !ok {
		return "unexpected: " + err.Error()
	}
	return e.Kind.String() + ": " + e.Text()
}

func TestEnforcement(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	root, err := in.Services.Users.FindByRef(ctx, "root")
	require.NoError(t, err)
	group := in.NewGroup(t, "g", "private", nil)
	actors := map[string]*authz.Actor{}
	for _, r := range []struct {
		name  string
		level int
	}{{"reporter", 20}, {"developer", 30}, {"maintainer", 40}} {
		u, _ := in.NewUser(t, r.name)
		in.AddGroupMember(t, group, u, r.level)
		actors[r.name] = &authz.Actor{User: u}
	}
	admin, _ := in.NewUser(t, "superuser", servertest.Admin)
	actors["admin"] = &authz.Actor{User: admin}
	path, nsID := "code", group.ID
	p, _, err := in.Services.Projects.Create(ctx, authz.System(root), projects.CreateInput{
		Attributes: projects.Attributes{Path: &path}, NamespaceID: &nsID, InitializeWithReadme: true,
	})
	require.NoError(t, err)
	svc := in.Services.ProtectedBranches
	dev30 := 30
	_, err = svc.Create(ctx, authz.System(root), "g/code", protectedbranches.CreateInput{Name: "release/*", PushAccessLevel: &dev30})
	require.NoError(t, err)
	pb, err := svc.Create(ctx, authz.System(root), "g/code", protectedbranches.CreateInput{Name: "hot*"})
	require.NoError(t, err)
	_, err = svc.Update(ctx, authz.System(root), "g/code", pb.Name, protectedbranches.UpdateInput{AllowForcePush: ptr(true)})
	require.NoError(t, err)

	const (
		pushInto  = "forbidden: You are not allowed to push into this branch"
		forcePush = "forbidden: " + protectedbranches.MsgForcePushProtected
		deleteMsg = "bad request: " + protectedbranches.MsgDeleteProtected
	)
	type check func(context.Context, *authz.Actor, *ent.Project, string) error
	for _, c := range []struct {
		name   string
		fn     check
		branch string
		want   map[string]string // role -> error text
	}{
		{"push main", svc.CanPush, "main", map[string]string{"reporter": pushInto, "developer": pushInto, "maintainer": "", "admin": pushInto}},
		{"push wildcard", svc.CanPush, "release/2.0", map[string]string{"reporter": pushInto, "developer": "", "maintainer": ""}},
		{"push unprotected", svc.CanPush, "feature", map[string]string{"reporter": pushInto, "developer": "", "maintainer": "", "admin": ""}},
		{"force main", svc.CanForcePush, "main", map[string]string{"developer": pushInto, "maintainer": forcePush}},
		{"force allowed", svc.CanForcePush, "hotfix", map[string]string{"developer": pushInto, "maintainer": ""}},
		{"force unprotected", svc.CanForcePush, "feature", map[string]string{"developer": "", "reporter": pushInto}},
		{"delete protected", svc.CanDelete, "release/1", map[string]string{"developer": deleteMsg, "maintainer": ""}},
		{"delete unprotected", svc.CanDelete, "feature", map[string]string{"reporter": pushInto, "developer": ""}},
	} {
		for role, want := range c.want {
			assert.Equal(t, want, errText(c.fn(ctx, actors[role], p, c.branch)), "%s as %s", c.name, role)
		}
	}
	protected, err := svc.IsProtected(ctx, p, "release/x")
	require.NoError(t, err)
	assert.True(t, protected)
	protected, err = svc.IsProtected(ctx, p, "feature")
	require.NoError(t, err)
	assert.False(t, protected)
}

func ptr[T any](v T) *T { return &v }
