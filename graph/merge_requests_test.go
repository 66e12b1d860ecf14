package graph_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/mergerequest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mrWorld is a public group acme with a project web (and acme/sub/api, and a private
// acme/secret), labels, milestones and merge requests inserted as fixtures, and people.
type mrWorld struct {
	in                     *servertest.Instance
	group, sub             *ent.Namespace
	web, api, secret       *ent.Project
	alice, bob, carol      *ent.User
	atok, btok, ctok, dtok string // alice owner, bob reporter, carol guest of web, dave non-member
	ids                    map[string]int
}

func newMRWorld(t *testing.T) *mrWorld {
	in := servertest.Start(t)
	ctx := context.Background()
	c := in.DB.Client
	w := &mrWorld{in: in, ids: map[string]int{}}
	w.alice, w.atok = in.NewUser(t, "alice")
	w.bob, w.btok = in.NewUser(t, "bob")
	w.carol, w.ctok = in.NewUser(t, "carol")
	_, w.dtok = in.NewUser(t, "dave")
	w.group = in.NewGroup(t, "acme", "public", nil)
	w.sub = in.NewGroup(t, "sub", "public", w.group)
	w.web = in.NewProject(t, w.group, "web", "public")
	w.api = in.NewProject(t, w.sub, "api", "public")
	w.secret = in.NewProject(t, w.group, "secret", "private")
	in.AddGroupMember(t, w.group, w.alice, 50)
	in.AddGroupMember(t, w.group, w.bob, 20)
	in.AddProjectMember(t, w.secret, w.carol, 10)

	bug := c.Label.Create().SetTitle("bug").SetColor("#ff0000").SetProjectID(w.web.ID).SaveX(ctx)
	ui := c.Label.Create().SetTitle("ui").SetColor("#00ff00").SetGroupID(w.group.ID).SaveX(ctx)
	v1 := c.Milestone.Create().SetTitle("v1").SetIid(1).SetProjectID(w.web.ID).SetDueDate(time.Now().AddDate(0, 1, 0)).SaveX(ctx)
	base := time.Now().UTC().Add(-10 * time.Hour).Truncate(time.Second)
	n := 0
	mr := func(p *ent.Project, title string, set func(*ent.MergeRequestCreate), labels []*ent.Label, assignees, reviewers []*ent.User) {
		n++
		iid := c.MergeRequest.Query().Where(mergerequest.ProjectID(p.ID)).CountX(ctx) + 1
		cr := c.MergeRequest.Create().SetProjectID(p.ID).SetSourceProjectID(p.ID).SetIid(iid).SetTitle(title).
			SetSourceBranch("b" + strconv.Itoa(n)).SetTargetBranch("main").SetAuthorID(w.alice.ID).
			SetCreatedAt(base.Add(time.Duration(n) * time.Minute)).SetUpdatedAt(base.Add(time.Duration(n) * time.Minute))
		if set != nil {
			set(cr)
		}
		m := cr.SaveX(ctx)
		for _, l := range labels {
			c.MergeRequestLabel.Create().SetMergeRequestID(m.ID).SetLabelID(l.ID).ExecX(ctx)
		}
		for _, u := range assignees {
			c.MergeRequestAssignee.Create().SetMergeRequestID(m.ID).SetUserID(u.ID).ExecX(ctx)
		}
		for _, u := range reviewers {
			c.MergeRequestReviewer.Create().SetMergeRequestID(m.ID).SetUserID(u.ID).ExecX(ctx)
		}
		w.ids[title] = m.ID
	}
	mr(w.web, "Add login", func(cr *ent.MergeRequestCreate) {
		cr.SetMilestoneID(v1.ID).SetDescription("adds a login form")
	}, []*ent.Label{bug, ui}, []*ent.User{w.bob}, []*ent.User{w.carol})
	mr(w.web, "Draft: Dark mode", func(cr *ent.MergeRequestCreate) { cr.SetDraft(true).SetAuthorID(w.bob.ID) },
		[]*ent.Label{ui}, nil, []*ent.User{w.bob})
	mr(w.web, "Fix crash", func(cr *ent.MergeRequestCreate) {
		cr.SetState(mergerequest.StateMerged).SetMergedByID(w.bob.ID).SetMergedAt(base.Add(time.Hour)).SetTargetBranch("stable")
	}, []*ent.Label{bug}, []*ent.User{w.alice}, nil)
	mr(w.web, "Old idea", func(cr *ent.MergeRequestCreate) { cr.SetState(mergerequest.StateClosed) }, nil, nil, nil)
	mr(w.api, "Sub change", nil, nil, nil, nil)
	mr(w.secret, "Private change", nil, nil, []*ent.User{w.bob}, nil)
	c.MergeRequestApproval.Create().SetMergeRequestID(w.ids["Fix crash"]).SetUserID(w.alice.ID).ExecX(ctx)
	c.AwardEmoji.Create().SetName("thumbsup").SetUserID(w.bob.ID).SetAwardableType("MergeRequest").SetAwardableID(w.ids["Add login"]).ExecX(ctx)
	c.AwardEmoji.Create().SetName("thumbsdown").SetUserID(w.alice.ID).SetAwardableType("MergeRequest").SetAwardableID(w.ids["Add login"]).ExecX(ctx)
	return w
}

// webMRs lists acme/web's merge requests with args as token.
func (w *mrWorld) webMRs(t *testing.T, token, args string) []string {
	t.Helper()
	if args != "" {
		args = "(" + args + ")"
	}
	out, n := titles(t, w.in, token, `{ project(fullPath: "acme/web") { mergeRequests`+args+` { count nodes { title } } } }`, "project", "mergeRequests")
	assert.Len(t, out, n, "count matches the nodes")
	return out
}

func TestMergeRequests(t *testing.T) {
	w := newMRWorld(t)
	in := w.in
	all := []string{"Old idea", "Fix crash", "Draft: Dark mode", "Add login"}

	t.Run("filters", func(t *testing.T) {
		for _, c := range []struct {
			args string
			want []string
		}{
			{"", all},
			{"state: opened", []string{"Draft: Dark mode", "Add login"}},
			{"state: merged", []string{"Fix crash"}},
			{"state: closed", []string{"Old idea"}},
			{"state: all", all},
			{"iids: [\"1\", \"3\"]", []string{"Fix crash", "Add login"}},
			{"labelName: [\"bug\"]", []string{"Fix crash", "Add login"}},
			{"labelName: [\"bug\", \"ui\"]", []string{"Add login"}},
			{"labels: [\"ui\"]", []string{"Draft: Dark mode", "Add login"}},
			{"labelName: [\"None\"]", []string{"Old idea"}},
			{"labelName: [\"Any\"]", []string{"Fix crash", "Draft: Dark mode", "Add login"}},
			{"not: {labelName: [\"ui\"]}", []string{"Old idea", "Fix crash"}},
			{"milestoneTitle: \"v1\"", []string{"Add login"}},
			{"milestoneTitle: \"None\"", []string{"Old idea", "Fix crash", "Draft: Dark mode"}},
			{"milestoneWildcardId: UPCOMING", []string{"Add login"}},
			{"not: {milestoneTitle: \"v1\"}", []string{"Old idea", "Fix crash", "Draft: Dark mode"}},
			{"authorUsername: \"bob\"", []string{"Draft: Dark mode"}},
			{"not: {authorUsername: \"bob\"}", []string{"Old idea", "Fix crash", "Add login"}},
			{"assigneeUsername: \"bob\"", []string{"Add login"}},
			{"assigneeWildcardId: NONE", []string{"Old idea", "Draft: Dark mode"}},
			{"assigneeWildcardId: ANY", []string{"Fix crash", "Add login"}},
			{"not: {assigneeUsername: \"bob\"}", []string{"Old idea", "Fix crash", "Draft: Dark mode"}},
			{"reviewerUsername: \"carol\"", []string{"Add login"}},
			{"reviewerWildcardId: NONE", []string{"Old idea", "Fix crash"}},
			{"reviewerWildcardId: ANY", []string{"Draft: Dark mode", "Add login"}},
			{"not: {reviewerUsername: \"bob\"}", []string{"Old idea", "Fix crash", "Add login"}},
			{"sourceBranches: [\"b1\", \"b2\"]", []string{"Draft: Dark mode", "Add login"}},
			{"targetBranches: [\"stable\"]", []string{"Fix crash"}},
			{"not: {targetBranches: [\"stable\"]}", []string{"Old idea", "Draft: Dark mode", "Add login"}},
			{"not: {sourceBranches: [\"b1\"]}", []string{"Old idea", "Fix crash", "Draft: Dark mode"}},
			{"draft: true", []string{"Draft: Dark mode"}},
			{"draft: false", []string{"Old idea", "Fix crash", "Add login"}},
			{"approved: true", []string{"Fix crash"}},
			{"approvedBy: [\"alice\"]", []string{"Fix crash"}},
			{"not: {approvedBy: [\"alice\"]}", []string{"Old idea", "Draft: Dark mode", "Add login"}},
			{"approver: [\"alice\"]", []string{}},
			{"mergedBy: \"bob\"", []string{"Fix crash"}},
			{"mergedAfter: \"2000-01-01T00:00:00Z\"", []string{"Fix crash"}},
			{"mergedBefore: \"2000-01-01T00:00:00Z\"", []string{}},
			{"deployedAfter: \"2000-01-01T00:00:00Z\"", []string{}},
			{"createdAfter: \"2999-01-01T00:00:00Z\"", []string{}},
			{"updatedBefore: \"2999-01-01T00:00:00Z\"", all},
			{"search: \"LOGIN\"", []string{"Add login"}},
			{"search: \"form\", in: [DESCRIPTION]", []string{"Add login"}},
			{"search: \"form\", in: [TITLE]", []string{}},
			{"sort: TITLE_ASC", []string{"Add login", "Draft: Dark mode", "Fix crash", "Old idea"}},
			{"sort: created_asc", []string{"Add login", "Draft: Dark mode", "Fix crash", "Old idea"}},
			{"sort: UPDATED_DESC", all},
		} {
			assert.Equal(t, c.want, w.webMRs(t, w.atok, c.args), c.args)
		}
		// Reactions are the caller's.
		assert.Equal(t, []string{"Add login"}, w.webMRs(t, w.btok, `myReactionEmoji: "thumbsup"`))
		assert.Equal(t, []string{"Old idea", "Fix crash", "Draft: Dark mode"}, w.webMRs(t, w.btok, `myReactionEmoji: "None"`))
		assert.Equal(t, []string{"Old idea", "Fix crash", "Draft: Dark mode"}, w.webMRs(t, w.btok, `not: {myReactionEmoji: "thumbsup"}`))
	})

	t.Run("contradictory arguments", func(t *testing.T) {
		r := gql(t, in, w.atok, `{ project(fullPath: "acme/web") { mergeRequests(assigneeUsername: "bob", assigneeWildcardId: ANY) { count } } }`, nil)
		assert.Contains(t, r.String(), "only one of [assigneeUsername, assigneeWildcardId] arguments is allowed at the same time.")
		r = gql(t, in, w.atok, `{ project(fullPath: "acme/web") { mergeRequests(sort: MERGED_AT_ASC) { count } } }`, nil)
		assert.Contains(t, r.String(), "MERGED_AT_ASC")
	})

	t.Run("fields", func(t *testing.T) {
		d := data(t, in, w.atok, `{ project(fullPath: "acme/web") { mergeRequest(iid: "1") {
			id iid title description state draft sourceBranch targetBranch projectId sourceProjectId targetProjectId
			author { username } assignees { nodes { username } } reviewers { nodes { username } }
			labels { nodes { title } } milestone { title } webUrl webPath reference fullRef: reference(full: true)
			createdAt updatedAt mergedAt mergeStatus mergeStatusEnum detailedMergeStatus diffRefs { headSha }
			upvotes downvotes userNotesCount discussionLocked mergeUser { username } } } }`, nil)
		mr := path(d, "project", "mergeRequest").(map[string]any)
		assert.Equal(t, "gid://gitlab/MergeRequest/"+strconv.Itoa(w.ids["Add login"]), mr["id"])
		assert.Equal(t, "1", mr["iid"])
		assert.Equal(t, "Add login", mr["title"])
		assert.Equal(t, "adds a login form", mr["description"])
		assert.Equal(t, "opened", mr["state"])
		assert.Equal(t, false, mr["draft"])
		assert.Equal(t, "b1", mr["sourceBranch"])
		assert.Equal(t, "main", mr["targetBranch"])
		assert.Equal(t, float64(w.web.ID), mr["projectId"])
		assert.Equal(t, float64(w.web.ID), mr["sourceProjectId"])
		assert.Equal(t, float64(w.web.ID), mr["targetProjectId"])
		assert.Equal(t, "alice", path(mr, "author", "username"))
		assert.Equal(t, "bob", path(mr, "assignees", "nodes", 0, "username"))
		assert.Equal(t, "carol", path(mr, "reviewers", "nodes", 0, "username"))
		assert.Equal(t, []any{map[string]any{"title": "bug"}, map[string]any{"title": "ui"}}, path(mr, "labels", "nodes"))
		assert.Equal(t, "v1", path(mr, "milestone", "title"))
		assert.Equal(t, in.URL+"/acme/web/-/merge_requests/1", mr["webUrl"])
		assert.Equal(t, "/acme/web/-/merge_requests/1", mr["webPath"])
		assert.Equal(t, "!1", mr["reference"])
		assert.Equal(t, "acme/web!1", mr["fullRef"])
		assert.Nil(t, mr["mergedAt"])
		assert.Equal(t, "unchecked", mr["mergeStatus"])
		assert.Equal(t, "UNCHECKED", mr["mergeStatusEnum"])
		assert.NotEmpty(t, mr["detailedMergeStatus"])
		assert.Nil(t, mr["diffRefs"], "no diff version recorded for a fixture")
		assert.Equal(t, float64(1), mr["upvotes"])
		assert.Equal(t, float64(1), mr["downvotes"])
		assert.Equal(t, float64(0), mr["userNotesCount"])
		assert.Equal(t, false, mr["discussionLocked"])
		assert.Nil(t, mr["mergeUser"])

		d = data(t, in, w.atok, `{ project(fullPath: "acme/web") { mergeRequest(iid: "3") { state mergedAt mergeUser { username } } } }`, nil)
		assert.Equal(t, "merged", path(d, "project", "mergeRequest", "state"))
		assert.NotNil(t, path(d, "project", "mergeRequest", "mergedAt"))
		assert.Equal(t, "bob", path(d, "project", "mergeRequest", "mergeUser", "username"))

		// By global id, through mergeRequest(id:) and node(id:).
		gid := "gid://gitlab/MergeRequest/" + strconv.Itoa(w.ids["Add login"])
		d = data(t, in, "", `query($id: MergeRequestID!) { mergeRequest(id: $id) { title } }`, map[string]any{"id": gid})
		assert.Equal(t, "Add login", path(d, "mergeRequest", "title"))
		d = data(t, in, "", `query($id: ID!) { node(id: $id) { ... on MergeRequest { iid } } }`, map[string]any{"id": gid})
		assert.Equal(t, "1", path(d, "node", "iid"))
		// Unknown or hidden ones are null.
		d = data(t, in, "", `{ project(fullPath: "acme/web") { mergeRequest(iid: "99") { title } } }`, nil)
		assert.Nil(t, path(d, "project", "mergeRequest"))
		hidden := "gid://gitlab/MergeRequest/" + strconv.Itoa(w.ids["Private change"])
		d = data(t, in, w.dtok, `query($id: MergeRequestID!) { mergeRequest(id: $id) { title } }`, map[string]any{"id": hidden})
		assert.Nil(t, path(d, "mergeRequest"))
		d = data(t, in, w.btok, `query($id: MergeRequestID!) { mergeRequest(id: $id) { title } }`, map[string]any{"id": hidden})
		assert.Equal(t, "Private change", path(d, "mergeRequest", "title"))
		r := gql(t, in, "", `{ mergeRequest(id: "gid://gitlab/Issue/1") { title } }`, nil)
		assert.Contains(t, r.String(), "is not a valid ID for MergeRequest")
	})

	t.Run("group and visibility", func(t *testing.T) {
		group := func(token, args string) []string {
			out, _ := titles(t, in, token, `{ group(fullPath: "acme") { mergeRequests`+args+` { count nodes { title } } } }`, "group", "mergeRequests")
			return out
		}
		assert.Equal(t, append([]string{"Private change"}, all...), group(w.atok, ""))
		assert.Equal(t, append([]string{"Private change", "Sub change"}, all...), group(w.atok, "(includeSubgroups: true)"))
		assert.Equal(t, all, group(w.dtok, ""))
		assert.Equal(t, append([]string{"Sub change"}, all...), group(w.dtok, "(includeSubgroups: true)"), "a non-member sees the public projects'")
		assert.Equal(t, append([]string{"Sub change"}, all...), group("", "(includeSubgroups: true)"))
		// carol is a Guest of acme/secret: merge requests need Reporter there.
		assert.Equal(t, append([]string{"Sub change"}, all...), group(w.ctok, "(includeSubgroups: true)"))
		d := data(t, in, w.ctok, `{ project(fullPath: "acme/secret") { name mergeRequests { count } } }`, nil)
		assert.Equal(t, "secret", path(d, "project", "name"))
		assert.Equal(t, float64(0), path(d, "project", "mergeRequests", "count"), "none readable, as GitLab's finder")
		d = data(t, in, w.btok, `{ project(fullPath: "acme/secret") { mergeRequests { count } } }`, nil)
		assert.Equal(t, float64(1), path(d, "project", "mergeRequests", "count"))
	})

	t.Run("user connections", func(t *testing.T) {
		user := func(token, field, args string) []string {
			out, _ := titles(t, in, token, `{ currentUser { `+field+args+` { count nodes { title } } } }`, "currentUser", field)
			return out
		}
		assert.Equal(t, []string{"Private change", "Sub change", "Old idea", "Fix crash", "Add login"}, user(w.atok, "authoredMergeRequests", ""))
		assert.Equal(t, []string{"Old idea", "Fix crash", "Add login"}, user(w.atok, "authoredMergeRequests", `(projectPath: "acme/web")`))
		assert.Equal(t, []string{"Fix crash"}, user(w.atok, "authoredMergeRequests", `(state: merged)`))
		assert.Equal(t, []string{"Fix crash"}, user(w.atok, "assignedMergeRequests", ""))
		assert.Equal(t, []string{"Private change", "Add login"}, user(w.btok, "assignedMergeRequests", ""))
		assert.Equal(t, []string{"Draft: Dark mode"}, user(w.btok, "reviewRequestedMergeRequests", ""))
		assert.Equal(t, []string{"Add login"}, user(w.ctok, "reviewRequestedMergeRequests", ""))
		gid := "gid://gitlab/Project/" + strconv.Itoa(w.web.ID)
		assert.Equal(t, []string{"Draft: Dark mode"}, user(w.btok, "reviewRequestedMergeRequests", `(projectId: "`+gid+`")`))
		r := gql(t, in, w.atok, `{ currentUser { authoredMergeRequests(projectPath: "acme/web", projectId: "`+gid+`") { count } } }`, nil)
		assert.Contains(t, r.String(), "only one of [projectPath, projectId] arguments is allowed at the same time.")
		// Another user's: only what the caller may read.
		d := data(t, in, w.dtok, `{ user(username: "bob") { assignedMergeRequests { nodes { title } } } }`, nil)
		assert.Equal(t, []any{map[string]any{"title": "Add login"}}, path(d, "user", "assignedMergeRequests", "nodes"))
	})

	t.Run("pagination", func(t *testing.T) {
		d := data(t, in, w.atok, `{ project(fullPath: "acme/web") { mergeRequests(first: 2, sort: TITLE_ASC) { count pageInfo { hasNextPage endCursor } nodes { title } } } }`, nil)
		conn := path(d, "project", "mergeRequests")
		assert.Equal(t, float64(4), path(conn, "count"))
		assert.Equal(t, true, path(conn, "pageInfo", "hasNextPage"))
		cursor := path(conn, "pageInfo", "endCursor").(string)
		d = data(t, in, w.atok, `query($c: Cursor!) { project(fullPath: "acme/web") { mergeRequests(first: 2, sort: TITLE_ASC, after: $c) { pageInfo { hasNextPage } nodes { title } } } }`,
			map[string]any{"c": cursor})
		require.Equal(t, false, path(d, "project", "mergeRequests", "pageInfo", "hasNextPage"))
		assert.Equal(t, []any{map[string]any{"title": "Fix crash"}, map[string]any{"title": "Old idea"}}, path(d, "project", "mergeRequests", "nodes"))
	})
}
