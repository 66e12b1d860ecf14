package issueapi

import (
	"strconv"

	"anvil/internal/filter"
	"anvil/internal/service/issues"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

type kind int

const (
	kindGlobal kind = iota
	kindGroup
	kindProject
)

// parent is the list's project or group from the path.
func parent(c *gin.Context, k kind) issues.Parent {
	switch k {
	case kindGroup:
		return issues.Parent{GroupRef: httpx.PathParam(c, "id")}
	case kindProject:
		return issues.Parent{ProjectRef: httpx.PathParam(c, "id")}
	}
	return issues.Parent{}
}

// bindFilters reads the filters shared by lists and statistics, not[...] included.
func bindFilters(b *params.Binder) issues.ListParams {
	p := issues.ListParams{
		Search:       b.StringDefault("search", ""),
		In:           b.Strings("in"),
		Confidential: b.Bool("confidential"),
		Created:      filter.Range{After: b.Time("created_after"), Before: b.Time("created_before")},
		Updated:      filter.Range{After: b.Time("updated_after"), Before: b.Time("updated_before")},
	}
	if s := b.Enum("state", "opened", "closed", "all"); s != nil {
		p.State = *s
	}
	if s := b.Enum("scope", issues.Scopes...); s != nil {
		p.Scope = *s
	}
	if s := b.Enum("due_date", issues.DueDates...); s != nil {
		p.DueDate = *s
	}
	p.Labels.Is = parse(b, "labels", b.Strings("labels"), filter.Text, filter.None, filter.Any)
	p.Milestone.Is = parse(b, "milestone", one(b.String("milestone")), filter.Text, filter.None, filter.Any, filter.Upcoming, filter.Started)
	p.AuthorID.Is = parse(b, "author_id", one(b.String("author_id")), strconv.Atoi)
	p.AuthorUsername.Is = parse(b, "author_username", one(b.String("author_username")), filter.Text)
	p.AssigneeID.Is = parse(b, "assignee_id", one(b.String("assignee_id")), strconv.Atoi, filter.None, filter.Any)
	p.AssigneeUsername.Is = parse(b, "assignee_username", b.Strings("assignee_username"), filter.Text)
	p.MyReactionEmoji.Is = parse(b, "my_reaction_emoji", one(b.String("my_reaction_emoji")), filter.Text, filter.None, filter.Any)
	p.IIDs.Is = parse(b, "iids", b.Strings("iids"), strconv.Atoi)
	p.IssueType.Is = parse(b, "issue_type", one(b.Enum("issue_type", "issue", "incident", "test_case", "task")), filter.Text)
	if p.IIDs.Is.IsSet() && len(p.IIDs.Is.Values) == 0 {
		p.IIDs.Is = filter.Value[int]{} // an empty iids[] is no filter
	}
	if b.Has("not") {
		bindNot(b, &p)
	}
	return p
}

// bindNot reads not[...]: the same parameters, negated.
func bindNot(b *params.Binder, p *issues.ListParams) {
	sub, ok := b.Tree()["not"].(map[string]any)
	if !ok {
		b.Fail("not is invalid")
		return
	}
	n := params.NewBinder(params.Tree(sub), nil)
	p.Labels.Not = parse(n, "labels", n.Strings("labels"), filter.Text)
	p.Milestone.Not = parse(n, "milestone", one(n.String("milestone")), filter.Text, filter.Upcoming, filter.Started)
	p.AuthorID.Not = parse(n, "author_id", one(n.String("author_id")), strconv.Atoi)
	p.AuthorUsername.Not = parse(n, "author_username", one(n.String("author_username")), filter.Text)
	p.AssigneeID.Not = parse(n, "assignee_id", one(n.String("assignee_id")), strconv.Atoi)
	p.AssigneeUsername.Not = parse(n, "assignee_username", n.Strings("assignee_username"), filter.Text)
	p.MyReactionEmoji.Not = parse(n, "my_reaction_emoji", one(n.String("my_reaction_emoji")), filter.Text)
	p.IIDs.Not = parse(n, "iids", n.Strings("iids"), strconv.Atoi)
	p.IssueType.Not = parse(n, "issue_type", one(n.Enum("issue_type", "issue", "incident", "test_case", "task")), filter.Text)
	if err := n.Err(); err != nil {
		b.Fail("not is invalid")
	}
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

// list handles GET /issues, /groups/:id/issues and /projects/:id/issues.
func (h *handlers) list(k kind) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		p := bindFilters(b)
		if k == kindGroup {
			p.IncludeArchived = !b.BoolDefault("non_archived", true)
		}
		var o issues.Order
		if by := b.Enum("order_by", issues.OrderColumns...); by != nil {
			o.By = *by
		}
		if s := b.Enum("sort", "asc", "desc"); s != nil {
			o.Sort = *s
		}
		details := b.BoolDefault("with_labels_details", false)
		page := httpx.Offset(b)
		if err := b.Err(); err != nil {
			return err
		}
		r, err := h.issues.List(c.Request.Context(), httpx.Actor(c), parent(c, k), p, o, page)
		if err != nil {
			return err
		}
		return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Issues(r.Items, details))
	}
}

// statistics handles GET /issues_statistics and its group and project forms.
func (h *handlers) statistics(k kind) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		p := bindFilters(b)
		if k == kindGroup {
			p.IncludeArchived = !b.BoolDefault("non_archived", true)
		}
		if err := b.Err(); err != nil {
			return err
		}
		n, err := h.issues.Statistics(c.Request.Context(), httpx.Actor(c), parent(c, k), p)
		if err != nil {
			return err
		}
		return httpx.OK(c, gin.H{"statistics": gin.H{"counts": gin.H{"all": n.All, "closed": n.Closed, "opened": n.Opened}}})
	}
}
