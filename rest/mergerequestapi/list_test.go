package mergerequestapi_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/mergerequest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listWorld is the fixture of the filter tests: a public project of a public group with four
// merge requests, one per state, spread over labels, milestones, people and branches.
type listWorld struct {
	in                *servertest.Instance
	g                 *ent.Namespace
	p, fork           *ent.Project
	root, alice, bob  *ent.User
	carol             *ent.User
	atok              string
	bug, ui           *ent.Label
	v1, v0            *ent.Milestone
	past, future, now time.Time
}

func newListWorld(t *testing.T) *listWorld {
	in := servertest.Start(t)
	ctx := context.Background()
	w := &listWorld{in: in, root: rootUser(t, in)}
	w.g = in.NewGroup(t, "f", "public", nil)
	w.p = in.NewProject(t, w.g, "app", "public")
	w.fork = in.NewProject(t, w.g, "fork", "public")
	w.alice, w.atok = in.NewUser(t, "alice")
	w.bob, _ = in.NewUser(t, "bob")
	w.carol, _ = in.NewUser(t, "carol")
	for _, u := range []*ent.User{w.alice, w.bob, w.carol} {
		in.AddGroupMember(t, w.g, u, 30)
	}
	w.now = time.Now().UTC().Truncate(time.Second)
	w.past, w.future = w.now.AddDate(0, 0, -3), w.now.AddDate(0, 1, 0)
	c := in.DB.Client
	w.bug = c.Label.Create().SetTitle("bug").SetColor("#ff0000").SetPriority(1).SetProjectID(w.p.ID).SaveX(ctx)
	w.ui = c.Label.Create().SetTitle("ui").SetColor("#00ff00").SetProjectID(w.p.ID).SaveX(ctx)
	w.v1 = c.Milestone.Create().SetTitle("v1").SetIid(1).SetProjectID(w.p.ID).SetDueDate(w.future).SaveX(ctx)
	w.v0 = c.Milestone.Create().SetTitle("v0").SetIid(1).SetGroupID(w.g.ID).SetStartDate(w.past).SaveX(ctx)

	seedMR(t, in, w.p, listMR{title: "Login fix", author: w.alice, labels: []*ent.Label{w.bug, w.ui},
		assignees: []*ent.User{w.bob}, reviewers: []*ent.User{w.carol}, milestone: w.v1, source: "fix-login",
		awards: map[*ent.User][]string{w.root: {"rocket"}}, createdAt: w.now.Add(-4 * time.Hour)})
	seedMR(t, in, w.p, listMR{title: "Crash fix", description: "stack trace", author: w.bob, labels: []*ent.Label{w.bug},
		state: mergerequest.StateMerged, mergedBy: w.carol, mergedAt: w.now.Add(-time.Hour), source: "crash", target: "stable",
		approvers: []*ent.User{w.alice, w.carol}, createdAt: w.now.Add(-3 * time.Hour)})
	seedMR(t, in, w.p, listMR{title: "Draft: Docs typo", description: "a crash course", author: w.alice, draft: true,
		assignees: []*ent.User{w.alice}, reviewers: []*ent.User{w.bob}, milestone: w.v0, state: mergerequest.StateClosed,
		approvers: []*ent.User{w.alice}, awards: map[*ent.User][]string{w.root: {"thumbsup"}, w.bob: {"thumbsup"}},
		createdAt: w.now.Add(-2 * time.Hour)})
	seedMR(t, in, w.p, listMR{title: "Outage", author: w.root, state: mergerequest.StateLocked, source: "hotfix",
		sourceProject: w.fork.ID, mergeUserWhenAutoMerge: w.alice, createdAt: w.now.Add(-time.Hour)})
	return w
}

// TestMergeRequestListFilters: each filter of the merge request lists alone, with None/Any and
// under not[...], in the project, group and global lists.
func TestMergeRequestListFilters(t *testing.T) {
	w := newListWorld(t)
	in, id := w.in, strconv.Itoa
	ts := func(tm time.Time) string { return url.QueryEscape(tm.Format(time.RFC3339)) }
	alice, bob, carol := id(w.alice.ID), id(w.bob.ID), id(w.carol.ID)

	cases := []struct {
		query string
		want  []int
	}{
		{"", []int{1, 2, 3, 4}},
		{"state=opened", []int{1}},
		{"state=closed", []int{3}},
		{"state=merged", []int{2}},
		{"state=locked", []int{4}},
		{"state=all", []int{1, 2, 3, 4}},
		{"labels=bug", []int{1, 2}},
		{"labels=bug,ui", []int{1}},
		{"labels=ui,bug", []int{1}},
		{"labels[]=bug&labels[]=ui", []int{1}},
		{"labels=bug,nolabel", []int{}},
		{"labels=nolabel", []int{}},
		{"labels=None", []int{3, 4}},
		{"labels=none", []int{3, 4}},
		{"labels=ANY", []int{1, 2}},
		{"not[labels]=ui", []int{2, 3, 4}},
		{"not[labels]=bug,ui", []int{3, 4}},
		{"milestone=v1", []int{1}},
		{"milestone=v0", []int{3}},
		{"milestone=None", []int{2, 4}},
		{"milestone=Any", []int{1, 3}},
		{"milestone=Upcoming", []int{1}},
		{"milestone=Started", []int{3}},
		{"not[milestone]=v1", []int{2, 3, 4}},
		{"not[milestone]=Started", []int{1, 2, 4}},
		{"author_id=" + alice, []int{1, 3}},
		{"not[author_id]=" + alice, []int{2, 4}},
		{"author_username=bob", []int{2}},
		{"not[author_username]=bob", []int{1, 3, 4}},
		{"assignee_id=None", []int{2, 4}},
		{"assignee_id=Any", []int{1, 3}},
		{"assignee_id=" + bob, []int{1}},
		{"not[assignee_id]=" + bob, []int{2, 3, 4}},
		{"assignee_username=alice", []int{3}},
		{"assignee_username[]=alice", []int{3}},
		{"not[assignee_username]=alice", []int{1, 2, 4}},
		{"reviewer_id=None", []int{2, 4}},
		{"reviewer_id=any", []int{1, 3}},
		{"reviewer_id=" + carol, []int{1}},
		{"not[reviewer_id]=" + carol, []int{2, 3, 4}},
		{"reviewer_username=bob", []int{3}},
		{"reviewer_username=nobody", []int{}},
		{"not[reviewer_username]=bob", []int{1, 2, 4}},
		{"merge_user_id=" + carol, []int{2}},
		{"merge_user_username=carol", []int{2}},
		{"merge_user_username=alice", []int{}},
		{"approved_by_ids[]=" + alice, []int{2, 3}},
		{"approved_by_ids[]=" + alice + "&approved_by_ids[]=" + carol, []int{2}},
		{"approved_by_ids=None", []int{1, 4}},
		{"approved_by_ids=Any", []int{2, 3}},
		{"approved_by_usernames[]=carol", []int{2}},
		{"approved=yes", []int{2, 3}},
		{"approved=no", []int{1, 4}},
		{"approver_ids=None", []int{1, 2, 3, 4}},
		{"approver_ids=Any", []int{}},
		{"approver_ids[]=" + alice, []int{}},
		{"my_reaction_emoji=thumbsup", []int{3}},
		{"my_reaction_emoji=rocket", []int{1}},
		{"my_reaction_emoji=None", []int{2, 4}},
		{"my_reaction_emoji=Any", []int{1, 3}},
		{"not[my_reaction_emoji]=thumbsup", []int{1, 2, 4}},
		{"source_branch=crash", []int{2}},
		{"target_branch=stable", []int{2}},
		{"target_branch=main", []int{1, 3, 4}},
		{"source_project_id=" + id(w.fork.ID), []int{4}},
		{"wip=yes", []int{3}},
		{"wip=no", []int{1, 2, 4}},
		{"search=crash", []int{2, 3}},
		{"search=CRASH&in=title", []int{2}},
		{"search=crash&in=description", []int{3}},
		{"search=crash&in=title,description", []int{2, 3}},
		{"created_after=" + ts(w.future), []int{}},
		{"created_before=" + ts(w.now.Add(-3*time.Hour)), []int{1, 2}},
		{"created_after=" + ts(w.now.Add(-2*time.Hour)), []int{3, 4}},
		{"updated_after=" + ts(w.past), []int{1, 2, 3, 4}},
		{"updated_before=" + ts(w.past), []int{}},
		{"deployed_after=" + ts(w.past), []int{}},
		{"deployed_before=" + ts(w.future), []int{}},
		{"environment=production", []int{}},
		{"scope=created_by_me", []int{4}},
		{"scope=created-by-me", []int{4}},
		{"scope=assigned_to_me", []int{}},
		{"scope=assigned-to-me", []int{}},
		{"scope=all", []int{1, 2, 3, 4}},
		{"labels=bug&state=opened&milestone=v1", []int{1}},
		{"view=simple&labels=bug", []int{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			assert.Equal(t, c.want, listIIDs(t, in.Do(t, "GET", "/projects/"+id(w.p.ID)+"/merge_requests?"+c.query, servertest.RootToken, nil)), "project")
			assert.Equal(t, c.want, listIIDs(t, in.Do(t, "GET", "/groups/"+id(w.g.ID)+"/merge_requests?"+c.query, servertest.RootToken, nil)), "group")
			q := c.query
			if len(q) < 5 || q[:5] != "scope" {
				q += "&scope=all"
			}
			assert.Equal(t, c.want, listIIDs(t, in.Do(t, "GET", "/merge_requests?"+q, servertest.RootToken, nil)), "global")
		})
	}

	// iids[] belongs to the project list; the others ignore it, as GitLab declares it there only.
	p := "/projects/" + id(w.p.ID) + "/merge_requests"
	assert.Equal(t, []int{1, 3}, listIIDs(t, in.Do(t, "GET", p+"?iids[]=1&iids[]=3", servertest.RootToken, nil)))
	assert.Equal(t, []int{2}, listIIDs(t, in.Do(t, "GET", p+"?iids=2", servertest.RootToken, nil)))
	assert.Equal(t, []int{1, 2, 3, 4}, listIIDs(t, in.Do(t, "GET", "/groups/"+id(w.g.ID)+"/merge_requests?iids[]=1", servertest.RootToken, nil)))
	// The caller's own reactions and scope: alice's.
	assert.Equal(t, []int{1, 3}, listIIDs(t, in.Do(t, "GET", "/merge_requests", w.atok, nil)), "created_by_me by default")
	assert.Equal(t, []int{3}, listIIDs(t, in.Do(t, "GET", "/merge_requests?scope=assigned_to_me", w.atok, nil)))
	assert.Equal(t, []int{}, listIIDs(t, in.Do(t, "GET", p+"?my_reaction_emoji=Any", w.atok, nil)))
	// Anonymous callers have no reactions: the filter is ignored.
	assert.Equal(t, []int{1, 2, 3, 4}, listIIDs(t, in.Do(t, "GET", p+"?my_reaction_emoji=thumbsup", "", nil)))
}

// TestMergeRequestListOrderAndShape: order_by and sort, the page headers, view=simple and
// with_labels_details.
func TestMergeRequestListOrderAndShape(t *testing.T) {
	w := newListWorld(t)
	in := w.in
	p := "/projects/" + strconv.Itoa(w.p.ID) + "/merge_requests"
	get := func(q string) *servertest.Response { return in.Do(t, "GET", p+"?"+q, servertest.RootToken, nil) }
	for q, want := range map[string][]string{
		"":                                 {"Outage", "Draft: Docs typo", "Crash fix", "Login fix"},
		"sort=asc":                         {"Login fix", "Crash fix", "Draft: Docs typo", "Outage"},
		"order_by=title&sort=asc":          {"Crash fix", "Draft: Docs typo", "Login fix", "Outage"},
		"order_by=title":                   {"Outage", "Login fix", "Draft: Docs typo", "Crash fix"},
		"order_by=updated_at&sort=asc":     {"Login fix", "Crash fix", "Draft: Docs typo", "Outage"},
		"order_by=merged_at":               {"Crash fix", "Outage", "Draft: Docs typo", "Login fix"},
		"order_by=merged_at&sort=asc":      {"Crash fix", "Login fix", "Draft: Docs typo", "Outage"},
		"order_by=popularity":              {"Draft: Docs typo", "Outage", "Crash fix", "Login fix"},
		"order_by=label_priority&sort=asc": {"Crash fix", "Login fix", "Outage", "Draft: Docs typo"},
		"order_by=milestone_due&sort=asc":  {"Login fix", "Outage", "Draft: Docs typo", "Crash fix"},
		"order_by=priority&sort=asc":       {"Login fix", "Crash fix", "Outage", "Draft: Docs typo"},
	} {
		assert.Equal(t, want, listTitles(t, get(q)), q)
		// A filter that keeps every one: the list's total and page come from one statement
		// then (mergerequests.smallPage), in the same order.
		narrow := strings.TrimPrefix(q+"&created_after=2000-01-01T00:00:00Z", "&")
		assert.Equal(t, want, listTitles(t, get(narrow)), narrow)
	}
	// The same filtered list page by page, and past its end (the total then read apart).
	for page, want := range map[string][]string{"1": {"Outage", "Draft: Docs typo", "Crash fix"}, "2": {"Login fix"}, "3": {}} {
		r := get("created_after=2000-01-01T00:00:00Z&per_page=3&page=" + page)
		assert.Equal(t, want, listTitles(t, r), page)
		assert.Equal(t, "4", r.Header.Get("X-Total"), page)
	}

	// Offset pagination with GitLab's headers.
	r := get("per_page=3&page=1")
	assert.Equal(t, []string{"Outage", "Draft: Docs typo", "Crash fix"}, listTitles(t, r))
	assert.Equal(t, "4", r.Header.Get("X-Total"))
	assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
	assert.Equal(t, "3", r.Header.Get("X-Per-Page"))
	assert.Equal(t, "1", r.Header.Get("X-Page"))
	assert.Equal(t, "2", r.Header.Get("X-Next-Page"))
	assert.Equal(t, "", r.Header.Get("X-Prev-Page"))
	assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
	r = get("per_page=3&page=2")
	assert.Equal(t, []string{"Login fix"}, listTitles(t, r))
	assert.Equal(t, "1", r.Header.Get("X-Prev-Page"))

	// view=simple: the short shape only.
	r = get("view=simple&iids[]=1")
	simple := servertest.List(t, r)
	require.Len(t, simple, 1)
	assert.Equal(t, []string{"created_at", "description", "id", "iid", "project_id", "state", "title", "updated_at", "web_url"},
		servertest.Keys(simple[0]))
	assert.Equal(t, in.URL+"/f/app/-/merge_requests/1", simple[0]["web_url"])

	// Labels as titles, or as objects with with_labels_details.
	full := servertest.List(t, get("iids[]=1"))
	require.Len(t, full, 1)
	assert.Equal(t, []any{"bug", "ui"}, full[0]["labels"])
	assert.Equal(t, float64(0), full[0]["upvotes"], "a rocket is no vote")
	assert.Equal(t, float64(2), servertest.List(t, get("iids[]=3"))[0]["upvotes"])
	detailed := servertest.List(t, get("iids[]=1&with_labels_details=true"))
	require.Len(t, detailed, 1)
	labels := detailed[0]["labels"].([]any)
	require.Len(t, labels, 2)
	assert.Equal(t, "bug", labels[0].(map[string]any)["name"])
	assert.Equal(t, "#ff0000", labels[0].(map[string]any)["color"])
	// with_merge_status_recheck is accepted (GitLab gives no guarantee).
	assert.Equal(t, 200, get("with_merge_status_recheck=true").Status)
}

// TestMergeRequestListErrors: bad values and contradictory parameters are 400 naming them.
func TestMergeRequestListErrors(t *testing.T) {
	w := newListWorld(t)
	in := w.in
	for q, msg := range map[string]string{
		"state=open":                            "state does not have a valid value",
		"order_by=upvotes":                      "order_by does not have a valid value",
		"sort=up":                               "sort does not have a valid value",
		"scope=mine":                            "scope does not have a valid value",
		"view=full":                             "view does not have a valid value",
		"wip=maybe":                             "wip does not have a valid value",
		"approved=maybe":                        "approved does not have a valid value",
		"author_id=me":                          "author_id is invalid",
		"assignee_id=x":                         "assignee_id is invalid",
		"reviewer_id=x":                         "reviewer_id is invalid",
		"merge_user_id=x":                       "merge_user_id is invalid",
		"approved_by_ids=x":                     "approved_by_ids is invalid",
		"approver_ids[]=x":                      "approver_ids is invalid",
		"iids[]=a":                              "iids is invalid",
		"source_project_id=x":                   "source_project_id is invalid",
		"created_after=soon":                    "created_after is invalid",
		"updated_before=soon":                   "updated_before is invalid",
		"deployed_before=soon":                  "deployed_before is invalid",
		"with_labels_details=maybe":             "with_labels_details is invalid",
		"not[author_id]=me":                     "not[author_id] is invalid",
		"not[assignee_id]=None":                 "not[assignee_id] is invalid",
		"author_id=1&author_username=root":      "author_id, author_username are mutually exclusive",
		"assignee_id=1&assignee_username=root":  "assignee_id, assignee_username are mutually exclusive",
		"reviewer_id=1&reviewer_username=root":  "reviewer_id, reviewer_username are mutually exclusive",
		"merge_user_id=1&merge_user_username=a": "merge_user_id, merge_user_username are mutually exclusive",
		"approved_by_ids[]=1&approved_by_usernames[]=a":  "approved_by_ids, approved_by_usernames are mutually exclusive",
		"not[author_id]=1&not[author_username]=root":     "not[author_id], not[author_username] are mutually exclusive",
		"not[reviewer_id]=1&not[reviewer_username]=root": "not[reviewer_id], not[reviewer_username] are mutually exclusive",
		"not=1": "not is invalid",
	} {
		for _, path := range []string{"/projects/" + strconv.Itoa(w.p.ID) + "/merge_requests", "/groups/" + strconv.Itoa(w.g.ID) + "/merge_requests", "/merge_requests"} {
			if path != "/projects/"+strconv.Itoa(w.p.ID)+"/merge_requests" && q == "iids[]=a" {
				continue // only the project list reads iids
			}
			r := in.Do(t, "GET", path+"?"+q, servertest.RootToken, nil)
			servertest.RequireError(t, r, 400, "error", msg)
		}
	}
	// GET /merge_requests needs a signed-in user unless scope=all.
	r := in.Do(t, "GET", "/merge_requests", "", nil)
	servertest.RequireError(t, r, 401, "message", "401 Unauthorized")
	assert.Equal(t, []int{1, 2, 3, 4}, listIIDs(t, in.Do(t, "GET", "/merge_requests?scope=all", "", nil)))
	r = in.Do(t, "GET", "/merge_requests?scope=created_by_me", "", nil)
	assert.Equal(t, 401, r.Status)
	// Unknown parents.
	servertest.RequireError(t, in.Do(t, "GET", "/projects/999999/merge_requests", servertest.RootToken, nil), 404, "message", "404 Project Not Found")
	servertest.RequireError(t, in.Do(t, "GET", "/groups/999999/merge_requests", servertest.RootToken, nil), 404, "message", "404 Group Not Found")
	// A group's list leaves archived projects out unless non_archived=false; a project's keeps them.
	ctx := context.Background()
	in.DB.Client.Project.UpdateOneID(w.p.ID).SetArchived(true).ExecX(ctx)
	g := "/groups/" + strconv.Itoa(w.g.ID) + "/merge_requests"
	assert.Equal(t, []int{}, listIIDs(t, in.Do(t, "GET", g, servertest.RootToken, nil)))
	assert.Equal(t, []int{1, 2, 3, 4}, listIIDs(t, in.Do(t, "GET", g+"?non_archived=false", servertest.RootToken, nil)))
	assert.Equal(t, []int{1, 2, 3, 4}, listIIDs(t, in.Do(t, "GET", "/projects/"+strconv.Itoa(w.p.ID)+"/merge_requests", servertest.RootToken, nil)))
	assert.Equal(t, []int{1, 2, 3, 4}, listIIDs(t, in.Do(t, "GET", "/merge_requests?scope=all", servertest.RootToken, nil)))
}
