package memberapi

import (
	"anvil/internal/pagination"
	"anvil/internal/service/members"
	"anvil/rest/httpx"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// listParams binds the list parameters shared by the direct and /all listings.
func (h *handlers) listParams(c *gin.Context, all bool) (members.ListParams, pagination.Offset, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return members.ListParams{}, pagination.Offset{}, err
	}
	p := members.ListParams{
		Source:       h.ref(c),
		Query:        b.StringDefault("query", ""),
		UserIDs:      b.Ints("user_ids"),
		ShowSeatInfo: b.BoolDefault("show_seat_info", false),
	}
	if all {
		if s := b.Enum("state", "awaiting", "active"); s != nil {
			p.State = *s
		}
	} else {
		p.SkipUsers = b.Ints("skip_users")
	}
	if len(p.UserIDs) == 0 {
		p.UserIDs = nil // an empty user_ids is no filter, as in GitLab
	}
	page := httpx.Offset(b)
	return p, page, b.Err()
}

// list handles GET /groups/:id/members and GET /projects/:id/members.
func (h *handlers) list(c *gin.Context) error {
	p, page, err := h.listParams(c, false)
	if err != nil {
		return err
	}
	r, err := h.members.List(c.Request.Context(), httpx.Actor(c), p, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, present(c, r.Items))
}

// listAll handles GET /groups/:id/members/all and GET /projects/:id/members/all.
func (h *handlers) listAll(c *gin.Context) error {
	p, page, err := h.listParams(c, true)
	if err != nil {
		return err
	}
	r, err := h.members.ListAll(c.Request.Context(), httpx.Actor(c), p, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, present(c, r.Items))
}

// get handles GET /groups/:id/members/:user_id and GET /projects/:id/members/:user_id.
func (h *handlers) get(c *gin.Context) error {
	uid, err := userID(c)
	if err != nil {
		return err
	}
	seat, err := showSeatInfo(c)
	if err != nil {
		return err
	}
	e, err := h.members.Get(c.Request.Context(), httpx.Actor(c), h.ref(c), uid, seat)
	if err != nil {
		return err
	}
	return httpx.OK(c, presentOne(c, e))
}

// getAll handles GET /groups/:id/members/all/:user_id and GET /projects/:id/members/all/:user_id.
func (h *handlers) getAll(c *gin.Context) error {
	uid, err := userID(c)
	if err != nil {
		return err
	}
	seat, err := showSeatInfo(c)
	if err != nil {
		return err
	}
	e, err := h.members.GetAll(c.Request.Context(), httpx.Actor(c), h.ref(c), uid, seat)
	if err != nil {
		return err
	}
	return httpx.OK(c, presentOne(c, e))
}

// showSeatInfo binds show_seat_info, which GitLab honours on the single-member routes too.
func showSeatInfo(c *gin.Context) (bool, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return false, err
	}
	seat := b.BoolDefault("show_seat_info", false)
	return seat, b.Err()
}

// present renders member entries; administrators see emails.
func present(c *gin.Context, entries []*members.Entry) []*presenter.Member {
	out := make([]*presenter.Member, 0, len(entries))
	for _, e := range entries {
		out = append(out, presentOne(c, e))
	}
	return out
}

func presentOne(c *gin.Context, e *members.Entry) *presenter.Member {
	return httpx.P(c).Member(e.Member, presenter.MemberView{
		User: e.User, AccessLevel: e.AccessLevel, CreatedBy: e.CreatedBy, UsingSeat: e.UsingSeat,
		ShowEmail: members.ShowEmail(httpx.Actor(c)),
	})
}
