package issueapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type role struct {
	name  string
	token string
	user  *ent.User
}

// roles are anonymous, a non-member, Guest..Owner members of g, and an administrator.
func roles(t *testing.T, in *servertest.Instance, g *ent.Namespace) []role {
	out := []role{{name: "anonymous"}}
	u, tok := in.NewUser(t, "nonmember")
	out = append(out, role{"non-member", tok, u})
	for _, l := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"owner", 50}} {
		u, tok := in.NewUser(t, l.name)
		in.AddGroupMember(t, g, u, l.level)
		out = append(out, role{l.name, tok, u})
	}
	u, tok = in.NewUser(t, "theadmin", servertest.Admin)
	return append(out, role{"admin", tok, u})
}

// TestIssuePermissions: who reads, creates, updates and deletes issues of a private project.
func TestIssuePermissions(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "perm", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues"
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"root's"}})

	want := map[string]struct{ list, create, updateOthers, deleteStatus int }{
		"anonymous":  {404, 401, 401, 401},
		"non-member": {404, 404, 404, 404},
		"guest":      {200, 201, 403, 403},
		"reporter":   {200, 201, 200, 403},
		"developer":  {200, 201, 200, 403},
		"maintainer": {200, 201, 200, 403},
		"owner":      {200, 201, 200, 204},
		"admin":      {200, 201, 200, 204},
	}
	for _, r := range roles(t, in, g) {
		w := want[r.name]
		t.Run(r.name, func(t *testing.T) {
			assert.Equal(t, w.list, in.Do(t, "GET", base, r.token, nil).Status, "list")
			assert.Equal(t, w.list, in.Do(t, "GET", base+"/1", r.token, nil).Status, "read")
			resp := in.Do(t, "POST", base, r.token, url.Values{"title": {"by " + r.name}, "labels": {"triaged"}})
			require.Equal(t, w.create, resp.Status, resp.String())
			resp = in.Do(t, "PUT", base+"/1", r.token, url.Values{"description": {"edited by " + r.name}})
			assert.Equal(t, w.updateOthers, resp.Status, resp.String())
			if w.create != 201 {
				return
			}
			own := decode[map[string]any](t, in.Do(t, "POST", base, r.token, url.Values{"title": {"own"}}))
			ownPath := base + "/" + strconv.Itoa(int(own["iid"].(float64)))
			// An author edits and closes their own issue; labels need triage rights (Reporter).
			resp = in.Do(t, "PUT", ownPath, r.token, url.Values{"title": {"own, edited"}, "state_event": {"close"}, "add_labels": {"x"}})
			require.Equal(t, 200, resp.Status, resp.String())
			got := decode[map[string]any](t, resp)
			assert.Equal(t, "closed", got["state"])
			if r.name == "guest" {
				assert.Equal(t, []any{}, got["labels"], "a guest's labels are dropped")
			} else {
				assert.Equal(t, []any{"x"}, got["labels"])
			}
			resp = in.Do(t, "DELETE", ownPath, r.token, nil)
			assert.Equal(t, w.deleteStatus, resp.Status, resp.String())
		})
	}
	// An unknown project and an invisible one answer alike.
	_, tok := in.NewUser(t, "stranger")
	assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(in.Do(t, "GET", base+"/1", tok, nil).Body))
	assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(in.Do(t, "GET", "/projects/999/issues/1", tok, nil).Body))

	// With the issues feature disabled, an issue is not found even for the owner.
	in.DB.Client.Project.UpdateOneID(p.ID).SetIssuesAccessLevel("disabled").ExecX(context.Background())
	resp := in.Do(t, "GET", base+"/1", servertest.RootToken, nil)
	assert.Equal(t, 404, resp.Status)
	assert.JSONEq(t, `{"message":"404 Issue Not Found"}`, string(resp.Body))
	assert.Equal(t, []int{}, iids(t, in.Do(t, "GET", base, servertest.RootToken, nil)))
	assert.Equal(t, 403, in.Do(t, "POST", base, servertest.RootToken, url.Values{"title": {"x"}}).Status)
}

// TestConfidentialIssues: a confidential issue is seen only by Reporters and above, its
// author and its assignees, in single reads, every list and every count.
func TestConfidentialIssues(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "conf", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	guest, gtok := in.NewUser(t, "guest")
	in.AddProjectMember(t, p, guest, 10)
	reporter, rtok := in.NewUser(t, "reporter")
	require.NotNil(t, reporter)
	in.AddProjectMember(t, p, reporter, 20)
	assignee, stok := in.NewUser(t, "assignee")
	_, otok := in.NewUser(t, "outsider")
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues"
	id := strconv.Itoa

	newIssue(t, in, p.ID, gtok, url.Values{"title": {"public"}})                                   // 1
	newIssue(t, in, p.ID, gtok, url.Values{"title": {"guest's secret"}, "confidential": {"true"}}) // 2
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"assigned secret"}, "confidential": {"true"},
		"assignee_ids": {id(assignee.ID)}}) // 3
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"root's secret"}, "confidential": {"true"}}) // 4

	for _, c := range []struct {
		name  string
		token string
		sees  []int
	}{
		{"anonymous", "", []int{1}},
		{"outsider", otok, []int{1}},
		{"guest author", gtok, []int{1, 2}},
		{"assignee", stok, []int{1, 3}},
		{"reporter", rtok, []int{1, 2, 3, 4}},
		{"admin", servertest.RootToken, []int{1, 2, 3, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.sees, iids(t, in.Do(t, "GET", base, c.token, nil)), "project list")
			assert.Equal(t, c.sees, iids(t, in.Do(t, "GET", "/groups/"+id(g.ID)+"/issues", c.token, nil)), "group list")
			assert.Equal(t, c.sees, iids(t, in.Do(t, "GET", "/issues?scope=all", c.token, nil)), "global list")
			counts := `{"statistics":{"counts":{"all":` + id(len(c.sees)) + `,"closed":0,"opened":` + id(len(c.sees)) + `}}}`
			for _, path := range []string{base + "_statistics", "/groups/" + id(g.ID) + "/issues_statistics", "/issues_statistics?scope=all"} {
				r := in.Do(t, "GET", path, c.token, nil)
				require.Equal(t, 200, r.Status, r.String())
				assert.JSONEq(t, counts, string(r.Body), path)
			}
			for iid := 1; iid <= 4; iid++ {
				want := 404
				for _, s := range c.sees {
					if s == iid {
						want = 200
					}
				}
				r := in.Do(t, "GET", base+"/"+id(iid), c.token, nil)
				assert.Equal(t, want, r.Status, "read #%d", iid)
				if want == 404 {
					assert.JSONEq(t, `{"message":"404 Issue Not Found"}`, string(r.Body))
					if c.token != "" {
						assert.Equal(t, 404, in.Do(t, "PUT", base+"/"+id(iid), c.token, url.Values{"title": {"x"}}).Status)
					}
				}
			}
		})
	}
}
