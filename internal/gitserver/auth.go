package gitserver

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
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

// authenticate finds the request's user from HTTP Basic credentials through the client
// authentication GitLab's git clients get (clientauth: an access token as the password, any
// username, then the account password of the username or email, with the failed-sign-in lock
// and the failed-authentication ban of the client's address). Wrong credentials are a 401 with
// the Basic challenge; a banned address a 403. Without credentials the request is anonymous;
// check decides whether that is enough.
func (s *Server) authenticate(ctx context.Context, r *http.Request) (*authResult, *failure) {
	login, password, ok := r.BasicAuth()
	if !ok {
		return &authResult{actor: authz.Anonymous, download: true}, nil
	}
	res, err := s.ClientAuth.Authenticate(ctx, login, password, remoteIP(r))
	if err != nil {
		return nil, s.authFailure(ctx, err)
	}
	if res.Token == nil {
		return &authResult{actor: &authz.Actor{User: res.User}, download: true, push: true}, nil
	}
	tok := res.Token
	has := func(scopes []string) bool {
		return slices.ContainsFunc(tok.Scopes, func(sc string) bool { return slices.Contains(scopes, sc) })
	}
	return &authResult{
		actor:    &authz.Actor{User: res.User, Token: tok, Scopes: tok.Scopes},
		download: has(downloadScopes),
		push:     has(pushScopes),
	}, nil
}

// authFailure answers a refused authentication: a banned address and a deactivated account
// with 403 and GitLab's message, wrong credentials with the 401 challenge.
func (s *Server) authFailure(ctx context.Context, err error) *failure {
	if e, ok := apperr.As(err); ok {
		switch e.Kind {
		case apperr.KindForbidden:
			return &failure{status: http.StatusForbidden, msg: e.Text()}
		case apperr.KindUnauthorized:
			return s.accessDenied()
		}
	}
	s.Log.ErrorContext(ctx, "git authentication", "err", err)
	return &failure{status: http.StatusInternalServerError, msg: "Internal server error"}
}

// remoteIP is the address of the connection's peer: the ban counts connections, not
// X-Forwarded-For, which any client can write.
func remoteIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}
