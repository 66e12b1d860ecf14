package milestoneapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMilestoneUpdateNullClears: python-gitlab's save() sends an attribute set to None as JSON
// null. GitLab counts such a key as given (at_least_one_of) and clears the attribute; a body
// of nulls only is therefore no "at least one parameter" error.
func TestMilestoneUpdateNullClears(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "nul", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	for _, base := range []string{"/projects/" + strconv.Itoa(p.ID) + "/milestones", "/groups/" + strconv.Itoa(g.ID) + "/milestones"} {
		m := create(t, in, base, url.Values{"title": {"v1"}, "description": {"d"}, "start_date": {"2030-01-01"}, "due_date": {"2030-02-01"}})
		path := base + "/" + strconv.Itoa(int(m["id"].(float64)))

		r := in.Do(t, "PUT", path, servertest.RootToken, `{"due_date":null}`)
		require.Equal(t, 200, r.Status, r.String())
		got := decode[map[string]any](t, r)
		assert.Nil(t, got["due_date"], base)
		assert.Equal(t, "2030-01-01", got["start_date"], base)
		assert.Equal(t, "d", got["description"], base)

		r = in.Do(t, "PUT", path, servertest.RootToken, `{"state_event":"close","title":"v2","start_date":null,"description":null}`)
		require.Equal(t, 200, r.Status, r.String())
		got = decode[map[string]any](t, r)
		for k, v := range map[string]any{"state": "closed", "title": "v2", "start_date": nil, "description": nil, "due_date": nil} {
			assert.Equal(t, v, got[k], base+" "+k)
		}

		r = in.Do(t, "GET", path, servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		got = decode[map[string]any](t, r)
		assert.Nil(t, got["start_date"], base)
		assert.Nil(t, got["description"], base)

		r = in.Do(t, "PUT", path, servertest.RootToken, `{}`)
		assert.Equal(t, 400, r.Status, r.String())
		assert.JSONEq(t, `{"error":"title, description, start_date, due_date, state_event are missing, at least one parameter must be provided"}`, string(r.Body))
	}
}
