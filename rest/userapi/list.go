package userapi

import (
	"strings"

	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/users"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// listParams binds GET /users' filters.
func listParams(b *params.Binder) users.ListParams {
	p := users.ListParams{
		Username:           b.String("username"),
		Search:             b.StringDefault("search", ""),
		PublicEmail:        b.StringDefault("public_email", ""),
		Active:             b.BoolDefault("active", false),
		ExcludeActive:      b.BoolDefault("exclude_active", false),
		External:           b.BoolDefault("external", false),
		ExcludeExternal:    b.BoolDefault("exclude_external", false),
		Blocked:            b.BoolDefault("blocked", false),
		Humans:             b.BoolDefault("humans", false),
		ExcludeHumans:      b.BoolDefault("exclude_humans", false),
		ExcludeInternal:    b.BoolDefault("exclude_internal", false),
		WithoutProjectBots: b.BoolDefault("without_project_bots", false),
		CreatedAfter:       b.Time("created_after"),
		CreatedBefore:      b.Time("created_before"),
		ExternUID:          b.StringDefault("extern_uid", ""),
		Provider:           b.StringDefault("provider", ""),
		TwoFactor:          b.StringDefault("two_factor", ""),
		WithoutProjects:    b.BoolDefault("without_projects", false),
		Admins:             b.BoolDefault("admins", false),
		Auditors:           b.BoolDefault("auditors", false),
		SAMLProviderID:     b.Int("saml_provider_id"),
		SkipLDAP:           b.BoolDefault("skip_ldap", false),
		CustomAttributes:   b.Hash("custom_attributes"),
	}
	allOrNone(b, "extern_uid", "provider")
	return p
}

// allOrNone records Grape's all_or_none_of error when only some of names are given.
func allOrNone(b *params.Binder, names ...string) {
	given := 0
	for _, n := range names {
		if b.Has(n) {
			given++
		}
	}
	if given > 0 && given < len(names) {
		b.Fail(strings.Join(names, ", ") + " provide all or none of parameters")
	}
}

// listRequest is a bound GET /users request.
type listRequest struct {
	params users.ListParams
	order  users.Order
	page   pagination.Page
	load   users.Load
}

// bindList reads GET /users' parameters; errors name the parameter as Grape does.
func bindList(c *gin.Context, admin bool) (listRequest, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return listRequest{}, err
	}
	r := listRequest{params: listParams(b), load: users.LoadBasic}
	if by := b.Enum("order_by", users.OrderColumns...); by != nil {
		r.order.By = *by
	}
	if sort := b.Enum("sort", users.SortValues...); sort != nil {
		r.order.Sort = *sort
	}
	r.page = httpx.BindPage(b, "cursor")
	if admin {
		r.load = users.LoadAdmin
	}
	r.load.CustomAttributes = b.BoolDefault("with_custom_attributes", false)
	if err := b.Err(); err != nil || r.page.Keyset {
		return r, err
	}
	return r, httpx.CapOffset(b, "User")
}

// list handles GET /users: UserBasic entries for ordinary callers, the administrator view for
// administrators; offset pages, or keyset pages with pagination=keyset.
func (h *handlers) list(c *gin.Context) error {
	a := httpx.Actor(c)
	admin := authz.CanUser(a, nil, authz.AdminUsers)
	req, err := bindList(c, admin)
	if err != nil {
		return err
	}
	r, err := h.users.List(c.Request.Context(), a, req.params, req.order, req.page, req.load)
	if err != nil {
		return err
	}
	httpx.SetPage(c, httpx.P(c).BaseURL, r)
	if admin {
		return httpx.OK(c, httpx.P(c).UsersWithAdmin(r.Items))
	}
	return httpx.OK(c, httpx.P(c).UserBasics(r.Items))
}
