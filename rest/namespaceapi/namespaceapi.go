// Package namespaceapi serves the namespace endpoints: /namespaces, one namespace and whether a
// namespace path is taken.
package namespaceapi

import (
	"anvil/internal/service/namespaces"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ namespaces *namespaces.Service }

// Register adds the namespace routes; every one needs a signed-in user, as in GitLab.
func Register(t *route.Table) {
	h := &handlers{namespaces: t.S.Namespaces}
	t.GET("/namespaces", h.list, route.SignedIn)
	t.GET("/namespaces/:id", h.get, route.SignedIn)
	t.GET("/namespaces/:id/exists", h.exists, route.SignedIn)
}

// listParams binds GET /namespaces' filters.
func listParams(b *params.Binder) namespaces.ListParams {
	return namespaces.ListParams{
		Search:         b.StringDefault("search", ""),
		FullPathSearch: b.BoolDefault("full_path_search", false),
		OwnedOnly:      b.BoolDefault("owned_only", false),
		TopLevelOnly:   b.BoolDefault("top_level_only", false),
	}
}

// list handles GET /namespaces: the caller's namespaces (every namespace for administrators).
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p, page := listParams(b), httpx.Offset(b)
	b.String("requested_hosted_plan") // accepted and ignored: GitLab.com only
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.namespaces.List(c.Request.Context(), httpx.Actor(c), p, page, namespaces.LoadNamespace)
	if err != nil {
		return err
	}
	pr := httpx.P(c)
	return httpx.Page(c, pr.BaseURL, r, pr.NamespaceEntries(r.Items))
}

// get handles GET /namespaces/:id (numeric id or URL-encoded full path).
func (h *handlers) get(c *gin.Context) error {
	e, err := h.namespaces.Find(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), namespaces.LoadNamespace)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).NamespaceEntry(e))
}

// exists handles GET /namespaces/:id/exists: whether the path :id is taken under parent_id (at
// the top level without it), with a free path to suggest when it is.
func (h *handlers) exists(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	parentID := b.Int("parent_id")
	if err := b.Err(); err != nil {
		return err
	}
	exists, suggests, err := h.namespaces.Exists(c.Request.Context(), httpx.PathParam(c, "id"), parentID)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).NamespaceExistence(exists, suggests))
}
