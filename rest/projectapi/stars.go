package projectapi

import (
	"context"
	"net/http"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/projects"
	"anvil/internal/service/stars"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// toggle is Star or Unstar.
type toggle func(ctx context.Context, a *authz.Actor, ref string) (*ent.Project, *projects.View, bool, error)

// star handles POST /projects/:id/star: 201 with the project, 304 when already starred.
func (h *handlers) star(c *gin.Context) error { return h.toggleStar(c, h.stars.Star) }

// unstar handles POST /projects/:id/unstar: 201 with the project, 304 when not starred.
func (h *handlers) unstar(c *gin.Context) error { return h.toggleStar(c, h.stars.Unstar) }

func (h *handlers) toggleStar(c *gin.Context, op toggle) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	opts := BindOptions(b)
	if err := b.Err(); err != nil {
		return err
	}
	p, v, changed, err := op(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	if !changed {
		c.Status(http.StatusNotModified)
		c.Writer.WriteHeaderNow()
		return nil
	}
	return httpx.Created(c, httpx.P(c).Project(p, v, opts))
}

// starrers handles GET /projects/:id/starrers.
func (h *handlers) starrers(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p, page := stars.StarrersParams{Search: b.StringDefault("search", "")}, httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.stars.Starrers(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p, page)
	if err != nil {
		return err
	}
	pr := httpx.P(c)
	return httpx.Page(c, pr.BaseURL, r, pr.Starrers(r.Items))
}

// userStarredProjects handles GET /users/:id/starred_projects: the projects the user starred
// that the caller may see, in the project listing's shapes.
func (h *handlers) userStarredProjects(c *gin.Context) error {
	uid, err := h.stars.StarredBy(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	req, err := BindList(b, true)
	if err != nil {
		return err
	}
	req.Params.StarredBy = uid
	return h.present(c, req)
}
