package approvalapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/approvalrule"
	"anvil/ent/event"
	"anvil/ent/note"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture is a public project with main and feature, and a merge request by the developer.
type fixture struct {
	*servertest.RepoFixture
	P    *ent.Project
	base string // the merge request's path
	sha  string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "app", "public")
	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature", servertest.Commit(t, repo, main.Commit.ID, "feature.txt", 1))
	mrs := "/projects/" + strconv.Itoa(p.ID) + "/merge_requests"
	r := f.Do(t, "POST", mrs, "developer", url.Values{"source_branch": {"feature"}, "target_branch": {"main"}, "title": {"Feature"}})
	require.Equal(t, 201, r.Status, r.String())
	sha, _ := servertest.Object(t, r)["sha"].(string)
	return &fixture{RepoFixture: f, P: p, base: mrs + "/1", sha: sha}
}

func (f *fixture) user(t *testing.T, name string) map[string]any {
	u := f.Users[name]
	if name == "root" {
		u = f.Root
	}
	return map[string]any{"id": float64(u.ID), "username": u.Username, "name": u.Name, "state": "active",
		"locked": false, "avatar_url": f.avatar(t, u), "web_url": f.In.URL + "/" + u.Username}
}

func (f *fixture) avatar(t *testing.T, u *ent.User) any {
	r := f.In.Do(t, "GET", "/users/"+strconv.Itoa(u.ID), servertest.RootToken, nil)
	return servertest.Decode[map[string]any](t, r)["avatar_url"]
}

// rule adds a project-level rule with approvers directly (any rule type, unlike the API).
func (f *fixture) rule(t *testing.T, name string, typ approvalrule.RuleType, required int, approvers ...string) *ent.ApprovalRule {
	t.Helper()
	c := f.In.DB.Client.ApprovalRule.Create().SetProjectID(f.P.ID).SetName(name).SetRuleType(typ).SetApprovalsRequired(required)
	for _, a := range approvers {
		c.AddUserIDs(f.Users[a].ID)
	}
	r, err := c.Save(context.Background())
	require.NoError(t, err)
	return r
}

// TestApprovals: approving and unapproving a merge request, the approvals object before and
// after, the errors GitLab gives, and the note, event and reviewer state written.
func TestApprovals(t *testing.T) {
	f := newFixture(t)
	f.rule(t, "All Members", approvalrule.RuleTypeAnyApprover, 2)

	r := f.Do(t, "GET", f.base+"/approvals", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	for k, want := range map[string]any{
		"iid": float64(1), "project_id": float64(f.P.ID), "title": "Feature", "description": nil, "state": "opened",
		"approved": false, "approvals_required": float64(2), "approvals_left": float64(2),
		"require_password_to_approve": false, "approved_by": []any{}, "suggested_approvers": []any{},
		"approvers": []any{}, "approver_groups": []any{}, "user_has_approved": false, "user_can_approve": true,
		"approval_rules_left": []any{map[string]any{"id": got["approval_rules_left"].([]any)[0].(map[string]any)["id"],
			"name": "All Members", "rule_type": "any_approver"}},
		"has_approval_rules": true, "merge_request_approvers_available": true,
		"multiple_approval_rules_available": true, "invalid_approvers_rules": []any{},
	} {
		assert.Equal(t, want, got[k], k)
	}
	assert.Len(t, got, 24)

	// The author may not approve their own merge request (merge_requests_author_approval is
	// off): 401. A reporter lacks the ability: 403. Anonymous: 401. A wrong sha: 409.
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "developer", nil), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "reporter", nil), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "", nil), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "maintainer", url.Values{"sha": {"0123"}}), 409,
		"message", "SHA does not match HEAD of source branch: "+f.sha)

	r = f.Do(t, "POST", f.base+"/approve", "maintainer", url.Values{"sha": {f.sha}})
	require.Equal(t, 201, r.Status, r.String())
	got = servertest.Object(t, r)
	assert.Equal(t, []any{map[string]any{"user": f.user(t, "maintainer")}}, got["approved_by"])
	assert.Equal(t, float64(1), got["approvals_left"])
	assert.Equal(t, true, got["user_has_approved"])
	assert.Equal(t, false, got["user_can_approve"])
	assert.Equal(t, false, got["approved"])
	// Approving twice is 401.
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "maintainer", nil), 401, "message", "401 Unauthorized")

	r = f.Do(t, "POST", f.base+"/approve", "root", nil)
	require.Equal(t, 201, r.Status, r.String())
	got = servertest.Object(t, r)
	assert.Equal(t, true, got["approved"])
	assert.Equal(t, float64(0), got["approvals_left"])
	assert.Equal(t, []any{}, got["approval_rules_left"])

	// Unapprove: 404 when the caller had not approved; 201 with the state otherwise.
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/unapprove", "developer", nil), 404, "message", "404 Not found")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/unapprove", "reporter", nil), 403, "message", "403 Forbidden")
	r = f.Do(t, "POST", f.base+"/unapprove", "maintainer", nil)
	require.Equal(t, 201, r.Status, r.String())
	got = servertest.Object(t, r)
	assert.Equal(t, []any{map[string]any{"user": f.user(t, "root")}}, got["approved_by"])
	assert.Equal(t, float64(1), got["approvals_left"])
	assert.Equal(t, true, got["user_can_approve"])

	ctx := context.Background()
	bodies, err := f.In.DB.Client.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.System(true)).
		Order(note.ByID()).Select(note.FieldBody).Strings(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"approved this merge request", "approved this merge request", "unapproved this merge request"}, bodies)
	n, err := f.In.DB.Client.Event.Query().Where(event.ActionEQ(event.ActionApproved)).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n)

	// Reset approvals: bots and administrators only (401 for others), 202.
	servertest.RequireError(t, f.Do(t, "PUT", f.base+"/reset_approvals", "maintainer", nil), 401, "message", "401 Unauthorized")
	r = f.Do(t, "PUT", f.base+"/reset_approvals", "root", nil)
	require.Equal(t, 202, r.Status, r.String())
	r = f.Do(t, "GET", f.base+"/approvals", "root", nil)
	assert.Equal(t, []any{}, servertest.Object(t, r)["approved_by"])
}

// TestApprovalRulesAndState: a rule naming approvers admits them only (a reporter named in
// it may approve), the author approves once the project allows it, and approval_state lists
// each rule with its approvals.
func TestApprovalRulesAndState(t *testing.T) {
	f := newFixture(t)
	rule := f.rule(t, "security", approvalrule.RuleTypeRegular, 1, "reporter", "developer")

	r := f.Do(t, "GET", f.base+"/approval_state", "guest", nil)
	require.Equal(t, 200, r.Status, r.String())
	// The author is no eligible approver while authors may not approve.
	assert.Equal(t, map[string]any{"approval_rules_overwritten": false, "rules": []any{map[string]any{
		"id": float64(rule.ID), "name": "security", "rule_type": "regular", "report_type": nil,
		"eligible_approvers": []any{f.user(t, "reporter")}, "approvals_required": float64(1),
		"users": []any{f.user(t, "reporter"), f.user(t, "developer")}, "groups": []any{}, "contains_hidden_groups": false,
		"section": nil, "source_rule": nil, "overridden": false, "code_owner": false, "approved_by": []any{}, "approved": false,
	}}}, servertest.Object(t, r))

	// A maintainer not named by the rule may not approve while it needs approvals.
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "maintainer", nil), 401, "message", "401 Unauthorized")
	r = f.Do(t, "GET", f.base+"/approvals", "reporter", nil)
	got := servertest.Object(t, r)
	assert.Equal(t, true, got["user_can_approve"])
	assert.Equal(t, []any{f.user(t, "reporter")}, got["suggested_approvers"])
	r = f.Do(t, "POST", f.base+"/approve", "reporter", nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, true, servertest.Object(t, r)["approved"])

	// Once the project lets authors approve, the author may.
	r = f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/approvals", "maintainer", url.Values{"merge_requests_author_approval": {"true"}})
	require.Equal(t, 201, r.Status, r.String())
	r = f.Do(t, "POST", f.base+"/approve", "developer", nil)
	require.Equal(t, 201, r.Status, r.String())
	r = f.Do(t, "GET", f.base+"/approval_state", "developer", nil)
	st := servertest.Object(t, r)["rules"].([]any)[0].(map[string]any)
	assert.Equal(t, []any{f.user(t, "reporter"), f.user(t, "developer")}, st["approved_by"])
	assert.Equal(t, true, st["approved"])
}

// TestApprovalSettings: a project's approval configuration, Maintainer+ only.
func TestApprovalSettings(t *testing.T) {
	f := newFixture(t)
	path := "/projects/" + strconv.Itoa(f.P.ID) + "/approvals"
	defaults := map[string]any{"approvers": []any{}, "approver_groups": []any{}, "approvals_before_merge": float64(0),
		"reset_approvals_on_push": true, "selective_code_owner_removals": false,
		"disable_overriding_approvers_per_merge_request": false, "merge_requests_author_approval": false,
		"merge_requests_disable_committers_approval": false, "require_password_to_approve": false}
	r := f.Do(t, "GET", path, "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, defaults, servertest.Object(t, r))
	servertest.RequireError(t, f.Do(t, "GET", path, "developer", nil), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "POST", path, "developer", url.Values{"reset_approvals_on_push": {"false"}}), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "GET", path, "", nil), 401, "message", "401 Unauthorized")

	r = f.Do(t, "POST", path, "maintainer", url.Values{"reset_approvals_on_push": {"false"}, "require_password_to_approve": {"true"},
		"approvals_before_merge": {"2"}})
	require.Equal(t, 201, r.Status, r.String())
	want := map[string]any{}
	for k, v := range defaults {
		want[k] = v
	}
	want["reset_approvals_on_push"], want["require_password_to_approve"], want["approvals_before_merge"] = false, true, float64(2)
	assert.Equal(t, want, servertest.Object(t, r))
	r = f.Do(t, "POST", path, "maintainer", url.Values{"reset_approvals_on_push": {"true"}, "selective_code_owner_removals": {"true"}})
	require.Equal(t, 400, r.Status, r.String())

	// With a password required, approving needs the approver's password.
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "maintainer", nil), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/approve", "maintainer", url.Values{"approval_password": {"wrong"}}), 401,
		"message", "401 Unauthorized")
}
