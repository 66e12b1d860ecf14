package registryserver

import (
	"net"
	"net/http"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/service/containerregistry"
	"anvil/internal/service/users"
)

// authenticate reads the request's HTTP Basic credentials as git over HTTP does (GitLab's
// find_for_git_client): the password is tried as an access token first (any username), then
// as the account password of the username or email when the instance allows passwords for
// git. No credentials is an anonymous request; wrong ones are refused (ok false).
func (s *Server) authenticate(r *http.Request) (containerregistry.Credentials, bool) {
	login, password, ok := r.BasicAuth()
	if !ok {
		return containerregistry.AnonymousCredentials(), true
	}
	if password == "" {
		return containerregistry.Credentials{}, false
	}
	ctx := r.Context()
	ip := r.RemoteAddr
	if host, _, err := net.SplitHostPort(ip); err == nil {
		ip = host
	}
	if tok, err := s.Tokens.Authenticate(ctx, password, ip); err == nil {
		u := tok.Edges.User
		if !active(u) {
			return containerregistry.Credentials{}, false
		}
		return containerregistry.TokenCredentials(&authz.Actor{User: u, Token: tok, Scopes: tok.Scopes}, tok.Scopes), true
	}
	enabled := true
	if err := s.Settings.Get(ctx, "password_authentication_enabled_for_git", &enabled); err != nil || !enabled {
		return containerregistry.Credentials{}, false
	}
	u, err := s.Client.User.Query().Where(user.Or(user.UsernameEqualFold(login), user.EmailEqualFold(login))).First(ctx)
	if err != nil || !users.CheckPassword(u, password) || u.TwoFactorEnabled || !active(u) {
		return containerregistry.Credentials{}, false
	}
	return containerregistry.PasswordCredentials(&authz.Actor{User: u}), true
}

// active reports an account that may sign in.
func active(u *ent.User) bool { return u != nil && u.State == user.StateActive }
