package refs

import (
	"anvil/internal/apperr"
	"anvil/internal/pagination"
)

// PageToken is the parameter a keyset page of refs continues after (pagination.Page.Cursor):
// the name of the previous page's last ref.
const PageToken = "page_token"

// Paginate cuts one page out of items, in their order. Offset pages count every item. Keyset
// pages start after the item named by the page's PageToken (422 "Invalid page token: <prefix><token>" when
// none has that name, as Gitaly refuses an unknown token) and carry the next page_token when
// the page is full. prefix is the refs/... namespace the token is named in.
func Paginate[T any](items []T, name func(T) string, page pagination.Page, prefix string) (pagination.Result[T], error) {
	res := pagination.Result[T]{Page: page.Offset, Total: -1, Keyset: page.Keyset}
	if !page.Keyset {
		res.Total = len(items)
		start := min(page.Skip(), len(items))
		end := min(start+page.Limit(), len(items))
		res.Items = items[start:end]
		return res, nil
	}
	start := 0
	if token := page.After(PageToken); token != "" {
		start = -1
		for i, it := range items {
			if name(it) == token {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return res, apperr.Unprocessable("Invalid page token: " + prefix + token)
		}
	}
	end := min(start+page.PerPage, len(items))
	res.Items = items[start:end]
	if len(res.Items) == page.PerPage && len(res.Items) > 0 {
		res.Next = map[string]string{PageToken: name(res.Items[len(res.Items)-1])}
	}
	return res, nil
}
