package userapi

import (
	"time"

	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// activities handles GET /user/activities: users active since from (a date or datetime,
// six months ago by default), administrators only.
func (h *handlers) activities(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	from := time.Now().UTC().AddDate(0, -6, 0)
	if t := b.Time("from"); t != nil {
		from = *t
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.users.Activities(c.Request.Context(), httpx.Actor(c), from, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).UserActivities(r.Items))
}
