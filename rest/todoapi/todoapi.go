// Package todoapi serves the to-do list: GET /todos with its filters, marking one or all
// to-dos done, adding a to-do on an issue (POST /projects/:id/issues/:issue_iid/todo), and
// GET /user_counts.
package todoapi

import (
	"net/http"

	"anvil/ent"
	"anvil/internal/service/todos"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ todos *todos.Service }

// Register adds the to-do routes.
func Register(t *route.Table) {
	h := &handlers{todos: t.S.Todos}
	t.GET("/todos", h.list, route.SignedIn)
	t.POST("/todos/mark_as_done", h.markAllDone, route.SignedIn)
	t.POST("/todos/:id/mark_as_done", h.markDone, route.SignedIn)
	t.POST("/projects/:id/issues/:issue_iid/todo", h.markIssue, route.SignedIn)
	t.POST("/projects/:id/merge_requests/:merge_request_iid/todo", h.markMergeRequest, route.SignedIn)
	t.GET("/user_counts", h.userCounts, route.SignedIn)
}

// list handles GET /todos.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	var p todos.ListParams
	if v := b.Enum("action", todos.Actions...); v != nil {
		p.Action = []string{*v}
	}
	p.AuthorID, p.ProjectID, p.GroupID = b.Int("author_id"), b.Int("project_id"), b.Int("group_id")
	if v := b.Enum("state", todos.States...); v != nil {
		p.State = []string{*v}
	}
	if v := b.Enum("type", todos.Types...); v != nil {
		p.Type = []string{*v}
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, v, err := h.todos.List(c.Request.Context(), httpx.Actor(c), p, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, res, httpx.P(c).Todos(res.Items, v))
}

// markDone handles POST /todos/:id/mark_as_done: 201 with the to-do.
func (h *handlers) markDone(c *gin.Context) error {
	t, v, err := h.todos.MarkDone(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Todo(t, v))
}

// markAllDone handles POST /todos/mark_as_done: 204.
func (h *handlers) markAllDone(c *gin.Context) error {
	if err := h.todos.MarkAllDone(c.Request.Context(), httpx.Actor(c)); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// markIssue handles POST /projects/:id/issues/:issue_iid/todo: 201 with the new to-do, 304
// when the caller already has a pending one on the issue.
func (h *handlers) markIssue(c *gin.Context) error {
	t, v, created, err := h.todos.MarkIssue(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"))
	return h.marked(c, t, v, created, err)
}

// markMergeRequest handles POST /projects/:id/merge_requests/:merge_request_iid/todo, as
// markIssue.
func (h *handlers) markMergeRequest(c *gin.Context) error {
	t, v, created, err := h.todos.MarkMergeRequest(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"))
	return h.marked(c, t, v, created, err)
}

// marked answers a POST .../todo: 201 with the new to-do, 304 when none was added.
func (h *handlers) marked(c *gin.Context, t *ent.Todo, v *todos.View, created bool, err error) error {
	if err != nil {
		return err
	}
	if !created {
		c.Status(http.StatusNotModified)
		c.Writer.WriteHeaderNow()
		return nil
	}
	return httpx.Created(c, httpx.P(c).Todo(t, v))
}

// userCounts handles GET /user_counts.
func (h *handlers) userCounts(c *gin.Context) error {
	counts, err := h.todos.UserCounts(c.Request.Context(), httpx.Actor(c))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).UserCounts(counts))
}
