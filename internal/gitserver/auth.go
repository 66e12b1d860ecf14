package gitserver

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strings"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/service/users"
)

// authResult is who makes a git request and what its credentials allow (GitLab's
// authentication abilities): a token allows what its scopes say, a password everything.
type authResult struct {
	actor    *authz.Actor
	download bool
	push     bool
}

// Token scopes that allow reading and writing repositories over git.
var (
	downloadScopes = []string{"api", "read_api", "read_repository", "write_repository"}
	pushScopes     = []string{"api", "write_repository"}
)

// failure is a refusal: a status and GitLab's plain-text message, with the Basic challenge
// for 401s so that git asks for credentials.
type failure struct {
	status    int
	msg       string
	challenge bool
}

func (f *failure) write(w http.ResponseWriter) {
	if f.challenge {
		w.Header().Set("WWW-Authenticate", `Basic realm="GitLab"`)
	}
	plain(w, f.status, f.msg)
}

// plain writes a text/plain answer, as GitLab renders git refusals (git shows it after
// "remote:").
func plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg))
}

// accessDenied is the 401 for missing or wrong credentials.
func (s *Server) accessDenied() *failure {
	return &failure{status: http.StatusUnauthorized, challenge: true, msg: "HTTP Basic: Access denied. " +
		"If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. " +
		"If a token was provided, it was either incorrect, expired, or improperly scoped. See " +
		strings.TrimRight(s.ExternalURL, "/") + "/help/topics/git/troubleshooting_git.md#error-on-git-fetch-http-basic-access-denied"}
}

// authenticate finds the request's user from HTTP Basic credentials, as GitLab's git client
// authentication does: the password is first tried as an access token (any username works,
// "oauth2" included), then as the account password of the username (or email) when the
// instance allows passwords for git. Wrong credentials are a 401 with the Basic challenge.
// Without credentials the request is anonymous; check decides whether that is enough.
func (s *Server) authenticate(ctx context.Context, r *http.Request, rt route) (*authResult, *failure) {
	login, password, ok := r.BasicAuth()
	if !ok {
		return &authResult{actor: authz.Anonymous, download: true}, nil
	}
	if password == "" {
		return nil, s.accessDenied()
	}
	if res, fail := s.tokenAuth(ctx, r, password); res != nil || fail != nil {
		return res, fail
	}
	if res, fail := s.passwordAuth(ctx, login, password); res != nil || fail != nil {
		return res, fail
	}
	return nil, s.accessDenied()
}

// tokenAuth accepts a personal, project or group access token as the password.
func (s *Server) tokenAuth(ctx context.Context, r *http.Request, secret string) (*authResult, *failure) {
	ip := r.RemoteAddr
	if host, _, err := net.SplitHostPort(ip); err == nil {
		ip = host
	}
	tok, err := s.Tokens.Authenticate(ctx, secret, ip)
	if err != nil {
		return nil, nil
	}
	u := tok.Edges.User
	if fail := s.checkActive(u); fail != nil {
		return nil, fail
	}
	has := func(scopes []string) bool {
		return slices.ContainsFunc(tok.Scopes, func(sc string) bool { return slices.Contains(scopes, sc) })
	}
	return &authResult{
		actor:    &authz.Actor{User: u, Token: tok, Scopes: tok.Scopes},
		download: has(downloadScopes),
		push:     has(pushScopes),
	}, nil
}

// passwordAuth accepts the account password of login (a username or an email) when the
// instance setting password_authentication_enabled_for_git allows it. Users with two-factor
// authentication must use a token.
func (s *Server) passwordAuth(ctx context.Context, login, password string) (*authResult, *failure) {
	enabled := true
	if err := s.Settings.Get(ctx, "password_authentication_enabled_for_git", &enabled); err != nil || !enabled {
		return nil, nil
	}
	u, err := s.Client.User.Query().Where(user.Or(user.UsernameEqualFold(login), user.EmailEqualFold(login))).First(ctx)
	if err != nil || !users.CheckPassword(u, password) || u.TwoFactorEnabled {
		return nil, nil
	}
	if fail := s.checkActive(u); fail != nil {
		return nil, fail
	}
	return &authResult{actor: &authz.Actor{User: u}, download: true, push: true}, nil
}

// checkActive refuses accounts that may not use git. Blocked, banned and pending accounts
// cannot log in, so their credentials are simply wrong (401); a deactivated account is told
// how to come back (403), as GitLab does.
func (s *Server) checkActive(u *ent.User) *failure {
	switch u.State {
	case user.StateActive:
		return nil
	case user.StateDeactivated:
		return &failure{status: http.StatusForbidden, msg: "Your account has been deactivated by your administrator. " +
			"Please log back in from a web browser to reactivate your account at " + strings.TrimRight(s.ExternalURL, "/")}
	}
	return s.accessDenied()
}
