package httpx

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"anvil/internal/pagination"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// maxPage bounds the page number so that (page-1)*per_page cannot overflow into a negative
// offset (which SQLite reads as 0, serving page 1 again, and PostgreSQL refuses). Any page this
// far out is past the end of every table, so the answer does not change.
const maxPage = 1 << 31

// Offset reads page and per_page. Non-integers are 400 "<param> is invalid"; per_page=0 is
// rejected as Grape does; values above 100 are clamped; page < 1 is page 1.
func Offset(b *params.Binder) pagination.Offset {
	page, perPage := 1, pagination.DefaultPerPage
	if p := b.Int("page"); p != nil {
		page = min(*p, maxPage)
	}
	if pp := b.Int("per_page"); pp != nil {
		if *pp == 0 {
			b.Fail("per_page does not have a valid value")
		}
		perPage = *pp
	}
	return pagination.NewOffset(page, perPage)
}

// BindPage reads the page request of a list: pagination=keyset continued by the parameter
// param, or an offset page (page, per_page). param "cursor" is decoded; one that does not
// decode is kept as an empty position, which the list refuses (400 "cursor is invalid") once it
// has checked the order. Another name (page_token, last) is kept as sent, under its name; ""
// means the continuation is one of the list's filters (id_after, id_before).
func BindPage(b *params.Binder, param string) pagination.Page {
	off := Offset(b)
	if b.StringDefault("pagination", "") != "keyset" {
		return pagination.Page{Offset: off}
	}
	page := pagination.KeysetAt(nil, off.PerPage)
	v := ""
	if param != "" {
		v = b.StringDefault(param, "")
	}
	switch {
	case v == "":
	case param == "cursor":
		m, ok := pagination.DecodeCursor(v)
		if !ok || m == nil {
			m = map[string]string{}
		}
		page.Cursor = m
	default:
		page.Cursor = map[string]string{param: v}
	}
	return page
}

// MaxOffset is GitLab's default plan limit offset_pagination_limit: offset pages of the types
// it caps stop there, and the rest is reached through keyset pagination.
const MaxOffset = 50000

// CapOffset refuses, with GitLab's 405, an offset page of objects of kind ("Project", "Group",
// "User") reaching past MaxOffset. It reads the raw page and per_page, before per_page is
// clamped to 100, as GitLab does.
func CapOffset(b *params.Binder, kind string) error {
	page, perPage := 1, pagination.DefaultPerPage
	if v := b.Int("page"); v != nil && *v > 0 {
		page = *v
	}
	if v := b.Int("per_page"); v != nil && *v > 0 {
		perPage = *v
	}
	if page > MaxOffset || perPage > MaxOffset || page*perPage > MaxOffset {
		return NotAllowed("Offset pagination has a maximum allowed offset of " + strconv.Itoa(MaxOffset) +
			" for requests that return objects of type " + kind + ". Remaining records can be retrieved using keyset pagination.")
	}
	return nil
}

// NotAllowed is GitLab's 405 {"error": msg} for a pagination request it does not serve.
func NotAllowed(msg string) error { return GrapeError(http.StatusMethodNotAllowed, msg) }

// SetPageHeaders is the offset writer under SetPage, for the one list whose service knows
// whether a next page exists without returning a full page (commit refs). It writes X-Total,
// X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page and Link for an offset page. total < 0 means not counted: totals and rel="last" are left out.
// A counted page past the last one has neither a previous nor a next page (Kaminari's
// out_of_range?), so clients walking backwards from it stop instead of looping.
func SetPageHeaders(c *gin.Context, base string, page pagination.Offset, total int, returned int) {
	h := c.Writer.Header()
	h.Set("X-Per-Page", strconv.Itoa(page.PerPage))
	h.Set("X-Page", strconv.Itoa(page.Page))
	next := ""
	hasNext, hasPrev := false, page.Page > 1
	if total >= 0 {
		pages := max(1, (total+page.PerPage-1)/page.PerPage)
		h.Set("X-Total", strconv.Itoa(total))
		h.Set("X-Total-Pages", strconv.Itoa(pages))
		hasNext = page.Page < pages
		hasPrev = hasPrev && page.Page <= pages
	} else {
		hasNext = returned >= page.PerPage
	}
	if hasNext {
		next = strconv.Itoa(page.Page + 1)
	}
	h.Set("X-Next-Page", next)
	prev := ""
	if hasPrev {
		prev = strconv.Itoa(page.Page - 1)
	}
	h.Set("X-Prev-Page", prev)
	var links []string
	if hasPrev {
		links = append(links, link(c, base, page.Page-1, page.PerPage, "prev"))
	}
	if hasNext {
		links = append(links, link(c, base, page.Page+1, page.PerPage, "next"))
	}
	links = append(links, link(c, base, 1, page.PerPage, "first"))
	if total >= 0 {
		links = append(links, link(c, base, max(1, (total+page.PerPage-1)/page.PerPage), page.PerPage, "last"))
	}
	h.Set("Link", strings.Join(links, ", "))
}

// Page writes the headers of a page result and renders items: the one way a list answers.
func Page[T any](c *gin.Context, base string, r pagination.Result[T], items any) error {
	SetPage(c, base, r)
	return OK(c, items)
}

// SetPage writes the headers of a page result: Link rel="next" for a keyset page, the offset
// headers otherwise.
func SetPage[T any](c *gin.Context, base string, r pagination.Result[T]) {
	if r.Keyset {
		setKeysetLink(c, base, r.Next)
		return
	}
	SetPageHeaders(c, base, r.Page, r.Total, len(r.Items))
}

func link(c *gin.Context, base string, page, perPage int, rel string) string {
	return "<" + PageURL(c, base, map[string]string{"page": strconv.Itoa(page), "per_page": strconv.Itoa(perPage)}) + `>; rel="` + rel + `"`
}

// PageURL is the request URL on the external base with query parameters replaced by set.
// url.Values.Encode escapes commas, so clients that split Link on "," still parse it.
func PageURL(c *gin.Context, base string, set map[string]string) string {
	q := c.Request.URL.Query()
	for k, v := range set {
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
	}
	path := c.Request.URL.EscapedPath()
	return base + path + "?" + url.Values(q).Encode()
}

// setKeysetLink writes the keyset continuation: Link rel="next" only, absent on the last page.
func setKeysetLink(c *gin.Context, base string, next map[string]string) {
	if len(next) == 0 {
		return
	}
	c.Header("Link", "<"+PageURL(c, base, next)+`>; rel="next"`)
}
