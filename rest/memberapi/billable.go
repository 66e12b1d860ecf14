package memberapi

import (
	"anvil/internal/service/members"
	"anvil/rest/httpx"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// billable handles GET /groups/:id/billable_members.
func (h *handlers) billable(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := members.BillableParams{Search: b.StringDefault("search", "")}
	if s := b.Enum("sort", members.BillableSorts...); s != nil {
		p.Sort = *s
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.members.Billable(c.Request.Context(), httpx.Actor(c), h.ref(c), p, page)
	if err != nil {
		return err
	}
	admin := members.ShowEmail(httpx.Actor(c))
	out := make([]*presenter.BillableMember, 0, len(r.Items))
	for _, m := range r.Items {
		out = append(out, httpx.P(c).BillableMember(m.User, m.MembershipType, m.Removable, m.IsLastOwner, admin))
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, out)
}

// billableMemberships handles GET /groups/:id/billable_members/:user_id/memberships.
func (h *handlers) billableMemberships(c *gin.Context) error {
	uid, err := userID(c)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.members.BillableMemberships(c.Request.Context(), httpx.Actor(c), h.ref(c), uid, page)
	if err != nil {
		return err
	}
	out := make([]*presenter.BillableMembership, 0, len(r.Items))
	for _, m := range r.Items {
		out = append(out, httpx.P(c).BillableMembership(m.Member, m.SourceKind == members.GroupKind, m.SourceID,
			m.SourceFullName, m.SourceFullPath, members.HumanAccess(m.Member.AccessLevel)))
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, out)
}

// removeBillable handles DELETE /groups/:id/billable_members/:user_id.
func (h *handlers) removeBillable(c *gin.Context) error {
	uid, err := userID(c)
	if err != nil {
		return err
	}
	if err := h.members.RemoveBillable(c.Request.Context(), httpx.Actor(c), h.ref(c), uid); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
