package servertest

import (
	"context"
	"testing"

	"anvil/ent"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
)

// UserOption adjusts a user made by NewUser.
type UserOption func(*users.CreateInput)

// Admin makes the user an administrator.
func Admin(in *users.CreateInput) { t := true; in.Admin = &t }

// External makes the user external.
func External(in *users.CreateInput) { t := true; in.External = &t }

// NewUser creates a user through the user service and returns it with an api-scoped token.
func (in *Instance) NewUser(tb testing.TB, username string, opts ...UserOption) (*ent.User, string) {
	tb.Helper()
	pw := "password-" + username
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
	_, secret, err := in.Services.Tokens.Create(context.Background(), tokens.CreateInput{UserID: userID, Name: "test", Scopes: scopes})
	if err != nil {
		tb.Fatalf("create token: %v", err)
	}
	return secret
}
