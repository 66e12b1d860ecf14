package servertest

import (
	"context"
	"testing"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
)

// UserOption adjusts a user made by NewUser.
type UserOption func(*users.CreateInput)

// Admin makes the user an administrator.
func Admin(in *users.CreateInput) { t := true; in.Admin = &t }

// External makes the user external.
func External(in *users.CreateInput) { t := true; in.External = &t }

// UserPassword is the password of every user NewUser creates: strong by GitLab's rules (no
// common password, no part of a name, username or email address).
const UserPassword = "Kw9-tallow-Rz4q"

// NewUser creates a user through the user service and returns it with an api-scoped token.
func (in *Instance) NewUser(tb testing.TB, username string, opts ...UserOption) (*ent.User, string) {
	tb.Helper()
	pw := UserPassword
	ci := users.CreateInput{Username: username, Name: "User " + username, Email: username + "@example.com", Password: &pw}
	for _, o := range opts {
		o(&ci)
	}
	ctx := context.Background()
	u, err := in.Services.Users.Create(ctx, nil, ci)
	if err != nil {
		tb.Fatalf("create user %s: %v", username, err)
	}
	return u, in.NewToken(tb, u.ID, "api")
}

// NewToken issues a token with the given scopes for a user.
func (in *Instance) NewToken(tb testing.TB, userID int, scopes ...string) string {
	tb.Helper()
	_, secret, err := in.Services.Tokens.Create(context.Background(), nil, tokens.CreateInput{UserID: userID, Name: "test", Scopes: scopes})
	if err != nil {
		tb.Fatalf("create token: %v", err)
	}
	return secret
}

// NewGroup creates a group directly in the database (a fixture, not an API call). parent may be nil.
func (in *Instance) NewGroup(tb testing.TB, path, visibility string, parent *ent.Namespace) *ent.Namespace {
	tb.Helper()
	full := path
	cr := in.DB.Client.Namespace.Create().SetName(path).SetPath(path).
		SetKind(namespace.KindGroup).SetVisibility(namespace.Visibility(visibility))
	if parent != nil {
		full = parent.FullPath + "/" + path
		cr.SetParentID(parent.ID)
	}
	ns, err := cr.SetFullPath(full).Save(context.Background())
	if err != nil {
		tb.Fatalf("create group %s: %v", full, err)
	}
	return ns
}

// NewProject creates a project row directly in the database (a fixture: no repository).
func (in *Instance) NewProject(tb testing.TB, ns *ent.Namespace, path, visibility string) *ent.Project {
	tb.Helper()
	p, err := in.DB.Client.Project.Create().SetName(path).SetPath(path).SetNamespaceID(ns.ID).
		SetVisibility(project.Visibility(visibility)).Save(context.Background())
	if err != nil {
		tb.Fatalf("create project %s/%s: %v", ns.FullPath, path, err)
	}
	p.Edges.Namespace = ns
	return p
}

// PersonalNamespace returns a user's personal namespace.
func (in *Instance) PersonalNamespace(tb testing.TB, u *ent.User) *ent.Namespace {
	tb.Helper()
	ns, err := in.DB.Client.Namespace.Query().Where(namespace.OwnerID(u.ID), namespace.KindEQ(namespace.KindUser)).Only(context.Background())
	if err != nil {
		tb.Fatalf("personal namespace of %s: %v", u.Username, err)
	}
	return ns
}

// AddGroupMember makes u a direct member of a group with an access level.
func (in *Instance) AddGroupMember(tb testing.TB, ns *ent.Namespace, u *ent.User, level int) {
	tb.Helper()
	if err := in.DB.Client.Member.Create().SetNamespaceID(ns.ID).SetUserID(u.ID).SetAccessLevel(level).Exec(context.Background()); err != nil {
		tb.Fatalf("add group member: %v", err)
	}
}

// AddProjectMember makes u a direct member of a project with an access level.
func (in *Instance) AddProjectMember(tb testing.TB, p *ent.Project, u *ent.User, level int) {
	tb.Helper()
	if err := in.DB.Client.Member.Create().SetProjectID(p.ID).SetUserID(u.ID).SetAccessLevel(level).Exec(context.Background()); err != nil {
		tb.Fatalf("add project member: %v", err)
	}
}
