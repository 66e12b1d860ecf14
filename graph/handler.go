package graph

import (
	"log/slog"
	"net/http"

	"anvil/internal/authz"
	"anvil/internal/service"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
)

// Authenticate resolves the actor of a request from its token: the same authentication as
// REST (rest/middleware.Authenticator.Resolve), passed in so graph does not import rest.
type Authenticate func(*http.Request) (*authz.Actor, error)

// NewHandler returns the /api/graphql handler: GitLab's protocol (transport.go), its depth and
// complexity limits (limits.go), token scopes (scopes.go), introspection, and GitLab-shaped
// errors (errors.go). baseURL prefixes every webUrl.
func NewHandler(svc *service.Services, baseURL string, auth Authenticate, log *slog.Logger) http.Handler {
	srv := handler.New(NewSchema(svc, baseURL))
	srv.AddTransport(transport{auth: auth})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.Use(extension.Introspection{})
	srv.Use(&limits{})
	srv.Use(stringInputs{})
	srv.AroundFields(guardScopes)
	srv.SetErrorPresenter(presentError(log))
	srv.SetRecoverFunc(recoverPanic(log))
	return srv
}
