package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEpicListFilters: each filter alone, None/Any, not[...], order and sort, the group
// hierarchy switches and pagination.
func TestEpicListFilters(t *testing.T) {
	in := servertest.Start(t)
	top := in.NewGroup(t, "top", "public", nil)
	g := in.NewGroup(t, "mid", "public", top)
	sub := in.NewGroup(t, "low", "public", g)
	hidden := in.NewGroup(t, "hidden", "private", g)
	alice, atok := in.NewUser(t, "alice")
	in.AddGroupMember(t, top, alice, 20)
	gid := strconv.Itoa(g.ID)

	// iid 1..4 in mid; 1 in low, top and hidden.
	newEpic(t, in, g.ID, servertest.RootToken, url.Values{"title": {"Alpha"}, "description": {"first plan"}, "labels": {"a,b"}})
	newEpic(t, in, g.ID, atok, url.Values{"title": {"Beta"}, "labels": {"a"}})
	newEpic(t, in, g.ID, atok, url.Values{"title": {"Gamma"}, "confidential": {"true"}})
	newEpic(t, in, g.ID, servertest.RootToken, url.Values{"title": {"Delta"}})
	in.Do(t, "PUT", "/groups/"+gid+"/epics/4", servertest.RootToken, url.Values{"state_event": {"close"}})
	newEpic(t, in, sub.ID, servertest.RootToken, url.Values{"title": {"Low"}})
	newEpic(t, in, top.ID, servertest.RootToken, url.Values{"title": {"Top"}})
	newEpic(t, in, hidden.ID, servertest.RootToken, url.Values{"title": {"Hidden"}})

	titles := func(query, token string) []string {
		t.Helper()
		r := in.Do(t, "GET", "/groups/"+gid+"/epics?"+query, token, nil)
		require.Equal(t, 200, r.Status, r.String())
		out := []string{}
		for _, e := range servertest.List(t, r) {
			out = append(out, e["title"].(string))
		}
		return out
	}
	const all = "include_descendant_groups=false&order_by=title&sort=asc"
	for _, c := range []struct {
		query, token string
		want         []string
	}{
		{all, "", []string{"Alpha", "Beta", "Delta"}},
		{all, atok, []string{"Alpha", "Beta", "Delta", "Gamma"}},
		{all + "&state=opened", atok, []string{"Alpha", "Beta", "Gamma"}},
		{all + "&state=closed", atok, []string{"Delta"}},
		{all + "&state=all", atok, []string{"Alpha", "Beta", "Delta", "Gamma"}},
		{all + "&author_id=" + strconv.Itoa(alice.ID), atok, []string{"Beta", "Gamma"}},
		{all + "&author_username=alice", atok, []string{"Beta", "Gamma"}},
		{all + "&not[author_id]=" + strconv.Itoa(alice.ID), atok, []string{"Alpha", "Delta"}},
		{all + "&not[author_username]=alice", atok, []string{"Alpha", "Delta"}},
		{all + "&labels=a", atok, []string{"Alpha", "Beta"}},
		{all + "&labels=a,b", atok, []string{"Alpha"}},
		{all + "&labels[]=a&labels[]=b", atok, []string{"Alpha"}},
		{all + "&labels=None", atok, []string{"Delta", "Gamma"}},
		{all + "&labels=Any", atok, []string{"Alpha", "Beta"}},
		{all + "&not[labels]=b", atok, []string{"Beta", "Delta", "Gamma"}},
		{all + "&labels=zzz", atok, []string{}},
		{all + "&search=PLAN", atok, []string{"Alpha"}},
		{all + "&search=gam", atok, []string{"Gamma"}},
		{all + "&confidential=true", atok, []string{"Gamma"}},
		{all + "&confidential=false", atok, []string{"Alpha", "Beta", "Delta"}},
		{all + "&confidential=true", "", []string{}},
		{"include_descendant_groups=false&order_by=title", atok, []string{"Gamma", "Delta", "Beta", "Alpha"}},
		{"include_descendant_groups=false", atok, []string{"Delta", "Gamma", "Beta", "Alpha"}},
		{"include_descendant_groups=false&sort=asc", atok, []string{"Alpha", "Beta", "Gamma", "Delta"}},
		// Descendants by default (the private subgroup only for those who read it); ancestors on request.
		{"order_by=title&sort=asc", "", []string{"Alpha", "Beta", "Delta", "Low"}},
		{"order_by=title&sort=asc", servertest.RootToken, []string{"Alpha", "Beta", "Delta", "Gamma", "Hidden", "Low"}},
		{"order_by=title&sort=asc&include_ancestor_groups=true&include_descendant_groups=false", "", []string{"Alpha", "Beta", "Delta", "Top"}},
	} {
		assert.Equal(t, c.want, titles(c.query, c.token), c.query)
	}

	// Date ranges.
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	assert.Equal(t, []string{}, titles(all+"&created_after="+future, atok))
	assert.Equal(t, []string{"Alpha", "Beta", "Delta", "Gamma"}, titles(all+"&created_after="+past, atok))
	assert.Equal(t, []string{}, titles(all+"&created_before="+past, atok))
	assert.Equal(t, []string{"Alpha", "Beta", "Delta", "Gamma"}, titles(all+"&updated_before="+future, atok))
	assert.Equal(t, []string{}, titles(all+"&updated_after="+future, atok))
	// updated_at order follows the last change (Delta was closed last).
	in.Do(t, "PUT", "/groups/"+gid+"/epics/2", servertest.RootToken, url.Values{"title": {"Beta 2"}})
	assert.Equal(t, []string{"Beta 2", "Delta"}, titles("include_descendant_groups=false&order_by=updated_at&per_page=2", atok))

	// Pagination headers.
	r := in.Do(t, "GET", "/groups/"+gid+"/epics?per_page=2&page=2&include_descendant_groups=false", atok, nil)
	require.Equal(t, 200, r.Status)
	assert.Equal(t, "4", r.Header.Get("X-Total"))
	assert.Equal(t, "2", r.Header.Get("X-Page"))
	assert.Len(t, servertest.List(t, r), 2)

	// Bad filters.
	for _, q := range []string{"state=open", "order_by=due_date", "sort=up", "author_id=x", "confidential=maybe",
		"author_id=1&author_username=root", "created_after=yesterday"} {
		r := in.Do(t, "GET", "/groups/"+gid+"/epics?"+q, atok, nil)
		assert.Equal(t, 400, r.Status, q+" "+r.String())
	}
}
