// Package authz is Anvil's one authorization policy: it turns (actor, subject) into GitLab's
// access levels and abilities, and gives finders the predicates that keep invisible rows out.
// REST middleware, GraphQL resolvers and services all ask it; none compares roles itself.
package authz

import (
	"context"
	"slices"

	"anvil/ent"
)

// Level is a GitLab access level.
type Level int

// GitLab's access levels.
const (
	NoAccess   Level = 0
	Minimal    Level = 5
	Guest      Level = 10
	Planner    Level = 15
	Reporter   Level = 20
	Developer  Level = 30
	Maintainer Level = 40
	Owner      Level = 50
	Admin      Level = 60
)

// ValidMemberLevel reports whether l may be given to a member.
func ValidMemberLevel(l int) bool {
	switch Level(l) {
	case Minimal, Guest, Planner, Reporter, Developer, Maintainer, Owner:
		return true
	}
	return false
}

// Actor is who makes a request: nobody (anonymous), or a user, possibly through a token.
type Actor struct {
	User *ent.User
	// Token is the access token used, nil for anonymous callers and password authentication.
	Token *ent.PersonalAccessToken
	// Scopes are the token's scopes; nil means unrestricted (password or internal calls).
	Scopes []string
	// Impersonator is the administrator who used sudo to act as User.
	Impersonator *ent.User
}

// Anonymous is the actor of unauthenticated requests.
var Anonymous = &Actor{}

// System is an actor for internal work that bypasses checks (start-up, admin commands).
func System(u *ent.User) *Actor { return &Actor{User: u} }

// IsAnonymous reports whether no user is signed in.
func (a *Actor) IsAnonymous() bool { return a == nil || a.User == nil }

// IsAdmin reports whether the actor is an administrator. Anvil is self-managed with admin mode
// off, as GitLab's default, so an administrator's token carries administrator rights.
func (a *Actor) IsAdmin() bool { return !a.IsAnonymous() && a.User.Admin }

// UserID returns the signed-in user's id, or 0.
func (a *Actor) UserID() int {
	if a.IsAnonymous() {
		return 0
	}
	return a.User.ID
}

// IsExternal reports whether the actor is an external user (who cannot see internal items).
func (a *Actor) IsExternal() bool { return !a.IsAnonymous() && a.User.External }

// HasScope reports whether the actor's token allows scope (an unrestricted actor always does).
func (a *Actor) HasScope(scope string) bool {
	if a == nil || a.Scopes == nil {
		return true
	}
	return slices.Contains(a.Scopes, scope)
}

type actorKey struct{}

// WithActor stores the actor in ctx.
func WithActor(ctx context.Context, a *Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor stored in ctx, or Anonymous.
func ActorFrom(ctx context.Context) *Actor {
	if a, ok := ctx.Value(actorKey{}).(*Actor); ok && a != nil {
		return a
	}
	return Anonymous
}
