package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEpicTree: child epics listed, assigned, created and removed; cycles, repeats, self
// links, too deep trees, other hierarchies and confidentiality clashes refused with GitLab's
// sentences.
func TestEpicTree(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "tree", "public", nil)
	sub := in.NewGroup(t, "branch", "public", g)
	other := in.NewGroup(t, "other", "public", nil)
	base := "/groups/" + strconv.Itoa(g.ID) + "/epics"
	tok := servertest.RootToken
	mk := func(gid int, title string, extra ...string) map[string]any {
		form := url.Values{"title": {title}}
		for i := 0; i+1 < len(extra); i += 2 {
			form.Set(extra[i], extra[i+1])
		}
		return newEpic(t, in, gid, tok, form)
	}
	id := func(e map[string]any) string { return strconv.Itoa(num(e["id"])) }
	root := mk(g.ID, "Root")
	a := mk(g.ID, "A")
	b := mk(sub.ID, "B")
	far := mk(other.ID, "Far")

	// Assign A and B (from a subgroup) under Root.
	r := in.Do(t, "POST", base+"/1/epics/"+id(a), tok, nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, num(root["id"]), num(servertest.Object(t, r)["parent_id"]))
	r = in.Do(t, "POST", "/groups/"+strconv.Itoa(g.ID)+"/-/epics/1/epics/"+id(b), tok, nil)
	require.Equal(t, 201, r.Status, r.String())
	kids := servertest.List(t, in.Do(t, "GET", base+"/1/epics", tok, nil))
	assert.Equal(t, []string{"A", "B"}, []string{kids[0]["title"].(string), kids[1]["title"].(string)})
	assert.Equal(t, "tree/branch&1", kids[1]["references"].(map[string]any)["relative"])

	// Refusals (409 with GitLab's sentence, 404 for an epic out of reach).
	servertest.RequireError(t, in.Do(t, "POST", base+"/1/epics/"+id(a), tok, nil), 409, "message",
		"This epic cannot be added. It is already assigned to the parent epic.")
	servertest.RequireError(t, in.Do(t, "POST", base+"/1/epics/"+id(root), tok, nil), 409, "message",
		"This epic cannot be added. An epic cannot be added to itself.")
	servertest.RequireError(t, in.Do(t, "POST", base+"/2/epics/"+id(root), tok, nil), 409, "message",
		"This epic cannot be added. It is already an ancestor of the parent epic.")
	servertest.RequireError(t, in.Do(t, "POST", base+"/1/epics/"+id(far), tok, nil), 409, "message",
		"This epic cannot be added. An epic must belong to the same group or subgroup as its parent epic.")
	servertest.RequireError(t, in.Do(t, "POST", base+"/1/epics/999999", tok, nil), 404, "message",
		"No matching epic found. Make sure that you are adding a valid epic URL.")
	// A cycle through an update of parent_id is refused as well.
	r = in.Do(t, "PUT", base+"/1", tok, url.Values{"parent_id": {id(a)}})
	assert.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"parent": []any{"This epic cannot be added. It is already an ancestor of the parent epic."}}}, servertest.Object(t, r))

	// Depth: a chain of 7 is the deepest tree.
	chain := []map[string]any{mk(g.ID, "L1")}
	for i := 2; i <= 7; i++ {
		chain = append(chain, mk(g.ID, "L"+strconv.Itoa(i), "parent_id", id(chain[len(chain)-1])))
	}
	deep := mk(g.ID, "L8")
	servertest.RequireError(t, in.Do(t, "POST", base+"/"+strconv.Itoa(num(chain[6]["iid"]))+"/epics/"+id(deep), tok, nil), 409, "message",
		"This epic cannot be added. One or more epics would exceed the maximum depth (7) from its most distant ancestor.")
	// Moving a two-level subtree under level 6 would make 8 levels.
	servertest.RequireError(t, in.Do(t, "POST", base+"/"+strconv.Itoa(num(chain[5]["iid"]))+"/epics/"+id(root), tok, nil), 409, "message",
		"This epic cannot be added. One or more epics would exceed the maximum depth (7) from its most distant ancestor.")

	// Confidentiality: a public epic under a confidential parent is refused; a new child
	// inherits the parent's confidentiality; a confidential epic may not hold public children.
	secret := mk(g.ID, "Secret", "confidential", "true")
	secretPath := base + "/" + strconv.Itoa(num(secret["iid"]))
	servertest.RequireError(t, in.Do(t, "POST", secretPath+"/epics/"+id(deep), tok, nil), 409, "message",
		"A non-confidential epic cannot be assigned to a confidential parent epic")
	r = in.Do(t, "POST", base, tok, url.Values{"title": {"x"}, "parent_id": {id(secret)}})
	assert.Equal(t, map[string]any{"message": map[string]any{"confidential": []any{"A non-confidential epic cannot be assigned to a confidential parent epic"}}}, servertest.Object(t, r))
	r = in.Do(t, "PUT", base+"/1", tok, url.Values{"confidential": {"true"}})
	assert.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"confidential": []any{"Cannot make the epic confidential if it contains non-confidential child epics"}}}, servertest.Object(t, r))

	// Create a child: GitLab's short form, confidentiality from the parent.
	r = in.Do(t, "POST", secretPath+"/epics", tok, url.Values{"title": {"Hush"}})
	require.Equal(t, 201, r.Status, r.String())
	linked := servertest.Object(t, r)
	assert.Equal(t, []string{"group_id", "has_children", "has_issues", "id", "iid", "parent_id", "reference", "relation_url", "title", "url"}, servertest.Keys(linked))
	assert.Equal(t, num(secret["id"]), num(linked["parent_id"]))
	assert.Equal(t, in.URL+"/groups/tree/-/epics/"+strconv.Itoa(num(linked["iid"])), linked["url"])
	assert.Equal(t, in.URL+"/groups/tree/-/epics/"+strconv.Itoa(num(secret["iid"]))+"/links/"+id(linked), linked["relation_url"])
	assert.Equal(t, "&"+strconv.Itoa(num(linked["iid"])), linked["reference"])
	r = in.Do(t, "GET", base+"/"+strconv.Itoa(num(linked["iid"])), tok, nil)
	assert.Equal(t, true, servertest.Object(t, r)["confidential"])
	r = in.Do(t, "POST", secretPath+"/epics", tok, url.Values{})
	servertest.RequireError(t, r, 400, "error", "title is missing")

	// A parent the caller cannot reach is ignored on create, as GitLab does.
	hidden := in.NewGroup(t, "vault", "private", nil)
	locked := mk(hidden.ID, "Locked")
	u, utok := in.NewUser(t, "planner")
	in.AddGroupMember(t, g, u, 20)
	r = in.Do(t, "POST", base, utok, url.Values{"title": {"orphan"}, "parent_id": {id(locked)}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Nil(t, servertest.Object(t, r)["parent_id"])

	// Remove a child: 200 with the detached epic; removing it again is 404.
	r = in.Do(t, "DELETE", base+"/1/epics/"+id(a), tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Nil(t, servertest.Object(t, r)["parent_id"])
	servertest.RequireError(t, in.Do(t, "DELETE", base+"/1/epics/"+id(a), tok, nil), 404, "message", "No Epic found for given params")
	kids = servertest.List(t, in.Do(t, "GET", base+"/1/epics", tok, nil))
	assert.Len(t, kids, 1)

	// The tree needs a signed-in caller, even on a public group.
	assert.Equal(t, 401, in.Do(t, "GET", base+"/1/epics", "", nil).Status)
	// A confidential child is listed only for those who read confidential epics.
	guest, gtok := in.NewUser(t, "guest")
	in.AddGroupMember(t, g, guest, 10)
	c := mk(g.ID, "Hidden kid", "confidential", "true")
	require.Equal(t, 201, in.Do(t, "POST", base+"/1/epics/"+id(c), tok, nil).Status)
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"/1/epics", tok, nil)), 2)
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"/1/epics", gtok, nil)), 1)
	assert.Equal(t, 404, in.Do(t, "GET", secretPath+"/epics", gtok, nil).Status)
}
