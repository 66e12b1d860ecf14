package mergerequestapi_test

import (
	"context"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
)

// TestMilestoneMergeRequests: GET .../milestones/:milestone_id/merge_requests lists the
// milestone's merge requests (a group milestone's in the group's own projects only), by label
// priority, with the page headers; a project whose merge requests the caller may not read
// lists none.
func TestMilestoneMergeRequests(t *testing.T) {
	w := newListWorld(t)
	in, ctx := w.in, context.Background()
	sub := in.NewGroup(t, "sub", "public", w.g)
	deep := in.NewProject(t, sub, "deep", "public")
	seedMR(t, in, deep, listMR{title: "Deep", author: w.alice, milestone: w.v0})
	seedMR(t, in, w.p, listMR{title: "Also v1", author: w.bob, milestone: w.v1, labels: []*ent.Label{w.ui}})

	project := "/projects/" + strconv.Itoa(w.p.ID) + "/milestones/" + strconv.Itoa(w.v1.ID) + "/merge_requests"
	r := in.Do(t, "GET", project, "", nil)
	assert.Equal(t, []string{"Login fix", "Also v1"}, listTitles(t, r), "the prioritized label first")
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	first := servertest.List(t, r)[0]
	assert.Equal(t, []any{"bug", "ui"}, first["labels"])
	assert.Equal(t, "v1", first["milestone"].(map[string]any)["title"])

	group := "/groups/" + strconv.Itoa(w.g.ID) + "/milestones/" + strconv.Itoa(w.v0.ID) + "/merge_requests"
	assert.Equal(t, []string{"Draft: Docs typo"}, listTitles(t, in.Do(t, "GET", group, "", nil)), "not the subgroup's")

	// An unknown milestone is 404 Not found (GitLab's find raising RecordNotFound).
	servertest.RequireError(t, in.Do(t, "GET", "/projects/"+strconv.Itoa(w.p.ID)+"/milestones/999999/merge_requests", "", nil),
		404, "message", "404 Not found")
	// Merge requests private to members: the milestone reads, its merge requests do not.
	in.DB.Client.Project.UpdateOneID(w.p.ID).SetMergeRequestsAccessLevel("private").ExecX(ctx)
	_, stranger := in.NewUser(t, "stranger")
	assert.Equal(t, []string{}, listTitles(t, in.Do(t, "GET", project, stranger, nil)))
	assert.Equal(t, []string{"Login fix", "Also v1"}, listTitles(t, in.Do(t, "GET", project, w.atok, nil)))
}
