package refs

import (
	"anvil/internal/apperr"
	"anvil/internal/pagination"
)

// Page is how a ref listing is paged: by offset (page, per_page, with totals), or by keyset
// (pagination=keyset), where page_token names the last ref of the previous page and the next
// page starts after it.
type Page struct {
	pagination.Offset
	Keyset    bool
	PageToken string
}

// Paginate cuts one page out of items, in their order. Offset pages count every item. Keyset
// pages start after the item named PageToken (422 "Invalid page token: <prefix><token>" when
// none has that name, as Gitaly refuses an unknown token) and carry the next page_token when
// the page is full. prefix is the refs/... namespace the token is named in.
func Paginate[T any](items []T, name func(T) string, page Page, prefix string) (pagination.Result[T], error) {
	res := pagination.Result[T]{Page: page.Offset, Total: -1}
	if !page.Keyset {
		res.Total = len(items)
		start := min(page.Skip(), len(items))
		end := min(start+page.Limit(), len(items))
		res.Items = items[start:end]
		return res, nil
	}
	start := 0
	if page.PageToken != "" {
		start = -1
		for i, it := range items {
			if name(it) == page.PageToken {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return res, apperr.Unprocessable("Invalid page token: " + prefix + page.PageToken)
		}
	}
	end := min(start+page.PerPage, len(items))
	res.Items = items[start:end]
	if len(res.Items) == page.PerPage && len(res.Items) > 0 {
		res.Next = map[string]string{"page_token": name(res.Items[len(res.Items)-1])}
	}
	return res, nil
}
