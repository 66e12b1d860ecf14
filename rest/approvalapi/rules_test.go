package approvalapi_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/note"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// js is a JSON request body.
func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func id(m map[string]any) string { return strconv.Itoa(int(m["id"].(float64))) }

func (f *fixture) uid(name string) float64 {
	if name == "root" {
		return float64(f.Root.ID)
	}
	return float64(f.Users[name].ID)
}

// group is group g as the rules show it (the group list's entity).
func (f *fixture) group(t *testing.T) map[string]any {
	t.Helper()
	r := f.Do(t, "GET", "/groups/"+strconv.Itoa(f.Group.ID), "root", nil)
	require.Equal(t, 200, r.Status, r.String())
	full := servertest.Object(t, r)
	out := map[string]any{}
	r = f.Do(t, "GET", "/groups?search=g", "root", nil)
	for _, g := range servertest.List(t, r) {
		if g["id"] == full["id"] {
			out = g
		}
	}
	require.NotEmpty(t, out)
	return out
}

// TestProjectApprovalRules: creating, reading, listing, changing and deleting a project's
// rules with GitLab's shapes, validation errors and permissions.
func TestProjectApprovalRules(t *testing.T) {
	f := newFixture(t)
	base := "/projects/" + strconv.Itoa(f.P.ID) + "/approval_rules"
	r := f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/protected_branches", "maintainer", url.Values{"name": {"main"}})
	if r.Status != 201 { // the default branch may be protected already
		r = f.Do(t, "GET", "/projects/"+strconv.Itoa(f.P.ID)+"/protected_branches/main", "maintainer", nil)
		require.Equal(t, 200, r.Status, r.String())
	}
	pb := servertest.Object(t, r)

	var created map[string]any
	t.Run("create", func(t *testing.T) {
		// The outsider is no member of the project: dropped, as GitLab's members_among does.
		r := f.Do(t, "POST", base, "maintainer", js(t, map[string]any{"name": "security", "approvals_required": 2,
			"user_ids": []int{f.Users["reporter"].ID, f.Users["outsider"].ID}, "group_ids": []int{f.Group.ID},
			"protected_branch_ids": []any{pb["id"]}}))
		require.Equal(t, 201, r.Status, r.String())
		created = servertest.Object(t, r)
		members := []any{f.user(t, "guest"), f.user(t, "reporter"), f.user(t, "developer"), f.user(t, "maintainer")}
		assert.Equal(t, map[string]any{
			"id": created["id"], "name": "security", "rule_type": "regular", "report_type": nil,
			"eligible_approvers": members, "approvals_required": float64(2),
			"users": []any{f.user(t, "reporter")}, "groups": []any{f.group(t)}, "contains_hidden_groups": false,
			"protected_branches": []any{pb}, "applies_to_all_protected_branches": false,
		}, created)

		// No approvers and no rule_type: an any_approver rule; a second one is refused.
		r = f.Do(t, "POST", base, "maintainer", url.Values{"name": {"All Members"}, "approvals_required": {"1"}})
		require.Equal(t, 201, r.Status, r.String())
		anyRule := servertest.Object(t, r)
		assert.Equal(t, "any_approver", anyRule["rule_type"])
		assert.Equal(t, []any{}, anyRule["eligible_approvers"])
		assert.Equal(t, []any{}, anyRule["protected_branches"])
		r = f.Do(t, "POST", base, "maintainer", url.Values{"name": {"Others"}, "approvals_required": {"1"}})
		require.Equal(t, 400, r.Status, r.String())
		assert.Equal(t, map[string]any{"message": map[string]any{"rule_type": []any{"any-approver for the project already exists"}}},
			servertest.Object(t, r))
	})

	t.Run("validation", func(t *testing.T) {
		cases := []struct {
			body   url.Values
			status int
			want   any
		}{
			{url.Values{"approvals_required": {"1"}}, 400, map[string]any{"error": "name is missing"}},
			{url.Values{"name": {"x"}}, 400, map[string]any{"error": "approvals_required is missing"}},
			{url.Values{"name": {"x"}, "approvals_required": {"many"}}, 400, map[string]any{"error": "approvals_required is invalid"}},
			{url.Values{"name": {"x"}, "approvals_required": {"-1"}, "user_ids": {strconv.Itoa(f.Users["reporter"].ID)}}, 400,
				map[string]any{"message": map[string]any{"approvals_required": []any{"must be greater than or equal to 0"}}}},
			{url.Values{"name": {"x"}, "approvals_required": {"101"}, "user_ids": {strconv.Itoa(f.Users["reporter"].ID)}}, 400,
				map[string]any{"message": map[string]any{"approvals_required": []any{"must be less than or equal to 100"}}}},
			{url.Values{"name": {"security"}, "approvals_required": {"1"}, "user_ids": {strconv.Itoa(f.Users["reporter"].ID)}}, 400,
				map[string]any{"message": map[string]any{"name": []any{"has already been taken"}}}},
			{url.Values{"name": {"x"}, "approvals_required": {"1"}, "rule_type": {"bogus"}}, 400,
				map[string]any{"error": "rule_type does not have a valid value"}},
			{url.Values{"name": {"x"}, "approvals_required": {"1"}, "rule_type": {"report_approver"}}, 400,
				map[string]any{"message": map[string]any{"report_type": []any{"can't be blank"}}}},
			{url.Values{"name": {"x"}, "approvals_required": {"1"}, "user_ids": {"a,b"}}, 400, map[string]any{"error": "user_ids is invalid"}},
		}
		for _, c := range cases {
			r := f.Do(t, "POST", base, "maintainer", c.body)
			require.Equal(t, c.status, r.Status, "%v: %s", c.body, r.String())
			assert.Equal(t, c.want, servertest.Object(t, r), "%v", c.body)
		}
	})

	t.Run("read", func(t *testing.T) {
		r := f.Do(t, "GET", base, "developer", nil)
		require.Equal(t, 200, r.Status, r.String())
		list := servertest.List(t, r)
		assert.Equal(t, []string{"security", "All Members"}, servertest.Names(list))
		assert.Equal(t, created, list[0])
		assert.Equal(t, "2", r.Header.Get("X-Total"))
		r = f.Do(t, "GET", base+"?per_page=1&page=2", "developer", nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, []string{"All Members"}, servertest.Names(servertest.List(t, r)))
		assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))

		r = f.Do(t, "GET", base+"/"+id(created), "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, created, servertest.Object(t, r))
		servertest.RequireError(t, f.Do(t, "GET", base+"/999999", "reporter", nil), 404, "message", "404 Not found")
	})

	t.Run("update", func(t *testing.T) {
		r := f.Do(t, "PUT", base+"/"+id(created), "maintainer", js(t, map[string]any{"approvals_required": 1,
			"user_ids": []int{f.Users["developer"].ID}, "group_ids": []int{}, "applies_to_all_protected_branches": true}))
		require.Equal(t, 200, r.Status, r.String())
		got := servertest.Object(t, r)
		assert.Equal(t, float64(1), got["approvals_required"])
		assert.Equal(t, "security", got["name"])
		assert.Equal(t, []any{f.user(t, "developer")}, got["users"])
		assert.Equal(t, []any{f.user(t, "developer")}, got["eligible_approvers"])
		assert.Equal(t, []any{}, got["groups"])
		assert.Equal(t, true, got["applies_to_all_protected_branches"])
		// Applying to all protected branches shows them all.
		assert.Equal(t, []any{pb}, got["protected_branches"])
		r = f.Do(t, "PUT", base+"/"+id(created), "maintainer", url.Values{"approvals_required": {"-2"}})
		require.Equal(t, 400, r.Status, r.String())
		servertest.RequireError(t, f.Do(t, "PUT", base+"/999999", "maintainer", url.Values{"name": {"x"}}), 404, "message", "404 Not found")
	})

	t.Run("permissions", func(t *testing.T) {
		// Public project: every signed-in user may read (create_merge_request_in), Maintainer+
		// writes; anonymous callers are 401.
		for role, want := range map[string]int{"": 401, "outsider": 200, "guest": 200, "reporter": 200, "developer": 200, "maintainer": 200, "root": 200} {
			assert.Equal(t, want, f.Do(t, "GET", base, role, nil).Status, "GET %q", role)
		}
		for role, want := range map[string]int{"": 401, "outsider": 403, "guest": 403, "reporter": 403, "developer": 403} {
			r := f.Do(t, "POST", base, role, url.Values{"name": {"x"}, "approvals_required": {"1"}})
			assert.Equal(t, want, r.Status, "POST %q", role)
			assert.Equal(t, want, f.Do(t, "PUT", base+"/"+id(created), role, url.Values{"name": {"y"}}).Status, "PUT %q", role)
			assert.Equal(t, want, f.Do(t, "DELETE", base+"/"+id(created), role, nil).Status, "DELETE %q", role)
		}
		servertest.RequireError(t, f.Do(t, "POST", base, "developer", url.Values{"name": {"x"}, "approvals_required": {"1"}}),
			403, "message", "403 Forbidden")

		// Private project: Guests do not read the code (403), outsiders do not see it (404).
		p := f.ProjectWithReadme(t, "secret", "private")
		priv := "/projects/" + strconv.Itoa(p.ID) + "/approval_rules"
		for role, want := range map[string]int{"outsider": 404, "guest": 403, "reporter": 200, "maintainer": 200} {
			assert.Equal(t, want, f.Do(t, "GET", priv, role, nil).Status, "private GET %q", role)
		}
		servertest.RequireError(t, f.Do(t, "GET", priv, "outsider", nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.Do(t, "POST", priv, "outsider", url.Values{"name": {"x"}, "approvals_required": {"1"}}),
			404, "message", "404 Project Not Found")
	})

	t.Run("hidden groups", func(t *testing.T) {
		// A private group the project's members cannot see, whose member is the outsider.
		hidden := f.In.NewGroup(t, "hidden", "private", nil)
		f.In.AddGroupMember(t, hidden, f.Users["outsider"], 30)
		_, strangerToken := f.In.NewUser(t, "stranger")
		r := f.Do(t, "POST", base, "root", js(t, map[string]any{"name": "mixed", "approvals_required": 1,
			"group_ids": []int{f.Group.ID, hidden.ID}}))
		require.Equal(t, 201, r.Status, r.String())
		mixed := servertest.Object(t, r)
		assert.Len(t, mixed["groups"], 2)
		assert.Equal(t, false, mixed["contains_hidden_groups"])

		// A member of the project sees the visible group, that others are hidden, and every
		// approver (the hidden group's member included).
		r = f.Do(t, "GET", base+"/"+id(mixed), "maintainer", nil)
		got := servertest.Object(t, r)
		assert.Equal(t, []any{f.group(t)}, got["groups"])
		assert.Equal(t, true, got["contains_hidden_groups"])
		assert.Len(t, got["eligible_approvers"], 5)
		// Someone else sees no approvers at all.
		r = f.In.Do(t, "GET", base+"/"+id(mixed), strangerToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		got = servertest.Object(t, r)
		assert.Equal(t, true, got["contains_hidden_groups"])
		assert.Equal(t, []any{}, got["eligible_approvers"])

		// Hidden groups survive an update of the groups unless remove_hidden_groups.
		r = f.Do(t, "PUT", base+"/"+id(mixed), "maintainer", js(t, map[string]any{"group_ids": []int{f.Group.ID}}))
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, true, servertest.Object(t, r)["contains_hidden_groups"])
		r = f.Do(t, "PUT", base+"/"+id(mixed), "maintainer", js(t, map[string]any{"group_ids": []int{f.Group.ID}, "remove_hidden_groups": true}))
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, false, servertest.Object(t, r)["contains_hidden_groups"])
		r = f.Do(t, "GET", base+"/"+id(mixed), "root", nil)
		assert.Equal(t, []any{f.group(t)}, servertest.Object(t, r)["groups"])
		require.Equal(t, 204, f.Do(t, "DELETE", base+"/"+id(mixed), "maintainer", nil).Status)
	})

	t.Run("delete", func(t *testing.T) {
		r := f.Do(t, "DELETE", base+"/"+id(created), "maintainer", nil)
		require.Equal(t, 204, r.Status, r.String())
		servertest.RequireError(t, f.Do(t, "GET", base+"/"+id(created), "maintainer", nil), 404, "message", "404 Not found")
		servertest.RequireError(t, f.Do(t, "DELETE", base+"/"+id(created), "maintainer", nil), 404, "message", "404 Not found")
	})
}

// TestMergeRequestApprovalRules: a merge request follows its project's rules until it has
// rules of its own (one made from a project rule copies it), and its approvals follow them.
func TestMergeRequestApprovalRules(t *testing.T) {
	f := newFixture(t)
	r := f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/approval_rules", "maintainer", js(t, map[string]any{
		"name": "security", "approvals_required": 1, "user_ids": []int{f.Users["reporter"].ID, f.Users["maintainer"].ID}}))
	require.Equal(t, 201, r.Status, r.String())
	projectRule := servertest.Object(t, r)
	rules := f.base + "/approval_rules"

	// Without rules of its own the merge request lists none and follows the project's.
	r = f.Do(t, "GET", rules, "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []any{}, servertest.Decode[[]any](t, r))
	r = f.Do(t, "GET", f.base+"/approval_state", "developer", nil)
	st := servertest.Object(t, r)
	assert.Equal(t, false, st["approval_rules_overwritten"])
	assert.Equal(t, projectRule["id"], st["rules"].([]any)[0].(map[string]any)["id"])

	// A rule made from the project's: its name and approvers are copied, approvals_required is
	// the one given; it overrides its source.
	r = f.Do(t, "POST", rules, "developer", url.Values{"name": {"ignored"}, "approvals_required": {"2"},
		"approval_project_rule_id": {id(projectRule)}})
	require.Equal(t, 201, r.Status, r.String())
	own := servertest.Object(t, r)
	assert.Equal(t, map[string]any{
		"id": own["id"], "name": "security", "rule_type": "regular", "report_type": nil,
		"eligible_approvers": []any{f.user(t, "reporter"), f.user(t, "maintainer")}, "approvals_required": float64(2),
		"users": []any{f.user(t, "reporter"), f.user(t, "maintainer")}, "groups": []any{}, "contains_hidden_groups": false,
		"section": nil, "source_rule": map[string]any{"approvals_required": float64(1)}, "overridden": true,
	}, own)

	// A rule without approvers is any_approver.
	r = f.Do(t, "POST", rules, "developer", url.Values{"name": {"Anyone"}, "approvals_required": {"1"}})
	require.Equal(t, 201, r.Status, r.String())
	anyRule := servertest.Object(t, r)
	assert.Equal(t, "any_approver", anyRule["rule_type"])
	assert.Nil(t, anyRule["source_rule"])
	assert.Equal(t, false, anyRule["overridden"])

	r = f.Do(t, "GET", rules, "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	list := servertest.List(t, r)
	require.Len(t, list, 2)
	assert.Equal(t, own, list[0])
	r = f.Do(t, "GET", rules+"/"+id(own), "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, own, servertest.Object(t, r))

	// The merge request's approvals follow its rules: 2 + 1 required.
	r = f.Do(t, "GET", f.base+"/approvals", "developer", nil)
	got := servertest.Object(t, r)
	assert.Equal(t, float64(3), got["approvals_required"])
	assert.Equal(t, float64(3), got["approvals_left"])
	r = f.Do(t, "POST", f.base+"/approve", "reporter", nil)
	require.Equal(t, 201, r.Status, r.String())
	got = servertest.Object(t, r)
	// The reporter counts for both rules: security needs one more, the any_approver rule none.
	assert.Equal(t, float64(1), got["approvals_left"])
	assert.Equal(t, false, got["approved"])
	assert.Equal(t, []any{map[string]any{"id": own["id"], "name": "security", "rule_type": "regular"}}, got["approval_rules_left"])
	r = f.Do(t, "GET", f.base+"/approval_state", "developer", nil)
	st = servertest.Object(t, r)
	assert.Equal(t, true, st["approval_rules_overwritten"])
	stRules := st["rules"].([]any)
	require.Len(t, stRules, 2)
	first := stRules[0].(map[string]any)
	assert.Equal(t, own["id"], first["id"])
	assert.Equal(t, []any{f.user(t, "reporter")}, first["approved_by"])
	assert.Equal(t, false, first["approved"])
	assert.Equal(t, map[string]any{"approvals_required": float64(1)}, first["source_rule"])
	assert.Equal(t, true, first["overridden"])
	assert.Equal(t, true, stRules[1].(map[string]any)["approved"])

	// Back to the source rule's approvals: no longer overridden; the merge request is approved.
	r = f.Do(t, "PUT", rules+"/"+id(own), "developer", url.Values{"approvals_required": {"1"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, false, servertest.Object(t, r)["overridden"])
	r = f.Do(t, "GET", f.base+"/approvals", "developer", nil)
	assert.Equal(t, true, servertest.Object(t, r)["approved"])

	// Validation and permissions: readers read, update_merge_request writes (the author, a
	// Developer), Reporters are 403, anonymous writes 401.
	servertest.RequireError(t, f.Do(t, "POST", rules, "developer", url.Values{"approvals_required": {"1"}}), 400, "error", "name is missing")
	r = f.Do(t, "POST", rules, "developer", url.Values{"name": {"security"}, "approvals_required": {"1"},
		"user_ids": {strconv.Itoa(f.Users["reporter"].ID)}})
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"name": []any{"has already been taken"}}}, servertest.Object(t, r))
	servertest.RequireError(t, f.Do(t, "POST", rules, "reporter", url.Values{"name": {"x"}, "approvals_required": {"1"}}), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "POST", rules, "", url.Values{"name": {"x"}, "approvals_required": {"1"}}), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "DELETE", rules+"/"+id(anyRule), "reporter", nil), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "GET", rules+"/"+id(projectRule), "reporter", nil), 404, "message", "404 Not found")

	// Deleting a rule: 204.
	r = f.Do(t, "DELETE", rules+"/"+id(anyRule), "maintainer", nil)
	require.Equal(t, 204, r.Status, r.String())
	r = f.Do(t, "GET", rules, "reporter", nil)
	assert.Len(t, servertest.List(t, r), 1)

	// A project that does not let merge requests override their approvers: 403.
	r = f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/approvals", "maintainer",
		url.Values{"disable_overriding_approvers_per_merge_request": {"true"}})
	require.Equal(t, 201, r.Status, r.String())
	servertest.RequireError(t, f.Do(t, "POST", rules, "developer", url.Values{"name": {"x"}, "approvals_required": {"1"}}), 403, "message", "403 Forbidden")
	// Its project's rules apply again.
	r = f.Do(t, "GET", f.base+"/approval_state", "developer", nil)
	st = servertest.Object(t, r)
	assert.Equal(t, false, st["approval_rules_overwritten"])
	assert.Equal(t, projectRule["id"], st["rules"].([]any)[0].(map[string]any)["id"])
}

// TestApproverIDsFilter: approver_ids lists the merge requests of which every given user is an
// approver, through the merge request's own rules or, without them, its project's; None and
// Any select the merge requests without and with rules.
func TestApproverIDsFilter(t *testing.T) {
	f := newFixture(t)
	repo := f.Repo(t, f.P)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature2", servertest.Commit(t, repo, main.Commit.ID, "other.txt", 2))
	mrs := "/projects/" + strconv.Itoa(f.P.ID) + "/merge_requests"
	r := f.Do(t, "POST", mrs, "developer", url.Values{"source_branch": {"feature2"}, "target_branch": {"main"}, "title": {"Second"}})
	require.Equal(t, 201, r.Status, r.String())

	iids := func(t *testing.T, query string) []int {
		t.Helper()
		r := f.Do(t, "GET", mrs+"?"+query, "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		out := []int{}
		for _, m := range servertest.List(t, r) {
			out = append(out, int(m["iid"].(float64)))
		}
		return out
	}
	uid := func(name string) string { return strconv.Itoa(f.Users[name].ID) }

	// No rules anywhere.
	assert.Equal(t, []int{2, 1}, iids(t, "approver_ids=None"))
	assert.Equal(t, []int{}, iids(t, "approver_ids=Any"))
	assert.Equal(t, []int{}, iids(t, "approver_ids[]="+uid("reporter")))

	// !1 gets a rule of its own naming the reporter and group g (its members approve).
	r = f.Do(t, "POST", f.base+"/approval_rules", "developer", js(t, map[string]any{"name": "own", "approvals_required": 1,
		"user_ids": []int{f.Users["reporter"].ID}, "group_ids": []int{f.Group.ID}}))
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, []int{2}, iids(t, "approver_ids=None"))
	assert.Equal(t, []int{1}, iids(t, "approver_ids=Any"))
	assert.Equal(t, []int{1}, iids(t, "approver_ids[]="+uid("reporter")))
	assert.Equal(t, []int{1}, iids(t, "approver_ids[]="+uid("reporter")+"&approver_ids[]="+uid("developer")))
	assert.Equal(t, []int{}, iids(t, "approver_ids[]="+uid("outsider")))
	assert.Equal(t, []int{}, iids(t, "approver_ids[]="+uid("reporter")+"&approver_ids[]="+uid("outsider")))

	// A project rule naming the maintainer applies to !2 only (!1 has rules of its own).
	r = f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/approval_rules", "maintainer", js(t, map[string]any{
		"name": "project", "approvals_required": 1, "user_ids": []int{f.Users["maintainer"].ID}}))
	require.Equal(t, 201, r.Status, r.String())
	projectRule := servertest.Object(t, r)
	assert.Equal(t, []int{}, iids(t, "approver_ids=None"))
	assert.Equal(t, []int{2, 1}, iids(t, "approver_ids=Any"))
	// The maintainer approves !1 through group g and !2 through the project rule.
	assert.Equal(t, []int{2, 1}, iids(t, "approver_ids[]="+uid("maintainer")))
	assert.Equal(t, []int{1}, iids(t, "approver_ids[]="+uid("reporter")))
	assert.Equal(t, []int{2}, iids(t, "approver_ids[]="+uid("maintainer")+"&state=opened&source_branch=feature2"))
	// Not an integer: 400.
	r = f.Do(t, "GET", mrs+"?approver_ids[]=abc", "reporter", nil)
	assert.Equal(t, 400, r.Status, r.String())

	// Both merge requests may take a rule from the same project rule.
	for _, iid := range []string{"1", "2"} {
		r = f.Do(t, "POST", mrs+"/"+iid+"/approval_rules", "developer", url.Values{"name": {"x"}, "approvals_required": {"1"},
			"approval_project_rule_id": {id(projectRule)}})
		require.Equal(t, 201, r.Status, r.String())
		assert.Equal(t, "project", servertest.Object(t, r)["name"])
	}
	assert.Equal(t, []int{2, 1}, iids(t, "approver_ids[]="+uid("maintainer")))
	assert.Equal(t, []int{1}, iids(t, "approver_ids[]="+uid("reporter"))) // !1's first rule
}

// TestResetApprovalsOnPush: with reset_approvals_on_push (the default) a push to the source
// branch removes the approvals and the pusher writes GitLab's note; without it they stay.
func TestResetApprovalsOnPush(t *testing.T) {
	f := newFixture(t)
	f.In.WaitJobs(t)
	push := func(t *testing.T, file string) {
		t.Helper()
		r := f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/repository/commits", "developer", js(t, map[string]any{
			"branch": "feature", "commit_message": "More " + file,
			"actions": []map[string]any{{"action": "create", "file_path": file, "content": "more\n"}},
		}))
		require.Equal(t, 201, r.Status, r.String())
		f.In.WaitJobs(t)
	}
	approvedBy := func(t *testing.T) []any {
		t.Helper()
		r := f.Do(t, "GET", f.base+"/approvals", "developer", nil)
		require.Equal(t, 200, r.Status, r.String())
		return servertest.Object(t, r)["approved_by"].([]any)
	}
	for _, who := range []string{"maintainer", "root"} {
		r := f.Do(t, "POST", f.base+"/approve", who, nil)
		require.Equal(t, 201, r.Status, r.String())
	}
	require.Len(t, approvedBy(t), 2)

	push(t, "a.txt")
	assert.Equal(t, []any{}, approvedBy(t))
	n, err := f.In.DB.Client.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.System(true),
		note.BodyHasPrefix("reset approvals")).Only(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "reset approvals from @maintainer and @root by pushing to the branch", n.Body)
	require.NotNil(t, n.AuthorID)
	assert.Equal(t, f.Users["developer"].ID, *n.AuthorID)
	// The maintainer may approve again.
	r := f.Do(t, "POST", f.base+"/approve", "maintainer", nil)
	require.Equal(t, 201, r.Status, r.String())

	// Without reset_approvals_on_push the approvals survive a push, and no note is written.
	r = f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/approvals", "maintainer", url.Values{"reset_approvals_on_push": {"false"}})
	require.Equal(t, 201, r.Status, r.String())
	push(t, "b.txt")
	assert.Equal(t, []any{map[string]any{"user": f.user(t, "maintainer")}}, approvedBy(t))
	count, err := f.In.DB.Client.Note.Query().Where(note.BodyHasPrefix("reset approvals")).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, count)
}
