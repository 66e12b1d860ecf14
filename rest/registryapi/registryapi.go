// Package registryapi serves GitLab's container registry API: the image repositories of a
// project (/projects/:id/registry/repositories, with their tags) and of a group
// (/groups/:id/registry/repositories), one repository by id (/registry/repositories/:id), and
// the deletion of repositories and tags, one by one or by cleanup rules.
package registryapi

import (
	"net/http"

	"anvil/internal/service/containerregistry"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ svc *containerregistry.Service }

// Register adds the registry routes. Reads are open to whoever may read the project's images
// (anonymous callers of public projects with an enabled registry); deletions need a user.
func Register(t *route.Table) {
	h := &handlers{svc: t.S.ContainerRegistry}
	const base = "/projects/:id/registry/repositories"
	t.GET(base, h.listProject)
	t.DELETE(base+"/:repository_id", h.deleteRepository, route.SignedIn)
	t.GET(base+"/:repository_id/tags", h.listTags)
	t.DELETE(base+"/:repository_id/tags", h.cleanup, route.SignedIn)
	t.GET(base+"/:repository_id/tags/:tag_name", h.getTag)
	t.DELETE(base+"/:repository_id/tags/:tag_name", h.deleteTag, route.SignedIn)
	t.GET("/groups/:id/registry/repositories", h.listGroup)
	t.GET("/registry/repositories/:id", h.get)
}

// listProject handles GET /projects/:id/registry/repositories.
func (h *handlers) listProject(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	inc := containerregistry.Include{Tags: b.BoolDefault("tags", false), TagsCount: b.BoolDefault("tags_count", false)}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.svc.ListProject(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), inc, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, res, httpx.P(c).ContainerRepositories(res.Items, inc))
}

// listGroup handles GET /groups/:id/registry/repositories.
func (h *handlers) listGroup(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.svc.ListGroup(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, res, httpx.P(c).ContainerRepositories(res.Items, containerregistry.Include{}))
}

// get handles GET /registry/repositories/:id.
func (h *handlers) get(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	inc := containerregistry.Include{Tags: b.BoolDefault("tags", false), TagsCount: b.BoolDefault("tags_count", false),
		Size: b.BoolDefault("size", false)}
	if err := b.Err(); err != nil {
		return err
	}
	id, err := httpx.PathInt(c, "id", "")
	if err != nil {
		return err
	}
	r, err := h.svc.Get(c.Request.Context(), httpx.Actor(c), id, inc)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ContainerRepository(r, inc))
}

// deleteRepository handles DELETE /projects/:id/registry/repositories/:repository_id: the
// deletion is scheduled (202).
func (h *handlers) deleteRepository(c *gin.Context) error {
	id, err := httpx.PathInt(c, "repository_id", "")
	if err != nil {
		return err
	}
	if err := h.svc.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), id); err != nil {
		return err
	}
	return accepted(c)
}

// listTags handles GET /projects/:id/registry/repositories/:repository_id/tags: offset pages,
// or keyset pages with pagination=keyset (name order, sort asc or desc, continued by last).
func (h *handlers) listTags(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := containerregistry.TagPage{Offset: httpx.Offset(b)}
	if b.StringDefault("pagination", "") == "keyset" {
		page.Keyset = true
		page.Last = b.StringDefault("last", b.StringDefault("page_token", ""))
		if v := b.Enum("sort", "asc", "desc"); v != nil {
			page.Desc = *v == "desc"
		}
	}
	if err := b.Err(); err != nil {
		return err
	}
	id, err := httpx.PathInt(c, "repository_id", "")
	if err != nil {
		return err
	}
	l, err := h.svc.ListTags(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), id, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, l.Result, httpx.P(c).ContainerTags(l.Repository, l.Items))
}

// getTag handles GET /projects/:id/registry/repositories/:repository_id/tags/:tag_name.
func (h *handlers) getTag(c *gin.Context) error {
	id, err := httpx.PathInt(c, "repository_id", "")
	if err != nil {
		return err
	}
	r, t, err := h.svc.GetTag(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), id, httpx.PathParam(c, "tag_name"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ContainerTagDetails(r, t))
}

// deleteTag handles DELETE /projects/:id/registry/repositories/:repository_id/tags/:tag_name
// (200 with an empty body, as GitLab).
func (h *handlers) deleteTag(c *gin.Context) error {
	id, err := httpx.PathInt(c, "repository_id", "")
	if err != nil {
		return err
	}
	if err := h.svc.DeleteTag(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), id, httpx.PathParam(c, "tag_name")); err != nil {
		return err
	}
	c.Status(http.StatusOK)
	c.Writer.WriteHeaderNow()
	return nil
}

// cleanup handles DELETE /projects/:id/registry/repositories/:repository_id/tags: the bulk
// deletion by name_regex_delete (or name_regex), name_regex_keep, keep_n and older_than,
// scheduled (202) at most once an hour per repository.
func (h *handlers) cleanup(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.RequireOne("name_regex", "name_regex_delete")
	deleteParam := "name_regex_delete"
	p := containerregistry.CleanupParams{NameRegexKeep: b.StringDefault("name_regex_keep", ""),
		KeepN: b.Int("keep_n"), OlderThan: b.StringDefault("older_than", "")}
	if v := b.String("name_regex_delete"); v != nil {
		p.NameRegexDelete = *v
	} else if v := b.String("name_regex"); v != nil {
		p.NameRegexDelete, deleteParam = *v, "name_regex"
	}
	if err := b.Err(); err != nil {
		return err
	}
	if err := p.Validate(deleteParam); err != nil {
		return err
	}
	if v := b.String("name_regex"); v != nil && deleteParam != "name_regex" {
		if err := (containerregistry.CleanupParams{NameRegexDelete: *v}).Validate("name_regex"); err != nil {
			return err
		}
	}
	id, err := httpx.PathInt(c, "repository_id", "")
	if err != nil {
		return err
	}
	if err := h.svc.Cleanup(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), id, p); err != nil {
		return err
	}
	return accepted(c)
}

// accepted answers 202 with an empty body.
func accepted(c *gin.Context) error {
	c.Status(http.StatusAccepted)
	c.Writer.WriteHeaderNow()
	return nil
}
