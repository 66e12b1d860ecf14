package issueapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueListLabelsAllOf: labels=a,b keeps the issues having a label of every title, where a
// title may name a project label and a group label at once (either one counts), in the project
// and group lists; and the list's X-Total whether it comes from the count or from a last page.
func TestIssueListLabelsAllOf(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	g := in.NewGroup(t, "lf", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	id := strconv.Itoa
	groupSev := in.DB.Client.Label.Create().SetTitle("sev").SetColor("#ff0000").SetGroupID(g.ID).SaveX(ctx)
	projectSev := in.DB.Client.Label.Create().SetTitle("sev").SetColor("#00ff00").SetProjectID(p.ID).SaveX(ctx)
	bug := in.DB.Client.Label.Create().SetTitle("bug").SetColor("#0000ff").SetGroupID(g.ID).SaveX(ctx)
	ui := in.DB.Client.Label.Create().SetTitle("ui").SetColor("#0000ff").SetGroupID(g.ID).SaveX(ctx)
	links := map[int][]int{ // iid -> label ids
		1: {groupSev.ID, bug.ID},
		2: {projectSev.ID, bug.ID, ui.ID},
		3: {bug.ID},
		4: {groupSev.ID, ui.ID},
		5: {},
	}
	for iid := 1; iid <= 5; iid++ {
		is := newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"issue " + id(iid)}})
		require.Equal(t, float64(iid), is["iid"])
		for _, l := range links[iid] {
			in.DB.Client.IssueLabel.Create().SetIssueID(int(is["id"].(float64))).SetLabelID(l).SaveX(ctx)
		}
	}
	for q, want := range map[string][]int{
		"labels=sev,bug":             {1, 2},
		"labels=bug,sev":             {1, 2},
		"labels=sev,ui":              {2, 4},
		"labels=sev,bug,ui":          {2},
		"labels=sev,sev":             {1, 2, 4},
		"labels=sev,nolabel":         {},
		"labels=bug,ui&state=closed": {},
		"labels=sev&not[labels]=ui":  {1},
	} {
		assert.Equal(t, want, iids(t, in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues?"+q, servertest.RootToken, nil)), "project: %s", q)
		assert.Equal(t, want, iids(t, in.Do(t, "GET", "/groups/"+id(g.ID)+"/issues?"+q, servertest.RootToken, nil)), "group: %s", q)
	}

	// X-Total: counted (a full page), from a last page that is not full, and counted past the end.
	for q, want := range map[string]struct {
		total string
		n     int
	}{
		"per_page=2":                {"5", 2},
		"per_page=2&page=3":         {"5", 1},
		"per_page=5":                {"5", 5},
		"per_page=10":               {"5", 5},
		"per_page=2&page=4":         {"5", 0},
		"labels=sev,bug&per_page=1": {"2", 1},
		"labels=sev,nolabel":        {"0", 0},
	} {
		r := in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues?"+q, servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, want.total, r.Header.Get("X-Total"), q)
		assert.Len(t, decode[[]map[string]any](t, r), want.n, q)
	}
}
