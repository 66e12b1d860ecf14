// Package storagemoveapi serves GitLab's project repository storage moves API:
// /project_repository_storage_moves and /projects/:id/repository_storage_moves
// (administrators only).
package storagemoveapi

import (
	"net/http"
	"strconv"

	"anvil/internal/apperr"
	"anvil/internal/service/storagemoves"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ moves *storagemoves.Service }

// Register adds the storage move routes.
func Register(t *route.Table) {
	h := &handlers{moves: t.S.StorageMoves}
	t.GET("/project_repository_storage_moves", h.list, route.AdminOnly)
	t.GET("/project_repository_storage_moves/:repository_storage_move_id", h.get, route.AdminOnly)
	t.POST("/project_repository_storage_moves", h.scheduleAll, route.AdminOnly)
	t.GET("/projects/:id/repository_storage_moves", h.list, route.AdminOnly)
	t.GET("/projects/:id/repository_storage_moves/:repository_storage_move_id", h.get, route.AdminOnly)
	t.POST("/projects/:id/repository_storage_moves", h.schedule, route.AdminOnly)
}

// list handles GET /project_repository_storage_moves and GET /projects/:id/repository_storage_moves.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, v, err := h.moves.List(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).StorageMoves(r.Items, v))
}

// get handles GET /project_repository_storage_moves/:repository_storage_move_id and
// GET /projects/:id/repository_storage_moves/:repository_storage_move_id.
func (h *handlers) get(c *gin.Context) error {
	id, err := strconv.Atoi(httpx.PathParam(c, "repository_storage_move_id"))
	if err != nil {
		return apperr.Invalid("repository_storage_move_id")
	}
	m, v, err := h.moves.Get(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), id)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).StorageMove(m, v))
}

// schedule handles POST /projects/:id/repository_storage_moves: 201 with the move as scheduled.
func (h *handlers) schedule(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	dest := b.String("destination_storage_name")
	if err := b.Err(); err != nil {
		return err
	}
	m, v, err := h.moves.Schedule(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), dest)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).StorageMove(m, v))
}

// scheduleAll handles POST /project_repository_storage_moves: a move for every project on
// source_storage_name, 202 {"message":"202 Accepted"}.
func (h *handlers) scheduleAll(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("source_storage_name")
	names := h.moves.Storages()
	source := b.Enum("source_storage_name", names...)
	dest := b.Enum("destination_storage_name", names...)
	if err := b.Err(); err != nil {
		return err
	}
	if err := h.moves.ScheduleAll(c.Request.Context(), httpx.Actor(c), *source, dest); err != nil {
		return err
	}
	httpx.JSON(c, http.StatusAccepted, gin.H{"message": "202 Accepted"})
	return nil
}
