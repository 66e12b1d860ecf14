package mergerequestapi_test

import (
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answer is an expected status and, for refusals, GitLab's message.
type answer struct {
	status int
	msg    string
}

var (
	ok           = answer{200, ""}
	created      = answer{201, ""}
	deleted      = answer{204, ""}
	unauthorized = answer{401, "401 Unauthorized"}
	forbidden    = answer{403, "403 Forbidden"}
	noProject    = answer{404, "404 Project Not Found"}
	noMR         = answer{404, "404 Merge Request Not Found"}
)

// TestMergeRequestPermissions: who may read, open, edit and delete a project's merge requests,
// by project visibility, as GitLab's ProjectPolicy decides: read_merge_request is everyone's in
// a public project, signed-in users' in an internal one and Reporters' in a private one (Guests
// read no code there: 404 Merge Request Not Found); opening one from the project's branches is
// create_merge_request_from (Developer), editing update_merge_request (Developer, or the
// author or an assignee who reads it), deleting destroy_merge_request (Owner, administrator).
// An unreadable project is 404 Project Not Found; the writes need a signed-in caller (401).
func TestMergeRequestPermissions(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	roles := servertest.Roles(t, f.In, "pm", f.Group)

	type row struct{ read, create, update, destroy answer }
	member := func(read answer) map[string]row {
		return map[string]row{
			"guest":      {read, forbidden, map[bool]answer{true: noMR, false: forbidden}[read == noMR], map[bool]answer{true: noMR, false: forbidden}[read == noMR]},
			"reporter":   {ok, forbidden, forbidden, forbidden},
			"developer":  {ok, created, ok, forbidden},
			"maintainer": {ok, created, ok, forbidden},
			"owner":      {ok, created, ok, deleted},
			"admin":      {ok, created, ok, deleted},
		}
	}
	want := map[string]map[string]row{
		"private":  member(noMR),
		"internal": member(ok),
		"public":   member(ok),
	}
	want["private"]["anonymous"] = row{noProject, unauthorized, unauthorized, unauthorized}
	want["private"]["non-member"] = row{noProject, noProject, noProject, noProject}
	want["internal"]["anonymous"] = row{noProject, unauthorized, unauthorized, unauthorized}
	want["internal"]["non-member"] = row{ok, forbidden, forbidden, forbidden}
	want["public"]["anonymous"] = row{ok, unauthorized, unauthorized, unauthorized}
	want["public"]["non-member"] = row{ok, forbidden, forbidden, forbidden}

	check := func(t *testing.T, r *servertest.Response, a answer, what string) {
		t.Helper()
		if a.msg != "" {
			servertest.RequireError(t, r, a.status, "message", a.msg)
			return
		}
		assert.Equal(t, a.status, r.Status, what+": "+r.String())
	}
	for _, vis := range []string{"private", "internal", "public"} {
		p := f.ProjectWithReadme(t, "app-"+vis, vis)
		for _, b := range []string{"feature", "mine", "spare"} {
			addBranch(t, f, p, b, b+".txt")
		}
		base := "/projects/" + strconv.Itoa(p.ID) + "/merge_requests"
		open := func(branch string) int {
			r := f.Do(t, "POST", base, "root", js(t, map[string]any{"source_branch": branch, "target_branch": "main", "title": "Feature"}))
			require.Equal(t, 201, r.Status, r.String())
			return int(servertest.Object(t, r)["iid"].(float64))
		}
		first := strconv.Itoa(open("feature"))
		t.Run(vis, func(t *testing.T) {
			for _, role := range roles {
				w, found := want[vis][role.Name]
				require.True(t, found, role.Name)
				t.Run(role.Name, func(t *testing.T) {
					r := f.In.Do(t, "GET", base+"/"+first, role.Token, nil)
					check(t, r, w.read, "read")
					if w.read == ok {
						assert.Equal(t, "Feature", servertest.Object(t, r)["title"])
					}

					// Opening one from the project's own branch "mine" (a second open one from the
					// same branches is refused, so each success is deleted again).
					r = f.In.Do(t, "POST", base, role.Token, js(t, map[string]any{"source_branch": "mine", "target_branch": "main", "title": "By " + role.Name}))
					if w.create == created && r.Status == 409 {
						t.Fatalf("an earlier merge request was left open: %s", r.String())
					}
					check(t, r, w.create, "create")
					if r.Status == 201 {
						mr := servertest.Object(t, r)
						assert.Equal(t, "By "+role.Name, mr["title"])
						assert.Equal(t, float64(role.User.ID), mr["author"].(map[string]any)["id"])
						require.Equal(t, 204, f.Do(t, "DELETE", base+"/"+strconv.Itoa(int(mr["iid"].(float64))), "root", nil).Status)
					}

					r = f.In.Do(t, "PUT", base+"/"+first, role.Token, js(t, map[string]any{"title": "Feature"}))
					check(t, r, w.update, "update")

					iid := first
					if w.destroy == deleted {
						iid = strconv.Itoa(open("spare"))
					}
					r = f.In.Do(t, "DELETE", base+"/"+iid, role.Token, nil)
					check(t, r, w.destroy, "delete")
					if w.destroy == deleted {
						assert.Empty(t, r.Body)
						servertest.RequireError(t, f.Do(t, "GET", base+"/"+iid, "root", nil), 404, "message", "404 Merge Request Not Found")
					}
				})
			}
		})
		// The merge request survived every refusal.
		require.Equal(t, 200, f.Do(t, "GET", base+"/"+first, "root", nil).Status)
	}
}

// TestMergeRequestPermissions_authorAndAssignee: update_merge_request also belongs to the
// merge request's author and assignees who read it (GitLab's IssuablePolicy), so a Reporter
// assigned to it edits it, and loses that once unassigned.
func TestMergeRequestPermissions_authorAndAssignee(t *testing.T) {
	f := newMRFixture(t, "private")
	rep := f.Users["reporter"]
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Feature"})
	put := func(role string, body map[string]any) *servertest.Response {
		return f.Do(t, "PUT", f.base+"/1", role, js(t, body))
	}
	servertest.RequireError(t, put("reporter", map[string]any{"title": "By the reporter"}), 403, "message", "403 Forbidden")
	r := put("developer", map[string]any{"assignee_ids": []int{rep.ID}})
	require.Equal(t, 200, r.Status, r.String())
	r = put("reporter", map[string]any{"title": "By the reporter"})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "By the reporter", servertest.Object(t, r)["title"])
	r = put("developer", map[string]any{"assignee_ids": []int{}})
	require.Equal(t, 200, r.Status, r.String())
	servertest.RequireError(t, put("reporter", map[string]any{"title": "Again"}), 403, "message", "403 Forbidden")
	// The guest reads no merge request of this private project.
	servertest.RequireError(t, put("guest", map[string]any{"title": "By the guest"}), 404, "message", "404 Merge Request Not Found")
}
