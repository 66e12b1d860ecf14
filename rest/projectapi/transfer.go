package projectapi

import (
	"anvil/internal/apperr"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// transfer handles PUT /projects/:id/transfer: namespace (id or full path) is required; 200
// with the moved project; a refusal is GitLab's 400 "Failed to transfer project {...}".
func (h *handlers) transfer(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("namespace")
	ns, opts := b.StringDefault("namespace", ""), BindOptions(b)
	if err := b.Err(); err != nil {
		return err
	}
	p, v, err := h.projects.Transfer(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), ns)
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindValidation {
		return apperr.Refused("Failed to transfer project " + httpx.RubyErrors(e.Fields))
	}
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Project(p, v, opts))
}
