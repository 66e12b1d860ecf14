// Package route is the small DSL of the REST route table: each route names its handler and its
// guard (scope class, signed-in, administrator), so access is audited by reading the table.
package route

import (
	"anvil/internal/service"
	"anvil/rest/httpx"
	"anvil/rest/middleware"

	"github.com/gin-gonic/gin"
)

// Option adjusts a route's guards.
type Option func(*options)

type options struct {
	scope middleware.ScopeClass
	extra []gin.HandlerFunc
}

// UserScope lets read_user tokens GET the route.
func UserScope(o *options) { o.scope = middleware.ScopeUser }

// RepositoryScope lets read_repository tokens GET the route.
func RepositoryScope(o *options) { o.scope = middleware.ScopeRepository }

// AnyScope accepts a token of any scope (a token reading or revoking itself).
func AnyScope(o *options) { o.scope = middleware.ScopeAny }

// SelfRotateScope accepts api or self_rotate tokens (token self-rotation).
func SelfRotateScope(o *options) { o.scope = middleware.ScopeSelfRotate }

// SignedIn answers 401 to anonymous callers.
func SignedIn(o *options) { o.extra = append(o.extra, middleware.RequireUser) }

// AdminOnly answers 401 to anonymous callers and 403 to non-administrators.
func AdminOnly(o *options) { o.extra = append(o.extra, middleware.RequireAdmin) }

// Table registers routes on the /api/v4 group.
type Table struct {
	G *gin.RouterGroup
	S *service.Services
}

func (t *Table) add(method, path string, h httpx.Handler, opts []Option) {
	o := &options{}
	for _, fn := range opts {
		fn(o)
	}
	handlers := []gin.HandlerFunc{middleware.RequireScope(o.scope)}
	handlers = append(handlers, o.extra...)
	handlers = append(handlers, httpx.Wrap(h))
	t.G.Handle(method, path, handlers...)
}

// GET registers a GET (and HEAD) route.
func (t *Table) GET(path string, h httpx.Handler, opts ...Option) {
	t.add("GET", path, h, opts)
	t.add("HEAD", path, h, opts)
}

// POST registers a POST route.
func (t *Table) POST(path string, h httpx.Handler, opts ...Option) { t.add("POST", path, h, opts) }

// PUT registers a PUT route.
func (t *Table) PUT(path string, h httpx.Handler, opts ...Option) { t.add("PUT", path, h, opts) }

// PATCH registers a PATCH route.
func (t *Table) PATCH(path string, h httpx.Handler, opts ...Option) { t.add("PATCH", path, h, opts) }

// DELETE registers a DELETE route.
func (t *Table) DELETE(path string, h httpx.Handler, opts ...Option) {
	t.add("DELETE", path, h, opts)
}
