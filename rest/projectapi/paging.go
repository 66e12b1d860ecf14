package projectapi

import (
	"anvil/internal/pagination"
	"anvil/internal/service/projects"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"
)

// ListRequest is a bound project listing: the filters, the order, the page and the shape.
type ListRequest struct {
	Params  projects.ListParams
	Order   projects.Order
	Page    pagination.Page
	Simple  bool
	Options presenter.ProjectOptions
}

// BindList reads the parameters every project listing shares (GET /projects,
// /users/:id/projects, /users/:id/starred_projects, /groups/:id/projects, /projects/:id/forks):
// the filters, order_by and sort, the page, simple and the shape options, so that they are
// bound in one place. With strategies (every listing but a group's) the page follows GitLab's
// pagination strategies: pagination=keyset walks the id order only (405 "Keyset pagination is
// not yet available for this type of request" for any other order_by, the default created_at
// included), and offset pages may not reach past httpx.MaxOffset (405). Without, pages are
// plain offset pages.
func BindList(b *params.Binder, strategies bool) (ListRequest, error) {
	r := ListRequest{Params: bindFilters(b), Order: projects.Order{
		By: stringOf(b.Enum("order_by", projects.Orders...)), Sort: b.StringDefault("sort", "desc"),
	}}
	b.Enum("sort", "asc", "desc")
	r.Simple, r.Options = b.BoolDefault("simple", false), BindOptions(b)
	if strategies {
		r.Page = httpx.BindPage(b, "")
	} else {
		r.Page = pagination.Page{Offset: httpx.Offset(b)}
	}
	if err := b.Err(); err != nil || !strategies {
		return r, err
	}
	if r.Page.Keyset {
		if r.Order.By != projects.KeysetOrder {
			return r, httpx.NotAllowed(projects.KeysetUnavailableMessage)
		}
		return r, nil
	}
	return r, httpx.CapOffset(b, "Project")
}
