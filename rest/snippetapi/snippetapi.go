// Package snippetapi serves GitLab's Snippets API (personal snippets, /snippets) and Project
// snippets API (/projects/:id/snippets): lists, reads, raw content of the first file or of
// any file at a ref, create, update (files[] actions or the older file_name and content),
// delete, and the administrators' user agent detail.
package snippetapi

import (
	"anvil/internal/service/snippets"
	"anvil/rest/route"
)

type handlers struct{ snippets *snippets.Service }

// Register adds the snippet routes. Signed-in requirements that GitLab checks after finding
// the project (its 404 and the snippets feature's 403 come first) are the service's.
func Register(t *route.Table) {
	h := &handlers{snippets: t.S.Snippets}
	t.GET("/snippets", h.list(snippets.Own), route.SignedIn)
	t.GET("/snippets/public", h.list(snippets.PublicPersonal), route.SignedIn)
	t.GET("/snippets/all", h.list(snippets.All), route.SignedIn)
	t.GET("/snippets/:id", h.get)
	t.GET("/snippets/:id/raw", h.raw)
	t.GET("/snippets/:id/files/:ref/:file_path/raw", h.rawFile)
	t.GET("/snippets/:id/user_agent_detail", h.userAgentDetail, route.AdminOnly)
	t.POST("/snippets", h.create, route.SignedIn)
	t.PUT("/snippets/:id", h.update, route.SignedIn)
	t.DELETE("/snippets/:id", h.delete, route.SignedIn)

	t.GET("/projects/:id/snippets", h.list(snippets.InProject))
	t.GET("/projects/:id/snippets/:snippet_id", h.get)
	t.GET("/projects/:id/snippets/:snippet_id/raw", h.raw)
	t.GET("/projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw", h.rawFile)
	t.GET("/projects/:id/snippets/:snippet_id/user_agent_detail", h.userAgentDetail)
	t.POST("/projects/:id/snippets", h.create)
	t.PUT("/projects/:id/snippets/:snippet_id", h.update)
	t.DELETE("/projects/:id/snippets/:snippet_id", h.delete)
}
