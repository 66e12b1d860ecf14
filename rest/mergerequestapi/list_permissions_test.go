package mergerequestapi_test

import (
	"context"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
)

// TestMergeRequestListVisibility: who sees which merge requests in the project, group and
// global lists, by project visibility and by the merge requests and repository features.
// Merge requests show code: a Guest of a private project reads none (read_merge_request is
// Reporter's there), and the project list says 403.
func TestMergeRequestListVisibility(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	g := in.NewGroup(t, "vis", "public", nil)
	sub := in.NewGroup(t, "sub", "public", g)
	public := in.NewProject(t, g, "public", "public")
	internal := in.NewProject(t, g, "internal", "internal")
	private := in.NewProject(t, g, "private", "private")
	subPublic := in.NewProject(t, sub, "deep", "public")
	mrsPrivate := in.NewProject(t, g, "mrs-private", "public")
	in.DB.Client.Project.UpdateOneID(mrsPrivate.ID).SetMergeRequestsAccessLevel("private").ExecX(ctx)
	mrsOff := in.NewProject(t, g, "mrs-off", "public")
	in.DB.Client.Project.UpdateOneID(mrsOff.ID).SetMergeRequestsAccessLevel("disabled").ExecX(ctx)
	repoPrivate := in.NewProject(t, g, "repo-private", "public")
	in.DB.Client.Project.UpdateOneID(repoPrivate.ID).SetRepositoryAccessLevel("private").ExecX(ctx)
	// The roles are members of the top group (and so of every project in it).
	roles := servertest.Roles(t, in, "mrvis", g)
	root := rootUser(t, in)
	for title, p := range map[string]*ent.Project{"public": public, "internal": internal, "private": private,
		"deep": subPublic, "mrs-private": mrsPrivate, "mrs-off": mrsOff, "repo-private": repoPrivate} {
		seedMR(t, in, p, listMR{title: title, author: root})
	}

	all := []string{"deep", "internal", "mrs-private", "private", "public", "repo-private"}
	reporterUp := all
	want := map[string]struct {
		group    []string
		projects map[string]int // status of each project's list
	}{
		"anonymous": {[]string{"deep", "public"},
			map[string]int{"public": 200, "internal": 404, "private": 404, "mrs-private": 401, "mrs-off": 401, "repo-private": 401}},
		"non-member": {[]string{"deep", "internal", "public"},
			map[string]int{"public": 200, "internal": 200, "private": 404, "mrs-private": 403, "mrs-off": 403, "repo-private": 403}},
		"guest": {[]string{"deep", "internal", "public", "repo-private"},
			map[string]int{"public": 200, "internal": 200, "private": 403, "mrs-private": 403, "mrs-off": 403, "repo-private": 200}},
		"reporter":   {reporterUp, map[string]int{"public": 200, "internal": 200, "private": 200, "mrs-private": 200, "mrs-off": 403, "repo-private": 200}},
		"developer":  {reporterUp, map[string]int{"public": 200, "internal": 200, "private": 200, "mrs-private": 200, "mrs-off": 403, "repo-private": 200}},
		"maintainer": {reporterUp, map[string]int{"public": 200, "internal": 200, "private": 200, "mrs-private": 200, "mrs-off": 403, "repo-private": 200}},
		"owner":      {reporterUp, map[string]int{"public": 200, "internal": 200, "private": 200, "mrs-private": 200, "mrs-off": 403, "repo-private": 200}},
		"admin":      {all, map[string]int{"public": 200, "internal": 200, "private": 200, "mrs-private": 200, "mrs-off": 403, "repo-private": 200}},
	}
	ids := map[string]int{"public": public.ID, "internal": internal.ID, "private": private.ID, "mrs-private": mrsPrivate.ID,
		"mrs-off": mrsOff.ID, "repo-private": repoPrivate.ID}
	for _, r := range roles {
		w := want[r.Name]
		t.Run(r.Name, func(t *testing.T) {
			assert.Equal(t, w.group, listTitlesSorted(t, in.Do(t, "GET", "/groups/"+strconv.Itoa(g.ID)+"/merge_requests", r.Token, nil)), "group")
			assert.Equal(t, w.group, listTitlesSorted(t, in.Do(t, "GET", "/merge_requests?scope=all", r.Token, nil)), "global")
			for name, status := range w.projects {
				resp := in.Do(t, "GET", "/projects/"+strconv.Itoa(ids[name])+"/merge_requests", r.Token, nil)
				assert.Equal(t, status, resp.Status, name+": "+resp.String())
				if status == 200 {
					assert.Equal(t, []string{name}, listTitles(t, resp), name)
				}
			}
		})
	}
}
