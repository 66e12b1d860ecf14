package userapi

import (
	"context"
	"net/http"

	"anvil/internal/authz"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// transition is a state change of the user service: changed tells whether the state moved.
type transition func(ctx context.Context, actor *authz.Actor, id int) (changed bool, err error)

// stateChange answers a state change as GitLab does: 201 with the JSON body true when the
// state moved, else unchanged (null for block and deactivate, whose endpoints stop early;
// false for unblock, whose transition fails; true for activate, ban and unban).
func stateChange(op transition, unchanged any) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		id, err := httpx.PathInt(c, "id", "User")
		if err != nil {
			return err
		}
		changed, err := op(c.Request.Context(), httpx.Actor(c), id)
		if err != nil {
			return err
		}
		if changed {
			httpx.JSON(c, http.StatusCreated, true)
		} else {
			httpx.JSON(c, http.StatusCreated, unchanged)
		}
		return nil
	}
}

// block handles POST /users/:id/block.
func (h *handlers) block(c *gin.Context) error { return stateChange(h.users.Block, nil)(c) }

// unblock handles POST /users/:id/unblock.
func (h *handlers) unblock(c *gin.Context) error { return stateChange(h.users.Unblock, false)(c) }

// activate handles POST /users/:id/activate.
func (h *handlers) activate(c *gin.Context) error { return stateChange(h.users.Activate, true)(c) }

// deactivate handles POST /users/:id/deactivate.
func (h *handlers) deactivate(c *gin.Context) error {
	return stateChange(h.users.Deactivate, nil)(c)
}

// ban handles POST /users/:id/ban.
func (h *handlers) ban(c *gin.Context) error { return stateChange(h.users.Ban, true)(c) }

// unban handles POST /users/:id/unban.
func (h *handlers) unban(c *gin.Context) error { return stateChange(h.users.Unban, true)(c) }
