// Package middleware holds the REST middleware: authentication (tokens, sudo), scope checks,
// metrics, logging and panic recovery.
package middleware

import (
	"net/http"
	"slices"
	"strings"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// Authenticator resolves the request's actor from its token, in GitLab's order of sources.
type Authenticator struct {
	Tokens *tokens.Service
	Users  *users.Service
}

// tokenFrom returns the token a request carries: PRIVATE-TOKEN, Authorization: Bearer, or the
// private_token / access_token query parameters.
func tokenFrom(r *http.Request) string {
	if t := r.Header.Get("Private-Token"); t != "" {
		return t
	}
	if h := r.Header.Get("Authorization"); h != "" {
		if scheme, rest, ok := strings.Cut(h, " "); ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(rest)
		}
	}
	q := r.URL.Query()
	if t := q.Get("private_token"); t != "" {
		return t
	}
	return q.Get("access_token")
}

// Handler authenticates every request. A request without a token is anonymous; a token that is
// unknown, expired or revoked is refused with 401 even on public resources.
func (a *Authenticator) Handler(c *gin.Context) {
	actor, err := a.Resolve(c.Request)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	httpx.SetActor(c, actor)
	c.Next()
}

// Resolve returns the actor for a request (used by REST and GraphQL alike).
func (a *Authenticator) Resolve(r *http.Request) (*authz.Actor, error) {
	secret := tokenFrom(r)
	if secret == "" {
		if sudoTarget(r) != "" {
			return nil, apperr.Unauthorized()
		}
		return authz.Anonymous, nil
	}
	tok, err := a.Tokens.Authenticate(r.Context(), secret)
	if err != nil {
		return nil, err
	}
	u := tok.Edges.User
	if err := CheckActive(u); err != nil {
		return nil, err
	}
	actor := &authz.Actor{User: u, Token: tok, Scopes: tok.Scopes}
	if target := sudoTarget(r); target != "" {
		return a.sudo(r, actor, target)
	}
	return actor, nil
}

// CheckActive refuses users whose state forbids API access, with GitLab's messages.
func CheckActive(u *ent.User) error {
	switch u.State {
	case user.StateBlocked, user.StateLdapBlocked, user.StateBlockedPendingApproval:
		return apperr.Forbidden("Your account has been blocked.")
	case user.StateBanned:
		return apperr.Forbidden("Your account has been banned.")
	case user.StateDeactivated:
		return apperr.Forbidden("Your account has been deactivated by your administrator. Please log back in to reactivate your account.")
	}
	return nil
}

func sudoTarget(r *http.Request) string {
	if s := r.Header.Get("Sudo"); s != "" {
		return s
	}
	return r.URL.Query().Get("sudo")
}

// sudo switches to the target user: only administrators with a token carrying the sudo scope.
func (a *Authenticator) sudo(r *http.Request, actor *authz.Actor, target string) (*authz.Actor, error) {
	if !actor.User.Admin {
		return nil, apperr.Forbidden("Must be admin to use sudo")
	}
	if !slices.Contains(actor.Scopes, "sudo") {
		return nil, apperr.InsufficientScope("sudo")
	}
	u, err := a.Users.FindByRef(r.Context(), target)
	if err != nil {
		return nil, apperr.NotFoundMessage("404 User with ID or username '" + target + "' Not Found")
	}
	// The impersonated request keeps the token's other scopes.
	return &authz.Actor{User: u, Token: actor.Token, Scopes: actor.Scopes, Impersonator: actor.User}, nil
}

// ScopeClass says which token scopes a route accepts besides api.
type ScopeClass int

// Scope classes.
const (
	// ScopeAPI routes accept api, and read_api for GET and HEAD.
	ScopeAPI ScopeClass = iota
	// ScopeUser routes (user and event reads) also accept read_user for GET and HEAD.
	ScopeUser
	// ScopeRepository routes (files, raw blobs, archives) also accept read_repository for GET.
	ScopeRepository
)

// RequireScope refuses a token whose scopes do not cover this route and method.
func RequireScope(class ScopeClass) gin.HandlerFunc {
	return func(c *gin.Context) {
		a := httpx.Actor(c)
		if a.Scopes == nil || allowed(a, class, c.Request.Method) {
			c.Next()
			return
		}
		need := []string{"api"}
		if isRead(c.Request.Method) {
			need = append(need, "read_api")
			switch class {
			case ScopeUser:
				need = append(need, "read_user")
			case ScopeRepository:
				need = append(need, "read_repository")
			}
		}
		httpx.Error(c, apperr.InsufficientScope(need...))
	}
}

func isRead(method string) bool { return method == http.MethodGet || method == http.MethodHead }

func allowed(a *authz.Actor, class ScopeClass, method string) bool {
	if a.HasScope("api") {
		return true
	}
	if !isRead(method) {
		return false
	}
	if a.HasScope("read_api") {
		return true
	}
	switch class {
	case ScopeUser:
		return a.HasScope("read_user")
	case ScopeRepository:
		return a.HasScope("read_repository")
	}
	return false
}

// RequireUser answers 401 to anonymous callers.
func RequireUser(c *gin.Context) {
	if httpx.Actor(c).IsAnonymous() {
		httpx.Error(c, apperr.Unauthorized())
		return
	}
	c.Next()
}

// RequireAdmin answers 401 to anonymous callers and 403 to non-administrators.
func RequireAdmin(c *gin.Context) {
	a := httpx.Actor(c)
	switch {
	case a.IsAnonymous():
		httpx.Error(c, apperr.Unauthorized())
	case !a.IsAdmin():
		httpx.Error(c, apperr.Forbidden(""))
	default:
		c.Next()
	}
}
