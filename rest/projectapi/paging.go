package projectapi

import (
	"anvil/internal/service/projects"
	"anvil/rest/httpx"
	"anvil/rest/params"
)

// bindPage reads the pagination strategy of GET /projects and GET /users/:id/projects:
// pagination=keyset needs order_by=id, and offset pages may not reach past httpx.MaxOffset. Both
// refusals are GitLab's 405s.
func bindPage(b *params.Binder, p projects.ListParams) (projects.Page, error) {
	page := projects.Page{Offset: httpx.Offset(b)}
	if err := b.Err(); err != nil {
		return page, err
	}
	if b.StringDefault("pagination", "") == "keyset" {
		if p.OrderBy != "id" {
			return page, httpx.NotAllowed("Keyset pagination is not yet available for this type of request")
		}
		page.Keyset = true
		return page, nil
	}
	return page, httpx.CapOffset(b, "Project")
}
