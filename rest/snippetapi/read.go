package snippetapi

import (
	"net/http"

	"anvil/ent"
	"anvil/internal/service/snippets"
	"anvil/rest/httpx"
	"anvil/rest/repositoryapi"

	"github.com/gin-gonic/gin"
)

// projectRef is the :id of a project snippet route, "" on the personal routes.
func projectRef(c *gin.Context) string {
	if c.Param("snippet_id") == "" {
		return ""
	}
	return httpx.PathParam(c, "id")
}

// snippetID is the snippet's id in the path of either form.
func snippetID(c *gin.Context) string {
	if ref := c.Param("snippet_id"); ref != "" {
		return httpx.PathParam(c, "snippet_id")
	}
	return httpx.PathParam(c, "id")
}

// list handles GET /snippets, /snippets/public, /snippets/all and /projects/:id/snippets.
func (h *handlers) list(scope snippets.Scope) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		p := snippets.ListParams{Scope: scope}
		if scope == snippets.InProject {
			p.ProjectRef = httpx.PathParam(c, "id")
		}
		if scope == snippets.All {
			p.CreatedAfter, p.CreatedBefore = b.Time("created_after"), b.Time("created_before")
			p.RepositoryStorage = b.StringDefault("repository_storage", "")
		}
		page := httpx.Offset(b)
		if err := b.Err(); err != nil {
			return err
		}
		actor := httpx.Actor(c)
		r, err := h.snippets.List(c.Request.Context(), actor, p, page)
		if err != nil {
			return err
		}
		return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Snippets(r.Items, actor.IsAdmin()))
	}
}

// find finds the snippet of the route (any snippet the caller may read on the personal
// routes, the project's on the project routes).
func (h *handlers) find(c *gin.Context) (*ent.Snippet, error) {
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	if ref := projectRef(c); ref != "" {
		sn, _, err := h.snippets.FindInProject(ctx, actor, ref, snippetID(c))
		return sn, err
	}
	return h.snippets.Find(ctx, actor, snippetID(c))
}

// get handles GET /snippets/:id and GET /projects/:id/snippets/:snippet_id.
func (h *handlers) get(c *gin.Context) error {
	sn, err := h.find(c)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Snippet(sn, httpx.Actor(c).IsAdmin()))
}

// raw handles GET /snippets/:id/raw and its project form: the first file's content.
func (h *handlers) raw(c *gin.Context) error {
	sn, err := h.find(c)
	if err != nil {
		return err
	}
	f, err := h.snippets.Raw(c.Request.Context(), sn)
	if err != nil {
		return err
	}
	return send(c, f)
}

// rawFile handles GET /snippets/:id/files/:ref/:file_path/raw and its project form.
func (h *handlers) rawFile(c *gin.Context) error {
	sn, err := h.find(c)
	if err != nil {
		return err
	}
	f, err := h.snippets.RawAt(c.Request.Context(), sn, httpx.PathParam(c, "ref"), httpx.PathParam(c, "file_path"))
	if err != nil {
		return err
	}
	return send(c, f)
}

// send writes a file's bytes as GitLab sends a snippet blob (Workhorse's send_git_blob): the
// type sniffed, text as text/plain, inline with the file name, never cached.
func send(c *gin.Context, f *snippets.RawFile) error {
	repositoryapi.RawHeaders(c, f.Data, f.Path)
	c.Status(http.StatusOK)
	_, err := c.Writer.Write(f.Data)
	return err
}

// userAgentDetail handles GET /snippets/:id/user_agent_detail and its project form
// (administrators).
func (h *handlers) userAgentDetail(c *gin.Context) error {
	sn, err := h.snippets.UserAgentDetail(c.Request.Context(), httpx.Actor(c), projectRef(c), snippetID(c))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).SnippetUserAgentDetail(sn))
}
