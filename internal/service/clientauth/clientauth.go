// Package clientauth authenticates git and container registry clients: HTTP Basic credentials
// sent to git over HTTP and to the registry's token endpoint /jwt/auth (GitLab's
// find_for_git_client). The password is tried as an access token first (any username), then as
// the account password of the username or email through the users service. Failed
// authentications count against the client's address, which is banned after too many
// (internal/authban).
package clientauth

import (
	"context"
	"errors"
	"time"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authban"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
	"anvil/internal/service/wire"
)

// ErrBanned refuses a client whose address is banned for failing authentication too often
// (GitLab answers 403 with this message for an hour).
var ErrBanned = &apperr.Error{Kind: apperr.KindForbidden, Message: "Too many failed authentication attempts from this IP", Code: "ip_banned"}

// IsBanned reports whether err is ErrBanned.
func IsBanned(err error) bool { return errors.Is(err, ErrBanned) }

// Service authenticates git and registry clients.
type Service struct {
	users  *users.Service
	tokens *tokens.Service
	ban    *authban.Limiter
	// baseURL is the instance URL named in the deactivated account's message.
	baseURL string
}

// New returns the service.
func New(u *users.Service, t *tokens.Service, ban *authban.Limiter, baseURL string) *Service {
	wire.Require("clientauth", wire.D("users", u), wire.D("tokens", t), wire.D("ban", ban))
	return &Service{users: u, tokens: t, ban: ban, baseURL: baseURL}
}

// Result is an authenticated client: its user, and the token it used (nil for the account
// password, which allows everything the user may do).
type Result struct {
	User  *ent.User
	Token *ent.PersonalAccessToken
}

// Authenticate checks the credentials a client sent from ip. Errors: ErrBanned for a banned
// address (before the credentials are looked at); KindUnauthorized for wrong credentials or an
// account that cannot sign in; KindForbidden with GitLab's message for a deactivated account.
// A wrong answer counts against ip, a right one (a deactivated account's included: its
// credentials were right) clears ip's count.
func (s *Service) Authenticate(ctx context.Context, login, password, ip string) (*Result, error) {
	if s.ban.Banned(ip) {
		return nil, ErrBanned
	}
	res, err := s.check(ctx, login, password, ip)
	switch {
	case err == nil || apperr.Is(err, apperr.KindForbidden):
		s.ban.Reset(ip)
	case apperr.Is(err, apperr.KindUnauthorized):
		s.ban.Fail(ip)
	}
	return res, err
}

// check tries the password as an access token, then as the account password.
func (s *Service) check(ctx context.Context, login, password, ip string) (*Result, error) {
	if password == "" {
		return nil, apperr.Unauthorized()
	}
	if tok, err := s.tokens.Authenticate(ctx, password, ip); err == nil {
		if err := users.AccessError(tok.Edges.User, users.ViaGitClient, s.baseURL, time.Now()); err != nil {
			return nil, err
		}
		return &Result{User: tok.Edges.User, Token: tok}, nil
	} else if !apperr.Is(err, apperr.KindUnauthorized, apperr.KindInvalidToken) {
		return nil, err
	}
	u, err := s.users.SignInWithPassword(ctx, login, password, s.baseURL)
	if err != nil {
		return nil, err
	}
	return &Result{User: u}, nil
}
