package mergerequestapi

import (
	"strconv"
	"strings"

	"anvil/internal/filter"
	"anvil/internal/service/mergerequests"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// registerLists adds GET /merge_requests, /groups/:id/merge_requests and
// /projects/:id/merge_requests (a milestone's merge requests are milestoneapi's routes).
func (h *handlers) registerLists(t *route.Table) {
	t.GET("/merge_requests", h.list(kindGlobal))
	t.GET("/groups/:id/merge_requests", h.list(kindGroup))
	t.GET("/projects/:id/merge_requests", h.list(kindProject))
}

type kind int

const (
	kindGlobal kind = iota
	kindGroup
	kindProject
)

// parent is the list's project or group from the path.
func parent(c *gin.Context, k kind) mergerequests.Parent {
	switch k {
	case kindGroup:
		return mergerequests.Parent{GroupRef: httpx.PathParam(c, "id")}
	case kindProject:
		return mergerequests.Parent{ProjectRef: httpx.PathParam(c, "id")}
	}
	return mergerequests.Parent{}
}

// listOptions are the list's presentation parameters.
type listOptions struct {
	simple, labelDetails, recheck bool
}

// bindList reads the filters, the order and the presentation of a list, not[...] included.
func bindList(b *params.Binder, k kind) (mergerequests.ListParams, mergerequests.Order, listOptions) {
	p := mergerequests.ListParams{
		Search:   b.StringDefault("search", ""),
		In:       b.Strings("in"),
		Created:  filter.Range{After: b.Time("created_after"), Before: b.Time("created_before")},
		Updated:  filter.Range{After: b.Time("updated_after"), Before: b.Time("updated_before")},
		Deployed: filter.Range{After: b.Time("deployed_after"), Before: b.Time("deployed_before")},
	}
	p.Environment = b.String("environment")
	p.SourceProjectID = b.Int("source_project_id")
	if s := b.Enum("state", mergerequests.States...); s != nil {
		p.State = *s
	}
	if s := b.Enum("scope", mergerequests.Scopes...); s != nil {
		p.Scope = strings.ReplaceAll(*s, "-", "_")
	}
	if s := b.Enum("wip", "yes", "no"); s != nil {
		draft := *s == "yes"
		p.Draft = &draft
	}
	if s := b.Enum("approved", "yes", "no"); s != nil {
		approved := *s == "yes"
		p.Approved = &approved
	}
	bindNegatable(b, "", &p.Labels.Is, &p.Milestone.Is, &p.AuthorID.Is, &p.AuthorUsername.Is, &p.AssigneeID.Is,
		&p.AssigneeUsername.Is, &p.ReviewerID.Is, &p.ReviewerUsername.Is, &p.MyReactionEmoji.Is)
	exclusive(b, "", "merge_user_id", "merge_user_username")
	p.MergeUserID.Is = parse(b, "merge_user_id", one(b.String("merge_user_id")), strconv.Atoi)
	p.MergeUserUsername.Is = parse(b, "merge_user_username", one(b.String("merge_user_username")), filter.Text)
	exclusive(b, "", "approved_by_ids", "approved_by_usernames")
	p.ApprovedByIDs.Is = parse(b, "approved_by_ids", b.Strings("approved_by_ids"), strconv.Atoi, filter.None, filter.Any)
	p.ApprovedByUsernames.Is = parse(b, "approved_by_usernames", b.Strings("approved_by_usernames"), filter.Text, filter.None, filter.Any)
	p.ApproverIDs.Is = parse(b, "approver_ids", b.Strings("approver_ids"), strconv.Atoi, filter.None, filter.Any)
	if s := b.String("source_branch"); s != nil && *s != "" {
		p.SourceBranch.Is = filter.Of(*s)
	}
	if s := b.String("target_branch"); s != nil && *s != "" {
		p.TargetBranch.Is = filter.Of(*s)
	}
	if k == kindProject {
		p.IIDs.Is = parse(b, "iids", b.Strings("iids"), strconv.Atoi)
		if p.IIDs.Is.IsSet() && len(p.IIDs.Is.Values) == 0 {
			p.IIDs.Is = filter.Value[int]{} // an empty iids[] is no filter
		}
	}
	if k == kindGroup {
		p.IncludeArchived = !b.BoolDefault("non_archived", true)
	}
	if b.Has("not") {
		bindNot(b, &p)
	}
	var o mergerequests.Order
	if by := b.Enum("order_by", mergerequests.OrderColumns...); by != nil {
		o.By = *by
	}
	if s := b.Enum("sort", "asc", "desc"); s != nil {
		o.Sort = *s
	}
	opts := listOptions{
		simple:       b.Enum("view", "simple") != nil,
		labelDetails: b.BoolDefault("with_labels_details", false),
		recheck:      b.BoolDefault("with_merge_status_recheck", false),
	}
	return p, o, opts
}

// bindNegatable reads the parameters GitLab also accepts under not[...] (prefix "not[" there):
// the wildcards None and Any only outside it.
func bindNegatable(b *params.Binder, prefix string, labels, milestone *filter.Value[string], authorID *filter.Value[int],
	authorUsername *filter.Value[string], assigneeID *filter.Value[int], assigneeUsername *filter.Value[string],
	reviewerID *filter.Value[int], reviewerUsername *filter.Value[string], emoji *filter.Value[string]) {
	var wild, milestoneWild []filter.Wildcard
	if prefix == "" {
		wild = []filter.Wildcard{filter.None, filter.Any}
		milestoneWild = []filter.Wildcard{filter.None, filter.Any, filter.Upcoming, filter.Started}
	} else {
		milestoneWild = []filter.Wildcard{filter.Upcoming, filter.Started}
	}
	name := func(n string) string {
		if prefix == "" {
			return n
		}
		return prefix + n + "]"
	}
	exclusive(b, prefix, "author_id", "author_username")
	exclusive(b, prefix, "assignee_id", "assignee_username")
	exclusive(b, prefix, "reviewer_id", "reviewer_username")
	*labels = parse(b, name("labels"), b.Strings("labels"), filter.Text, wild...)
	*milestone = parse(b, name("milestone"), one(b.String("milestone")), filter.Text, milestoneWild...)
	*authorID = parse(b, name("author_id"), one(b.String("author_id")), strconv.Atoi)
	*authorUsername = parse(b, name("author_username"), one(b.String("author_username")), filter.Text)
	*assigneeID = parse(b, name("assignee_id"), one(b.String("assignee_id")), strconv.Atoi, wild...)
	*assigneeUsername = parse(b, name("assignee_username"), b.Strings("assignee_username"), filter.Text)
	*reviewerID = parse(b, name("reviewer_id"), one(b.String("reviewer_id")), strconv.Atoi, wild...)
	*reviewerUsername = parse(b, name("reviewer_username"), one(b.String("reviewer_username")), filter.Text)
	*emoji = parse(b, name("my_reaction_emoji"), one(b.String("my_reaction_emoji")), filter.Text, wild...)
}

// bindNot reads not[...]: the negatable parameters, negated.
func bindNot(b *params.Binder, p *mergerequests.ListParams) {
	sub, ok := b.Tree()["not"].(map[string]any)
	if !ok {
		b.Fail("not is invalid")
		return
	}
	n := params.NewBinder(params.Tree(sub), nil)
	bindNegatable(n, "not[", &p.Labels.Not, &p.Milestone.Not, &p.AuthorID.Not, &p.AuthorUsername.Not, &p.AssigneeID.Not,
		&p.AssigneeUsername.Not, &p.ReviewerID.Not, &p.ReviewerUsername.Not, &p.MyReactionEmoji.Not)
	if err := n.Err(); err != nil {
		b.Fail(err.Error())
	}
}

// exclusive records Grape's "a, b are mutually exclusive" when both parameters are given.
func exclusive(b *params.Binder, prefix, a, c string) {
	if !b.Has(a) || !b.Has(c) {
		return
	}
	if prefix != "" {
		a, c = prefix+a+"]", prefix+c+"]"
	}
	b.Fail(a + ", " + c + " are mutually exclusive")
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

// list handles GET /merge_requests, /groups/:id/merge_requests and /projects/:id/merge_requests.
func (h *handlers) list(k kind) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		p, o, opts := bindList(b, k)
		page := httpx.Offset(b)
		if err := b.Err(); err != nil {
			return err
		}
		r, err := h.mrs.List(c.Request.Context(), httpx.Actor(c), parent(c, k), p, o, page)
		if err != nil {
			return err
		}
		if opts.simple {
			return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequestsSimple(r.Items))
		}
		return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequests(r.Items, presenter.MergeRequestOptions{LabelDetails: opts.labelDetails}))
	}
}
