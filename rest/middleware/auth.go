// Package middleware holds the REST middleware: authentication (tokens, sudo), scope checks,
// metrics, logging and panic recovery.
package middleware

import (
	"mime"
	"net"
	"net/http"
	"strings"
	"time"

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
	// BaseURL is the external URL named in some refusal messages; when empty, Handler uses the
	// base URL of the request's presenter (set before it on the /api/v4 group).
	BaseURL string
}

// tokenFrom returns the token a request carries: PRIVATE-TOKEN, Authorization: Bearer, or the
// private_token / access_token / bearer_token query parameters (the last is Doorkeeper's).
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
	for _, name := range []string{"private_token", "access_token", "bearer_token"} {
		if t := q.Get(name); t != "" {
			return t
		}
	}
	return ""
}

// Handler authenticates every request. A request without a token is anonymous; a token that is
// unknown, expired or revoked is refused with 401 even on public resources.
func (a *Authenticator) Handler(c *gin.Context) {
	base := a.BaseURL
	if base == "" {
		base = httpx.P(c).BaseURL
	}
	target, err := restSudoTarget(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	actor, err := a.resolve(c.Request, c.ClientIP(), base, target)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	httpx.SetActor(c, actor)
	c.Next()
}

// Resolve returns the actor for a request (used by REST and GraphQL alike).
func (a *Authenticator) Resolve(r *http.Request) (*authz.Actor, error) {
	ip := r.RemoteAddr
	if host, _, err := net.SplitHostPort(ip); err == nil {
		ip = host
	}
	return a.resolve(r, ip, a.BaseURL, sudoTarget(r))
}

// resolve authenticates r's token and switches to the sudo target when one is named.
func (a *Authenticator) resolve(r *http.Request, ip, baseURL, target string) (*authz.Actor, error) {
	secret := tokenFrom(r)
	if secret == "" {
		if target != "" {
			return nil, apperr.Unauthorized()
		}
		return authz.Anonymous, nil
	}
	tok, err := a.Tokens.Authenticate(r.Context(), secret, ip)
	if err != nil {
		return nil, err
	}
	u := tok.Edges.User
	if err := users.AccessError(u, users.ViaAPI, baseURL, time.Now()); err != nil {
		return nil, err
	}
	actor := &authz.Actor{User: u, Token: tok, Scopes: tok.Scopes}
	if target != "" {
		return a.sudo(r, actor, target)
	}
	return actor, nil
}

// sudoTarget is the user a request asks to act as, from the sudo query parameter or the Sudo
// header (GraphQL and every request whose body is not read for parameters).
func sudoTarget(r *http.Request) string {
	if s := r.URL.Query().Get("sudo"); s != "" {
		return s
	}
	return r.Header.Get("Sudo")
}

// restSudoTarget is the sudo target of a REST request. GitLab reads the sudo parameter before
// the Sudo header, and its parameters include the body: a form or JSON body's sudo wins over
// the query's, which wins over the header. The body is parsed once, through the handler's
// binder; a malformed body is left for the handler to refuse, and a sudo value that is not
// text is 400 "sudo is invalid".
func restSudoTarget(c *gin.Context) (string, error) {
	if !parsedBody(c.Request) {
		return sudoTarget(c.Request), nil
	}
	b, err := httpx.Bind(c)
	if err != nil || b.Tree()["sudo"] == nil {
		// Not given (or JSON null, which names nobody): the query's and the header's.
		return sudoTarget(c.Request), nil
	}
	s := b.String("sudo")
	switch {
	case s == nil:
		return "", apperr.Invalid("sudo")
	case *s == "":
		return sudoTarget(c.Request), nil
	}
	return *s, nil
}

// parsedBody reports whether r's body holds parameters (a form or JSON), which the binder reads.
func parsedBody(r *http.Request) bool {
	if r.Body == nil || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return false
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return ct == "application/json" || strings.HasSuffix(ct, "+json") ||
		ct == "application/x-www-form-urlencoded" || ct == "multipart/form-data"
}

// sudo switches to the target user, checking in GitLab's order: administrator, then the token's
// sudo scope, then the target's existence.
func (a *Authenticator) sudo(r *http.Request, actor *authz.Actor, target string) (*authz.Actor, error) {
	if !actor.IsAdmin() {
		return nil, apperr.Forbidden("Must be admin to use sudo")
	}
	if !actor.HasScope("sudo") {
		return nil, apperr.InsufficientScope("sudo")
	}
	u, err := a.Users.FindByRef(r.Context(), target)
	if err != nil {
		if apperr.IsNotFound(err) {
			return nil, apperr.NotFound("User with ID or username '" + target + "'")
		}
		return nil, err
	}
	// The impersonated request keeps the token (so /personal_access_tokens/self still names it).
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
	// ScopeAny routes accept a token of any scope (a token reading or revoking itself).
	ScopeAny
	// ScopeSelfRotate routes accept api or self_rotate, for any method (token self-rotation).
	ScopeSelfRotate
)

// RequireScope refuses a token whose scopes do not cover this route and method. Requests made
// with sudo skip it: GitLab checks only the sudo scope for them.
func RequireScope(class ScopeClass) gin.HandlerFunc {
	return func(c *gin.Context) {
		a := httpx.Actor(c)
		if a.Scopes == nil || a.Impersonator != nil || allowed(a, class, c.Request.Method) {
			c.Next()
			return
		}
		httpx.Error(c, apperr.InsufficientScope(accepted(class, c.Request.Method)...))
	}
}

// accepted lists the scopes a route takes for a method, in GitLab's order, for the error body.
func accepted(class ScopeClass, method string) []string {
	if class == ScopeSelfRotate {
		return []string{"api", "self_rotate"}
	}
	need := []string{"api"}
	if isRead(method) {
		need = append(need, "read_api")
		switch class {
		case ScopeUser:
			need = append(need, "read_user")
		case ScopeRepository:
			need = append(need, "read_repository")
		}
	}
	return need
}

func isRead(method string) bool { return method == http.MethodGet || method == http.MethodHead }

func allowed(a *authz.Actor, class ScopeClass, method string) bool {
	if class == ScopeAny || a.HasScope("api") {
		return true
	}
	if class == ScopeSelfRotate {
		return a.HasScope("self_rotate")
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
