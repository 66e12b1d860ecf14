package registryserver

import (
	"net"
	"net/http"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/clientauth"
	"anvil/internal/service/containerregistry"
)

// authenticate reads the request's HTTP Basic credentials through the client authentication
// git over HTTP uses (clientauth, GitLab's find_for_git_client): an access token as the
// password (any username), then the account password of the username or email, with the
// failed-sign-in lock and the ban of addresses that fail too often. No credentials is an
// anonymous request. Errors: clientauth.ErrBanned, KindUnauthorized for wrong credentials and
// for every account that may not use the registry (a deactivated one included, as before),
// or an internal error.
func (s *Server) authenticate(r *http.Request) (containerregistry.Credentials, error) {
	login, password, ok := r.BasicAuth()
	if !ok {
		return containerregistry.AnonymousCredentials(), nil
	}
	res, err := s.ClientAuth.Authenticate(r.Context(), login, password, remoteIP(r))
	switch {
	case clientauth.IsBanned(err):
		return containerregistry.Credentials{}, err
	case apperr.Is(err, apperr.KindUnauthorized, apperr.KindForbidden):
		return containerregistry.Credentials{}, apperr.Unauthorized()
	case err != nil:
		return containerregistry.Credentials{}, err
	}
	actor := &authz.Actor{User: res.User}
	if res.Token == nil {
		return containerregistry.PasswordCredentials(actor), nil
	}
	actor.Token, actor.Scopes = res.Token, res.Token.Scopes
	return containerregistry.TokenCredentials(actor, res.Token.Scopes), nil
}

// remoteIP is the address of the connection's peer (the ban counts connections, not
// X-Forwarded-For, which any client can write).
func remoteIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}
