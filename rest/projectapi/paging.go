package projectapi

import (
	"net/http"
	"strconv"

	"anvil/internal/apperr"
	"anvil/internal/service/projects"
	"anvil/rest/httpx"
	"anvil/rest/params"
)

// maxOffset is GitLab's default plan limit offset_pagination_limit: offset pages of types that
// support keyset pagination stop there.
const maxOffset = 50000

// bindPage reads the pagination strategy of GET /projects and GET /users/:id/projects:
// pagination=keyset needs order_by=id, and offset pages may not reach past maxOffset. Both
// refusals are GitLab's 405s.
func bindPage(b *params.Binder, p projects.ListParams) (projects.Page, error) {
	page := projects.Page{Offset: httpx.Offset(b)}
	if err := b.Err(); err != nil {
		return page, err
	}
	if b.StringDefault("pagination", "") == "keyset" {
		if p.OrderBy != "id" {
			return page, notAllowed("Keyset pagination is not yet available for this type of request")
		}
		page.Keyset = true
		return page, nil
	}
	rawPage, rawPerPage := 1, 20
	if v := b.Int("page"); v != nil && *v > 0 {
		rawPage = *v
	}
	if v := b.Int("per_page"); v != nil && *v > 0 {
		rawPerPage = *v
	}
	if rawPage > maxOffset || rawPerPage > maxOffset || rawPage*rawPerPage > maxOffset {
		return page, notAllowed("Offset pagination has a maximum allowed offset of " + strconv.Itoa(maxOffset) +
			" for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.")
	}
	return page, nil
}

func notAllowed(msg string) error {
	e := apperr.BadParam(msg)
	e.Status = http.StatusMethodNotAllowed
	return e
}
