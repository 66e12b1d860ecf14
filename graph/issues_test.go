package graph_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// issueWorld is a public group acme with a project web (and acme/sub/api), its labels,
// milestones and issues, and people in each role.
type issueWorld struct {
	in                      *servertest.Instance
	group, sub              *ent.Namespace
	web, api, secret        *ent.Project
	alice, bob, carol, dave string // owner, reporter, guest (of web), non-member
	bobUser                 *ent.User
	ids                     map[string]string // issue title → global id
}

func newIssueWorld(t *testing.T) *issueWorld {
	in := servertest.Start(t)
	w := &issueWorld{in: in, ids: map[string]string{}}
	aliceUser, alice := in.NewUser(t, "alice")
	bobUser, bob := in.NewUser(t, "bob")
	carolUser, carol := in.NewUser(t, "carol")
	_, dave := in.NewUser(t, "dave")
	w.alice, w.bob, w.carol, w.dave, w.bobUser = alice, bob, carol, dave, bobUser
	w.group = in.NewGroup(t, "acme", "public", nil)
	w.sub = in.NewGroup(t, "sub", "public", w.group)
	w.web = in.NewProject(t, w.group, "web", "public")
	w.api = in.NewProject(t, w.sub, "api", "public")
	w.secret = in.NewProject(t, w.group, "secret", "private")
	in.AddGroupMember(t, w.group, aliceUser, 50)
	in.AddGroupMember(t, w.group, bobUser, 20)
	in.AddProjectMember(t, w.web, carolUser, 10)

	webPath := "/projects/" + strconv.Itoa(w.web.ID)
	for _, l := range []url.Values{{"name": {"bug"}, "color": {"#ff0000"}}, {"name": {"feature"}, "color": {"#00ff00"}, "description": {"new things"}}} {
		r := in.Do(t, "POST", webPath+"/labels", alice, l)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
	}
	r := in.Do(t, "POST", "/groups/"+strconv.Itoa(w.group.ID)+"/labels", alice, url.Values{"name": {"org"}, "color": {"#0000ff"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	for _, m := range []url.Values{{"title": {"v1"}, "due_date": {"2099-01-31"}}, {"title": {"v2"}, "start_date": {"2099-02-01"}}} {
		r := in.Do(t, "POST", webPath+"/milestones", alice, m)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
	}
	r = in.Do(t, "POST", "/groups/"+strconv.Itoa(w.group.ID)+"/milestones", alice, url.Values{"title": {"q1"}, "due_date": {"2000-03-31"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	return w
}

// create runs createIssue as token and records the issue's global id.
func (w *issueWorld) create(t *testing.T, token, projectPath string, input map[string]any) map[string]any {
	t.Helper()
	input["projectPath"] = projectPath
	d := data(t, w.in, token, `mutation($in: CreateIssueInput!) { createIssue(input: $in) { errors issue { id iid title } } }`, map[string]any{"in": input})
	require.Equal(t, []any{}, path(d, "createIssue", "errors"))
	is := path(d, "createIssue", "issue").(map[string]any)
	w.ids[is["title"].(string)] = is["id"].(string)
	return is
}

// titles runs a connection query and returns its nodes' titles in order, with its count.
func titles(t *testing.T, in *servertest.Instance, token, query string, keys ...any) ([]string, int) {
	t.Helper()
	d := data(t, in, token, query, nil)
	conn := path(d, keys...)
	require.NotNil(t, conn, "%v", d)
	out := []string{}
	for _, n := range path(conn, "nodes").([]any) {
		out = append(out, n.(map[string]any)["title"].(string))
	}
	return out, int(path(conn, "count").(float64))
}

// webIssues lists acme/web's issues with args as token.
func (w *issueWorld) webIssues(t *testing.T, token, args string) []string {
	t.Helper()
	if args != "" {
		args = "(" + args + ")"
	}
	out, n := titles(t, w.in, token, `{ project(fullPath: "acme/web") { issues`+args+` { count nodes { title } } } }`, "project", "issues")
	assert.Len(t, out, n, "count matches the nodes")
	return out
}

func TestIssues(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	var milestoneID, bugID, featureID, orgID string
	d := data(t, in, w.alice, `{ project(fullPath: "acme/web") {
		milestones { nodes { id title } } labels(includeAncestorGroups: true) { nodes { id title } } } }`, nil)
	for _, m := range path(d, "project", "milestones", "nodes").([]any) {
		if m.(map[string]any)["title"] == "v1" {
			milestoneID = m.(map[string]any)["id"].(string)
		}
	}
	for _, l := range path(d, "project", "labels", "nodes").([]any) {
		id := l.(map[string]any)["id"].(string)
		switch l.(map[string]any)["title"] {
		case "bug":
			bugID = id
		case "feature":
			featureID = id
		case "org":
			orgID = id
		}
	}
	require.NotEmpty(t, milestoneID)
	require.NotEmpty(t, orgID)

	w.create(t, w.alice, "acme/web", map[string]any{"title": "Crash on start", "description": "boom", "labelIds": []string{bugID},
		"milestoneId": milestoneID, "assigneeIds": []string{"gid://gitlab/User/" + strconv.Itoa(w.bobUser.ID)}, "dueDate": "2030-01-10"})
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Add dark mode", "labels": []string{"feature", "bug"}})
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Secret leak", "confidential": true})
	w.create(t, w.carol, "acme/web", map[string]any{"title": "Typo", "labels": []string{"bug"}, "type": "INCIDENT"})
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Old bug"})
	d = data(t, in, w.alice, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "5", stateEvent: CLOSE}) { errors issue { state closedAt closedBy { username } } } }`, nil)
	assert.Equal(t, "closed", path(d, "updateIssue", "issue", "state"))
	assert.NotNil(t, path(d, "updateIssue", "issue", "closedAt"))
	assert.Equal(t, "alice", path(d, "updateIssue", "issue", "closedBy", "username"))
	w.create(t, w.alice, "acme/sub/api", map[string]any{"title": "Sub issue"})
	w.create(t, w.alice, "acme/secret", map[string]any{"title": "Private issue"})

	all := []string{"Old bug", "Typo", "Secret leak", "Add dark mode", "Crash on start"}
	t.Run("filters", func(t *testing.T) {
		for _, c := range []struct {
			args string
			want []string
		}{
			{"", all},
			{"state: opened", []string{"Typo", "Secret leak", "Add dark mode", "Crash on start"}},
			{"state: closed", []string{"Old bug"}},
			{"state: all", all},
			{"state: locked", []string{}},
			{`labelName: ["bug"]`, []string{"Add dark mode", "Crash on start"}},
			{`labelName: ["bug", "feature"]`, []string{"Add dark mode"}},
			{`labelName: ["None"]`, []string{"Old bug", "Typo", "Secret leak"}},
			{`labelName: ["any"]`, []string{"Add dark mode", "Crash on start"}},
			{`milestoneTitle: ["v1"]`, []string{"Crash on start"}},
			{`milestoneTitle: ["v2"]`, []string{}},
			{"milestoneWildcardId: NONE", []string{"Old bug", "Typo", "Secret leak", "Add dark mode"}},
			{"milestoneWildcardId: ANY", []string{"Crash on start"}},
			{"milestoneWildcardId: UPCOMING", []string{"Crash on start"}},
			{"milestoneWildcardId: STARTED", []string{}},
			{`authorUsername: "carol"`, []string{"Typo"}},
			{`assigneeUsernames: ["bob"]`, []string{"Crash on start"}},
			{`assigneeUsername: "bob"`, []string{"Crash on start"}},
			{"assigneeWildcardId: NONE", []string{"Old bug", "Typo", "Secret leak", "Add dark mode"}},
			{"assigneeWildcardId: ANY", []string{"Crash on start"}},
			{`assigneeId: "any"`, []string{"Crash on start"}},
			{`assigneeId: "` + strconv.Itoa(w.bobUser.ID) + `"`, []string{"Crash on start"}},
			{`search: "DARK"`, []string{"Add dark mode"}},
			{`search: "boom"`, []string{"Crash on start"}},
			{`search: "boom", in: [TITLE]`, []string{}},
			{`search: "boom", in: [DESCRIPTION]`, []string{"Crash on start"}},
			{`iid: "2"`, []string{"Add dark mode"}},
			{`iids: ["1", "3"]`, []string{"Secret leak", "Crash on start"}},
			{`iids: ["x"]`, []string{}},
			{"confidential: true", []string{"Secret leak"}},
			{"confidential: false", []string{"Old bug", "Typo", "Add dark mode", "Crash on start"}},
			{"types: [INCIDENT]", []string{"Typo"}},
			{"types: [ISSUE, TASK]", []string{"Old bug", "Secret leak", "Add dark mode", "Crash on start"}},
			{`createdAfter: "2099-01-01T00:00:00Z"`, []string{}},
			{`createdBefore: "2099-01-01T00:00:00Z"`, all},
			{`updatedAfter: "2000-01-01T00:00:00Z"`, all},
			{`updatedBefore: "2000-01-01T00:00:00Z"`, []string{}},
			{`closedAfter: "2000-01-01T00:00:00Z"`, []string{"Old bug"}},
			{`closedBefore: "2000-01-01T00:00:00Z"`, []string{}},
			{`dueAfter: "2030-01-01T00:00:00Z", dueBefore: "2030-01-31T00:00:00Z"`, []string{"Crash on start"}},
			{`dueBefore: "2029-01-01T00:00:00Z"`, []string{}},
			{`not: {labelName: ["bug"]}`, []string{"Old bug", "Typo", "Secret leak"}},
			{`not: {labelName: ["bug", "feature"]}`, []string{"Old bug", "Typo", "Secret leak"}},
			{`not: {iids: ["1", "5"]}`, []string{"Typo", "Secret leak", "Add dark mode"}},
			{`not: {milestoneTitle: ["v1"]}`, []string{"Old bug", "Typo", "Secret leak", "Add dark mode"}},
			{`not: {milestoneWildcardId: UPCOMING}`, []string{"Old bug", "Typo", "Secret leak", "Add dark mode"}},
			{`not: {authorUsername: ["carol"]}`, []string{"Old bug", "Secret leak", "Add dark mode", "Crash on start"}},
			{`not: {assigneeUsernames: ["bob"]}`, []string{"Old bug", "Typo", "Secret leak", "Add dark mode"}},
			{`not: {assigneeId: "` + strconv.Itoa(w.bobUser.ID) + `"}`, []string{"Old bug", "Typo", "Secret leak", "Add dark mode"}},
			{`not: {types: [INCIDENT]}`, []string{"Old bug", "Secret leak", "Add dark mode", "Crash on start"}},
			{`state: opened, labelName: ["bug"], not: {assigneeUsernames: ["bob"]}`, []string{"Add dark mode"}},
			{"sort: CREATED_ASC", []string{"Crash on start", "Add dark mode", "Secret leak", "Typo", "Old bug"}},
			{"sort: created_asc", []string{"Crash on start", "Add dark mode", "Secret leak", "Typo", "Old bug"}},
			{"sort: TITLE_ASC", []string{"Add dark mode", "Crash on start", "Old bug", "Secret leak", "Typo"}},
			{"sort: TITLE_DESC", []string{"Typo", "Secret leak", "Old bug", "Crash on start", "Add dark mode"}},
			{"sort: UPDATED_DESC", []string{"Old bug", "Typo", "Secret leak", "Add dark mode", "Crash on start"}},
		} {
			assert.Equal(t, c.want, w.webIssues(t, w.alice, c.args), c.args)
		}
	})
	t.Run("two spellings of one filter are refused", func(t *testing.T) {
		r := gql(t, in, w.alice, `{ project(fullPath: "acme/web") { issues(milestoneTitle: ["v1"], milestoneWildcardId: ANY) { count } } }`, nil)
		assert.Contains(t, r.String(), "only one of [milestoneTitle, milestoneWildcardId] arguments is allowed at the same time.")
		r = gql(t, in, w.alice, `{ project(fullPath: "acme/web") { issues(assigneeUsernames: ["bob"], assigneeWildcardId: ANY) { count } } }`, nil)
		assert.Contains(t, r.String(), "only one of [assigneeUsernames, assigneeWildcardId] arguments is allowed at the same time.")
	})
	t.Run("relay pages", func(t *testing.T) {
		q := `query($after: Cursor) { project(fullPath: "acme/web") { issues(first: 2, after: $after, sort: CREATED_ASC) {
			count pageInfo { hasNextPage endCursor } nodes { title } } } }`
		var got []string
		var after any
		for i := 0; i < 5; i++ {
			d := data(t, in, w.alice, q, map[string]any{"after": after})
			conn := path(d, "project", "issues")
			assert.Equal(t, float64(5), path(conn, "count"))
			for _, n := range path(conn, "nodes").([]any) {
				got = append(got, n.(map[string]any)["title"].(string))
			}
			if path(conn, "pageInfo", "hasNextPage") != true {
				break
			}
			after = path(conn, "pageInfo", "endCursor")
		}
		assert.Equal(t, []string{"Crash on start", "Add dark mode", "Secret leak", "Typo", "Old bug"}, got)
	})
	t.Run("confidential issues by role", func(t *testing.T) {
		public := []string{"Old bug", "Typo", "Add dark mode", "Crash on start"}
		assert.Equal(t, all, w.webIssues(t, w.bob, ""), "reporter")
		assert.Equal(t, public, w.webIssues(t, w.carol, ""), "guest")
		assert.Equal(t, public, w.webIssues(t, w.dave, ""), "non-member")
		assert.Equal(t, public, w.webIssues(t, "", ""), "anonymous")
		assert.Equal(t, []string{}, w.webIssues(t, w.dave, "confidential: true"))
		d := data(t, in, w.dave, `{ project(fullPath: "acme/web") { issue(iid: "3") { title } } }`, nil)
		assert.Nil(t, path(d, "project", "issue"))
		d = data(t, in, w.dave, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": w.ids["Secret leak"]})
		assert.Nil(t, d["node"])
		d = data(t, in, w.bob, `query($id: ID!) { node(id: $id) { ... on Issue { title } } }`, map[string]any{"id": w.ids["Secret leak"]})
		assert.Equal(t, "Secret leak", path(d, "node", "title"))
		// The author of a confidential issue sees it though a guest.
		w.create(t, w.carol, "acme/web", map[string]any{"title": "Carol's secret", "confidential": true})
		assert.Equal(t, []string{"Carol's secret"}, w.webIssues(t, w.carol, "confidential: true"))
		assert.Equal(t, []string{}, w.webIssues(t, w.dave, "confidential: true"))
	})
	t.Run("private project", func(t *testing.T) {
		d := data(t, in, w.dave, `{ project(fullPath: "acme/secret") { issues { count } } }`, nil)
		assert.Nil(t, d["project"])
		d = data(t, in, w.dave, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": w.ids["Private issue"]})
		assert.Nil(t, d["node"])
		d = data(t, in, w.bob, `query($id: ID!) { node(id: $id) { ... on Issue { title } } }`, map[string]any{"id": w.ids["Private issue"]})
		assert.Equal(t, "Private issue", path(d, "node", "title"), "a group member reads it")
		d = data(t, in, w.dave, `{ group(fullPath: "acme") { issues(includeSubgroups: true, search: "Private") { count } } }`, nil)
		assert.Equal(t, float64(0), path(d, "group", "issues", "count"))
	})
	t.Run("group issues", func(t *testing.T) {
		got, _ := titles(t, in, w.alice, `{ group(fullPath: "acme") { issues(sort: TITLE_ASC) { count nodes { title } } } }`, "group", "issues")
		assert.Equal(t, []string{"Add dark mode", "Carol's secret", "Crash on start", "Old bug", "Private issue", "Secret leak", "Typo"}, got)
		got, _ = titles(t, in, w.alice, `{ group(fullPath: "acme") { issues(includeSubgroups: true, state: opened, labelName: ["bug"]) { count nodes { title } } } }`, "group", "issues")
		assert.Equal(t, []string{"Add dark mode", "Crash on start"}, got)
		got, _ = titles(t, in, w.alice, `{ group(fullPath: "acme") { issues(includeSubgroups: true, search: "Sub") { count nodes { title } } } }`, "group", "issues")
		assert.Equal(t, []string{"Sub issue"}, got)
		got, _ = titles(t, in, w.carol, `{ group(fullPath: "acme") { issues(confidential: true) { count nodes { title } } } }`, "group", "issues")
		assert.Equal(t, []string{"Carol's secret"}, got, "a guest sees only her own confidential issue")
	})
	t.Run("one issue", func(t *testing.T) {
		d := data(t, in, w.carol, `{ project(fullPath: "acme/web") { issue(iid: "1") {
			id iid title description state confidential discussionLocked type projectId dueDate
			author { username } assignees { count nodes { username } } labels { count nodes { title color textColor } }
			milestone { title iid state webPath projectMilestone groupMilestone expired upcoming }
			webUrl webPath reference fullReference: reference(full: true) closedBy { username } } } }`, nil)
		is := path(d, "project", "issue").(map[string]any)
		assert.Equal(t, w.ids["Crash on start"], is["id"])
		assert.Regexp(t, `^gid://gitlab/Issue/\d+$`, is["id"])
		assert.Equal(t, "1", is["iid"])
		assert.Equal(t, "boom", is["description"])
		assert.Equal(t, "opened", is["state"])
		assert.Equal(t, false, is["confidential"])
		assert.Equal(t, false, is["discussionLocked"])
		assert.Equal(t, "ISSUE", is["type"])
		assert.Equal(t, float64(w.web.ID), is["projectId"])
		assert.Equal(t, "2030-01-10T00:00:00Z", is["dueDate"])
		assert.Equal(t, "alice", path(is, "author", "username"))
		assert.Equal(t, map[string]any{"count": float64(1), "nodes": []any{map[string]any{"username": "bob"}}}, is["assignees"])
		assert.Equal(t, map[string]any{"count": float64(1), "nodes": []any{map[string]any{"title": "bug", "color": "#ff0000", "textColor": "#FFFFFF"}}}, is["labels"])
		assert.Equal(t, map[string]any{"title": "v1", "iid": "1", "state": "active", "webPath": "/acme/web/-/milestones/1",
			"projectMilestone": true, "groupMilestone": false, "expired": false, "upcoming": false}, is["milestone"])
		assert.Equal(t, in.URL+"/acme/web/-/issues/1", is["webUrl"])
		assert.Equal(t, "/acme/web/-/issues/1", is["webPath"])
		assert.Equal(t, "#1", is["reference"])
		assert.Equal(t, "acme/web#1", is["fullReference"])
		assert.Nil(t, is["closedBy"])
		d = data(t, in, w.alice, `{ project(fullPath: "acme/web") { issue(iid: "99") { id } } }`, nil)
		assert.Nil(t, path(d, "project", "issue"))
		d = data(t, in, w.alice, `{ project(fullPath: "acme/web") { issue(iid: "x") { id } } }`, nil)
		assert.Nil(t, path(d, "project", "issue"))
	})
	t.Run("node ids", func(t *testing.T) {
		d := data(t, in, w.dave, `query($i: ID!, $l: ID!, $g: ID!, $m: ID!) {
			i: node(id: $i) { __typename id ... on Issue { title } }
			l: node(id: $l) { __typename id ... on Label { title } }
			g: node(id: $g) { __typename id ... on Label { title } }
			m: node(id: $m) { __typename id ... on Milestone { title } } }`,
			map[string]any{"i": w.ids["Typo"], "l": bugID, "g": orgID, "m": milestoneID})
		assert.Equal(t, map[string]any{"__typename": "Issue", "id": w.ids["Typo"], "title": "Typo"}, d["i"])
		assert.Equal(t, map[string]any{"__typename": "Label", "id": bugID, "title": "bug"}, d["l"])
		assert.Regexp(t, `^gid://gitlab/ProjectLabel/\d+$`, bugID)
		assert.Regexp(t, `^gid://gitlab/GroupLabel/\d+$`, orgID)
		assert.Equal(t, map[string]any{"__typename": "Label", "id": orgID, "title": "org"}, d["g"])
		assert.Equal(t, map[string]any{"__typename": "Milestone", "id": milestoneID, "title": "v1"}, d["m"])
		assert.Regexp(t, `^gid://gitlab/Milestone/\d+$`, milestoneID)
		d = data(t, in, w.dave, `query($i: IssueID!, $s: IssueID!, $m: MilestoneID!) { i: issue(id: $i) { title } s: issue(id: $s) { title }
			milestone(id: $m) { title webPath } }`, map[string]any{"i": w.ids["Typo"], "s": w.ids["Private issue"], "m": milestoneID})
		assert.Equal(t, map[string]any{"i": map[string]any{"title": "Typo"}, "s": nil,
			"milestone": map[string]any{"title": "v1", "webPath": "/acme/web/-/milestones/1"}}, d)
		r := gql(t, in, w.dave, `{ issue(id: "gid://gitlab/Milestone/1") { title } }`, nil)
		assert.Contains(t, r.String(), "gid://gitlab/Milestone/1 is not a valid ID for Issue.")
	})
	t.Run("updateIssue", func(t *testing.T) {
		d := data(t, in, w.alice, `mutation($add: [ID!], $remove: [ID!]) { updateIssue(input: {projectPath: "acme/web", iid: "2", title: "Add dark theme",
			addLabelIds: $add, removeLabelIds: $remove, locked: true, dueDate: "2031-05-06", clientMutationId: "u1"}) {
			clientMutationId errors issue { title discussionLocked dueDate labels { nodes { title } } } } }`,
			map[string]any{"add": []string{orgID}, "remove": []string{featureID}})
		assert.Equal(t, map[string]any{"clientMutationId": "u1", "errors": []any{}, "issue": map[string]any{"title": "Add dark theme", "discussionLocked": true,
			"dueDate": "2031-05-06T00:00:00Z", "labels": map[string]any{"nodes": []any{map[string]any{"title": "bug"}, map[string]any{"title": "org"}}}}}, d["updateIssue"])
		d = data(t, in, w.alice, `mutation($l: [ID!], $m: ID) { updateIssue(input: {projectPath: "acme/web", iid: "2", labelIds: $l, milestoneId: $m}) {
			errors issue { labels { nodes { title } } milestone { title } } } }`, map[string]any{"l": []string{featureID}, "m": milestoneID})
		assert.Equal(t, map[string]any{"errors": []any{}, "issue": map[string]any{"labels": map[string]any{"nodes": []any{map[string]any{"title": "feature"}}},
			"milestone": map[string]any{"title": "v1"}}}, d["updateIssue"])
		d = data(t, in, w.alice, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "2", milestoneId: null, dueDate: null}) {
			errors issue { milestone { title } dueDate } } }`, nil)
		assert.Equal(t, map[string]any{"errors": []any{}, "issue": map[string]any{"milestone": nil, "dueDate": nil}}, d["updateIssue"])
		d = data(t, in, w.alice, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "5", stateEvent: REOPEN}) { errors issue { state closedAt } } }`, nil)
		assert.Equal(t, map[string]any{"errors": []any{}, "issue": map[string]any{"state": "opened", "closedAt": nil}}, d["updateIssue"])
		d = data(t, in, w.alice, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "2", title: " "}) { errors issue { title } } }`, nil)
		assert.Equal(t, map[string]any{"errors": []any{"Title can't be blank"}, "issue": nil}, d["updateIssue"])
		r := gql(t, in, w.alice, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "2", dueDate: "tomorrow"}) { errors } }`, nil)
		assert.Contains(t, r.String(), "tomorrow is not a valid date for dueDate")
	})
	t.Run("update permissions", func(t *testing.T) {
		// A guest updates her own issue, but labels are metadata: dropped, as in GitLab.
		d := data(t, in, w.carol, `mutation($l: [ID!]) { updateIssue(input: {projectPath: "acme/web", iid: "4", title: "Typo fixed", addLabelIds: $l}) {
			errors issue { title labels { nodes { title } } } } }`, map[string]any{"l": []string{featureID}})
		assert.Equal(t, map[string]any{"errors": []any{}, "issue": map[string]any{"title": "Typo fixed", "labels": map[string]any{"nodes": []any{}}}}, d["updateIssue"])
		r := gql(t, in, w.carol, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "1", title: "mine"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("updateIssue", "FORBIDDEN"))
		r = gql(t, in, w.dave, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "1", title: "mine"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("updateIssue", "FORBIDDEN"))
		r = gql(t, in, w.dave, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "3", title: "mine"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("updateIssue", "NOT_FOUND"))
		r = gql(t, in, w.dave, `mutation { createIssue(input: {projectPath: "acme/secret", title: "x"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("createIssue", "NOT_FOUND"))
		r = gql(t, in, "", `mutation { createIssue(input: {projectPath: "acme/web", title: "x"}) { errors } }`, nil)
		assert.Contains(t, r.String(), `"createIssue":null`)
	})
	t.Run("issueSetAssignees", func(t *testing.T) {
		set := func(mode string, names ...string) []string {
			d := data(t, in, w.alice, `mutation($n: [String!]!) { issueSetAssignees(input: {projectPath: "acme/web", iid: "2", assigneeUsernames: $n, operationMode: `+mode+`}) {
				errors issue { assignees { nodes { username } } } } }`, map[string]any{"n": append([]string{}, names...)})
			require.Equal(t, []any{}, path(d, "issueSetAssignees", "errors"))
			out := []string{}
			for _, n := range path(d, "issueSetAssignees", "issue", "assignees", "nodes").([]any) {
				out = append(out, n.(map[string]any)["username"].(string))
			}
			return out
		}
		assert.Equal(t, []string{"bob"}, set("REPLACE", "bob"))
		assert.Equal(t, []string{"bob", "alice"}, set("APPEND", "alice", "nobody"))
		assert.Equal(t, []string{"alice"}, set("REMOVE", "bob"))
		assert.Equal(t, []string{}, set("REPLACE"))
		r := gql(t, in, w.dave, `mutation { issueSetAssignees(input: {projectPath: "acme/web", iid: "2", assigneeUsernames: ["dave"]}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("issueSetAssignees", "FORBIDDEN"))
	})
}

func TestLabelsAndMilestones(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	t.Run("project labels", func(t *testing.T) {
		got, n := titles(t, in, w.dave, `{ project(fullPath: "acme/web") { labels { count nodes { title } } } }`, "project", "labels")
		assert.Equal(t, []string{"bug", "feature"}, got)
		assert.Equal(t, 2, n)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { labels(includeAncestorGroups: true) { count nodes { title } } } }`, "project", "labels")
		assert.Equal(t, []string{"bug", "feature", "org"}, got)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { labels(searchTerm: "THINGS") { count nodes { title } } } }`, "project", "labels")
		assert.Equal(t, []string{"feature"}, got)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { labels(title: "bug") { count nodes { title } } } }`, "project", "labels")
		assert.Equal(t, []string{"bug"}, got)
		d := data(t, in, w.dave, `{ project(fullPath: "acme/web") { label(title: "feature") { title description color textColor } org: label(title: "org") { title } none: label(title: "nope") { title } } }`, nil)
		rest := in.Do(t, "GET", "/projects/"+strconv.Itoa(w.web.ID)+"/labels/feature", w.dave, nil)
		require.Equal(t, http.StatusOK, rest.Status, rest.String())
		textColor := decodeObject(t, rest)["text_color"]
		assert.Equal(t, map[string]any{"label": map[string]any{"title": "feature", "description": "new things", "color": "#00ff00", "textColor": textColor},
			"org": map[string]any{"title": "org"}, "none": nil}, d["project"])
		d = data(t, in, w.alice, `{ project(fullPath: "acme/web") { labels(first: 1) { pageInfo { hasNextPage endCursor } nodes { title } } } }`, nil)
		assert.Equal(t, true, path(d, "project", "labels", "pageInfo", "hasNextPage"))
		d = data(t, in, w.alice, `query($a: Cursor) { project(fullPath: "acme/web") { labels(first: 1, after: $a) { nodes { title } } } }`,
			map[string]any{"a": path(d, "project", "labels", "pageInfo", "endCursor")})
		assert.Equal(t, []any{map[string]any{"title": "feature"}}, path(d, "project", "labels", "nodes"))
	})
	t.Run("group labels", func(t *testing.T) {
		got, _ := titles(t, in, w.dave, `{ group(fullPath: "acme") { labels { count nodes { title } } } }`, "group", "labels")
		assert.Equal(t, []string{"org"}, got)
		d := data(t, in, w.dave, `{ group(fullPath: "acme") { label(title: "org") { title } } }`, nil)
		assert.Equal(t, "org", path(d, "group", "label", "title"))
	})
	t.Run("labelCreate", func(t *testing.T) {
		d := data(t, in, w.alice, `mutation { labelCreate(input: {projectPath: "acme/web", title: "docs", color: "red", description: "d"}) {
			errors label { id title color description textColor } } }`, nil)
		l := path(d, "labelCreate", "label").(map[string]any)
		assert.Equal(t, []any{}, path(d, "labelCreate", "errors"))
		assert.Regexp(t, `^gid://gitlab/ProjectLabel/\d+$`, l["id"])
		assert.Equal(t, "docs", l["title"])
		assert.Equal(t, "#ff0000", l["color"])
		d = data(t, in, w.alice, `mutation { labelCreate(input: {groupPath: "acme", title: "team"}) { errors label { id color } } }`, nil)
		assert.Regexp(t, `^gid://gitlab/GroupLabel/\d+$`, path(d, "labelCreate", "label", "id"))
		assert.Equal(t, "#6699cc", path(d, "labelCreate", "label", "color"))
		d = data(t, in, w.alice, `mutation { labelCreate(input: {projectPath: "acme/web", title: "docs"}) { errors label { id } } }`, nil)
		assert.Nil(t, path(d, "labelCreate", "label"))
		assert.NotEmpty(t, path(d, "labelCreate", "errors"), "a taken title")
		r := gql(t, in, w.alice, `mutation { labelCreate(input: {projectPath: "acme/web", groupPath: "acme", title: "x"}) { errors } }`, nil)
		assert.Contains(t, r.String(), "Exactly one of group_path or project_path arguments is required")
		r = gql(t, in, w.carol, `mutation { labelCreate(input: {projectPath: "acme/web", title: "guest"}) { errors } }`, nil)
		assert.Contains(t, r.String(), `"labelCreate":null`, "a guest may not create labels")
		r = gql(t, in, w.dave, `mutation { labelCreate(input: {projectPath: "acme/secret", title: "x"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("labelCreate", "NOT_FOUND"))
	})
	t.Run("project milestones", func(t *testing.T) {
		got, n := titles(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones { count nodes { title } } } }`, "project", "milestones")
		assert.Equal(t, []string{"v1", "v2"}, got)
		assert.Equal(t, 2, n)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones(includeAncestors: true) { count nodes { title } } } }`, "project", "milestones")
		assert.Equal(t, []string{"v1", "v2", "q1"}, got)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones(title: "v2") { count nodes { title } } } }`, "project", "milestones")
		assert.Equal(t, []string{"v2"}, got)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones(searchTitle: "V") { count nodes { title } } } }`, "project", "milestones")
		assert.Equal(t, []string{"v1", "v2"}, got)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones(state: closed) { count nodes { title } } } }`, "project", "milestones")
		assert.Equal(t, []string{}, got)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones(timeframe: {start: "2099-01-15", end: "2099-01-20"}) { count nodes { title } } } }`, "project", "milestones")
		assert.Equal(t, []string{"v1"}, got)
		got, _ = titles(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones(sort: CREATED_DESC) { count nodes { title } } } }`, "project", "milestones")
		assert.Equal(t, []string{"v2", "v1"}, got)
		d := data(t, in, w.dave, `{ project(fullPath: "acme/web") { milestones { nodes { id } } } }`, nil)
		v2 := path(d, "project", "milestones", "nodes", 1, "id")
		d = data(t, in, w.dave, `query($ids: [ID!]) { project(fullPath: "acme/web") { milestones(ids: $ids) { nodes { title iid webUrl upcoming expired startDate dueDate } } } }`,
			map[string]any{"ids": []any{v2}})
		assert.Equal(t, []any{map[string]any{"title": "v2", "iid": "2", "webUrl": in.URL + "/acme/web/-/milestones/2", "upcoming": true, "expired": false,
			"startDate": "2099-02-01T00:00:00Z", "dueDate": nil}}, path(d, "project", "milestones", "nodes"))
	})
	t.Run("group milestones", func(t *testing.T) {
		d := data(t, in, w.dave, `{ group(fullPath: "acme") { milestones { count nodes { title webPath groupMilestone expired } } } }`, nil)
		assert.Equal(t, []any{map[string]any{"title": "q1", "webPath": "/groups/acme/-/milestones/1", "groupMilestone": true, "expired": true}},
			path(d, "group", "milestones", "nodes"))
		got, _ := titles(t, in, w.dave, `{ group(fullPath: "acme") { milestones(includeDescendants: true) { count nodes { title } } } }`, "group", "milestones")
		assert.Equal(t, []string{"v1", "v2", "q1"}, got)
		r := gql(t, in, w.dave, `{ group(fullPath: "acme") { milestones(timeframe: {start: "2099-02-01", end: "2099-01-01"}) { count } } }`, nil)
		assert.Contains(t, r.String(), "start must be before end")
	})
	t.Run("private owners are null", func(t *testing.T) {
		d := data(t, in, w.dave, `{ project(fullPath: "acme/secret") { labels { count } milestones { count } } }`, nil)
		assert.Nil(t, d["project"])
	})
}
