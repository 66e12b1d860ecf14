package epicapi

import (
	"strconv"
	"strings"

	"anvil/internal/filter"
	"anvil/internal/service/epics"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// bindList reads the filters of GET /groups/:id/epics, not[...] included.
func bindList(b *params.Binder) (epics.ListParams, epics.Order) {
	p := epics.ListParams{
		Search:                  b.StringDefault("search", ""),
		Confidential:            b.Bool("confidential"),
		Created:                 filter.Range{After: b.Time("created_after"), Before: b.Time("created_before")},
		Updated:                 filter.Range{After: b.Time("updated_after"), Before: b.Time("updated_before")},
		IncludeAncestorGroups:   b.BoolDefault("include_ancestor_groups", false),
		ExcludeDescendantGroups: !b.BoolDefault("include_descendant_groups", true),
	}
	if s := b.Enum("state", "opened", "closed", "all"); s != nil {
		p.State = *s
	}
	p.Labels.Is = parse(b, "labels", labelList(b, "labels"), filter.Text, filter.None, filter.Any)
	p.AuthorID.Is, p.AuthorUsername.Is = bindAuthor(b, "")
	p.MyReactionEmoji.Is = parse(b, "my_reaction_emoji", optional(b.String("my_reaction_emoji")), filter.Text, filter.None, filter.Any)
	if b.Has("not") {
		sub, ok := b.Tree()["not"].(map[string]any)
		if !ok {
			b.Fail("not is invalid")
		} else {
			n := params.NewBinder(params.Tree(sub), nil)
			p.Labels.Not = parse(n, "labels", labelList(n, "labels"), filter.Text)
			p.AuthorID.Not, p.AuthorUsername.Not = bindAuthor(n, "not[")
			p.MyReactionEmoji.Not = parse(n, "my_reaction_emoji", optional(n.String("my_reaction_emoji")), filter.Text)
			if err := n.Err(); err != nil {
				b.Fail(err.Error())
			}
		}
	}
	var o epics.Order
	if by := b.Enum("order_by", epics.OrderColumns...); by != nil {
		o.By = *by
	}
	if s := b.Enum("sort", "asc", "desc"); s != nil {
		o.Sort = *s
	}
	return p, o
}

// bindAuthor reads author_id and author_username, which exclude each other.
func bindAuthor(b *params.Binder, prefix string) (filter.Value[int], filter.Value[string]) {
	if b.Has("author_id") && b.Has("author_username") {
		name := func(n string) string {
			if prefix == "" {
				return n
			}
			return prefix + n + "]"
		}
		b.Fail(name("author_id") + ", " + name("author_username") + " are mutually exclusive")
	}
	id := parse(b, "author_id", one(b.String("author_id")), strconv.Atoi)
	username := parse(b, "author_username", one(b.String("author_username")), filter.Text)
	return id, username
}

// labelList reads a label list: an array or a comma-separated string, each element split at
// commas too (Grape's CommaSeparatedToArray); nil when absent.
func labelList(b *params.Binder, name string) []string {
	if !b.Has(name) {
		return nil
	}
	out := []string{}
	for _, s := range b.Strings(name) {
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

func one(s *string) []string {
	if s == nil {
		return nil
	}
	return []string{*s}
}

// parse is filter.Parse with Grape's "<name> is invalid" for a refused value.
func parse[T any](b *params.Binder, name string, raw []string, convert func(string) (T, error), allowed ...filter.Wildcard) filter.Value[T] {
	v, err := filter.Parse(raw, convert, allowed...)
	if err != nil {
		b.Fail(name + " is invalid")
	}
	return v
}

// list handles GET /groups/:id/epics.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p, o := bindList(b)
	details := b.BoolDefault("with_labels_details", false)
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.epics.List(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p, o, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r.Result, httpx.P(c).Epics(r, presenter.EpicOptions{LabelDetails: details}))
}

// optional is a single-valued parameter as the list parse takes: none when absent.
func optional(v *string) []string {
	if v == nil {
		return nil
	}
	return []string{*v}
}
