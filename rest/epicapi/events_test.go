package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEpics_resourceLabelEvents: creating an epic with labels and changing them (labels,
// add_labels, remove_labels) records GitLab's label events, listed oldest first and read one
// by one under /groups/:id/epics/:epic_iid/resource_label_events, in the issue events' shape
// with resource_type "Epic" and the epic's id; a confidential epic's events are 404 for those
// who may not read it, and an event of another epic is 404.
func TestEpics_resourceLabelEvents(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "plan", "public", nil)
	owner, ownerTok := in.NewUser(t, "owner")
	in.AddGroupMember(t, g, owner, 50)
	guest, guestTok := in.NewUser(t, "guest")
	in.AddGroupMember(t, g, guest, 10)
	_, outsiderTok := in.NewUser(t, "outsider")
	base := "/groups/" + strconv.Itoa(g.ID) + "/epics"

	e := newEpic(t, in, g.ID, ownerTok, url.Values{"title": {"Roadmap"}, "labels": {"alpha"}})
	r := in.Do(t, "PUT", base+"/1", ownerTok, url.Values{"add_labels": {"beta"}, "remove_labels": {"alpha"}})
	require.Equal(t, 200, r.Status, r.String())
	other := newEpic(t, in, g.ID, ownerTok, url.Values{"title": {"Other"}, "labels": {"gamma"}})

	r = in.Do(t, "GET", base+"/1/resource_label_events", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "3", r.Header.Get("X-Total"))
	list := servertest.List(t, r)
	require.Len(t, list, 3)
	type summary struct{ action, label string }
	var got []summary
	for _, ev := range list {
		got = append(got, summary{ev["action"].(string), ev["label"].(map[string]any)["name"].(string)})
		assert.Equal(t, "Epic", ev["resource_type"])
		assert.Equal(t, float64(num(e["id"])), ev["resource_id"])
		assert.Equal(t, "owner", ev["user"].(map[string]any)["username"])
	}
	assert.Equal(t, []summary{{"add", "alpha"}, {"add", "beta"}, {"remove", "alpha"}}, got)
	first := list[0]
	assert.ElementsMatch(t, []string{"id", "user", "created_at", "resource_type", "resource_id", "label", "action"}, keys(first))
	assert.ElementsMatch(t, []string{"id", "name", "color", "description"}, keys(first["label"].(map[string]any)))

	id := strconv.Itoa(num(first["id"]))
	r = in.Do(t, "GET", base+"/1/resource_label_events/"+id, guestTok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, first, servertest.Object(t, r))
	r = in.Do(t, "GET", "/groups/plan/-/epics/1/resource_label_events/"+id, guestTok, nil)
	assert.Equal(t, 200, r.Status, r.String())

	t.Run("not found", func(t *testing.T) {
		otherEvents := servertest.List(t, in.Do(t, "GET", base+"/2/resource_label_events", ownerTok, nil))
		require.Len(t, otherEvents, 1)
		assert.Equal(t, float64(num(other["id"])), otherEvents[0]["resource_id"])
		otherID := strconv.Itoa(num(otherEvents[0]["id"]))
		for path, msg := range map[string]string{
			base + "/1/resource_label_events/" + otherID: `{"message":"404 Not found"}`,
			base + "/1/resource_label_events/999999":     `{"message":"404 Not found"}`,
			base + "/9/resource_label_events":            `{"message":"404 Epic Not Found"}`,
			base + "/9/resource_label_events/" + id:      `{"message":"404 Epic Not Found"}`,
		} {
			r := in.Do(t, "GET", path, ownerTok, nil)
			assert.Equal(t, 404, r.Status, path)
			assert.JSONEq(t, msg, string(r.Body), path)
		}
		// GitLab finds the event by the id as given: anything but a number finds nothing.
		r := in.Do(t, "GET", base+"/1/resource_label_events/abc", ownerTok, nil)
		assert.Equal(t, 404, r.Status, r.String())
		assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))
	})

	t.Run("confidential epic", func(t *testing.T) {
		newEpic(t, in, g.ID, ownerTok, url.Values{"title": {"Secret"}, "labels": {"alpha"}, "confidential": {"true"}})
		for tok, want := range map[string]int{ownerTok: 200, guestTok: 404, outsiderTok: 404, "": 404} {
			r := in.Do(t, "GET", base+"/3/resource_label_events", tok, nil)
			assert.Equal(t, want, r.Status, r.String())
		}
	})

	t.Run("private group", func(t *testing.T) {
		hidden := in.NewGroup(t, "hidden", "private", nil)
		in.AddGroupMember(t, hidden, owner, 50)
		newEpic(t, in, hidden.ID, ownerTok, url.Values{"title": {"H"}, "labels": {"x"}})
		path := "/groups/" + strconv.Itoa(hidden.ID) + "/epics/1/resource_label_events"
		r := in.Do(t, "GET", path, outsiderTok, nil)
		assert.Equal(t, 404, r.Status, r.String())
		assert.JSONEq(t, `{"message":"404 Group Not Found"}`, string(r.Body))
		assert.Equal(t, 200, in.Do(t, "GET", path, ownerTok, nil).Status)
	})
	_ = guest
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
