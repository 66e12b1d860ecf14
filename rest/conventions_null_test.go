package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Update bodies distinguish a key left out (the attribute is kept), a key sent as JSON null
// (the attribute is cleared, as GitLab keeps the key and sets the attribute to nil) and a
// value, on every update endpoint with an attribute that can be cleared.
func TestConventions_updateBodiesKeepNull(t *testing.T) {
	in := servertest.Start(t)
	rootToken := servertest.RootToken
	member, _ := in.NewUser(t, "member")
	owner, _ := in.NewUser(t, "owner")
	g := in.NewGroup(t, "nulls", "public", nil)
	in.AddGroupMember(t, g, owner, 50)
	p := in.NewProject(t, g, "proj", "public")
	in.AddProjectMember(t, p, member, 30)

	for _, tc := range []struct {
		name    string
		path    string // PUT path
		extra   string // other keys every body carries (required parameters, or at least one)
		key     string
		value   any // a value to set first
		cleared any // what the attribute reads after null
	}{
		{name: "project description", path: fmt.Sprintf("/projects/%d", p.ID), extra: `"name":"proj"`, key: "description", value: "a project", cleared: nil},
		{name: "project ci_config_path", path: fmt.Sprintf("/projects/%d", p.ID), extra: `"name":"proj"`, key: "ci_config_path", value: "ci/pipeline.yml", cleared: ""},
		{name: "group description", path: fmt.Sprintf("/groups/%d", g.ID), key: "description", value: "a group", cleared: ""},
		{name: "user bio", path: fmt.Sprintf("/users/%d", member.ID), key: "bio", value: "hello", cleared: ""},
		{name: "user website_url", path: fmt.Sprintf("/users/%d", member.ID), key: "website_url", value: "https://example.com", cleared: ""},
		{name: "member expires_at", path: fmt.Sprintf("/projects/%d/members/%d", p.ID, member.ID), extra: `"access_level":30`,
			key: "expires_at", value: "2999-01-02", cleared: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := func(kv string) string {
				parts := ""
				for _, s := range []string{tc.extra, kv} {
					if s != "" {
						if parts != "" {
							parts += ","
						}
						parts += s
					}
				}
				return "{" + parts + "}"
			}
			read := func(r *servertest.Response) any {
				t.Helper()
				require.Equal(t, http.StatusOK, r.Status, r.String())
				var obj map[string]any
				require.NoError(t, json.Unmarshal(r.Body, &obj))
				v, ok := obj[tc.key]
				require.True(t, ok, "the answer shows %s: %s", tc.key, r.Body)
				return v
			}
			raw, err := json.Marshal(tc.value)
			require.NoError(t, err)
			assert.Equal(t, tc.value, read(in.Do(t, "PUT", tc.path, rootToken, body(fmt.Sprintf("%q:%s", tc.key, raw)))))
			assert.Equal(t, tc.value, read(in.Do(t, "PUT", tc.path, rootToken, body(""))), "a key left out keeps the attribute")
			assert.Equal(t, tc.cleared, read(in.Do(t, "PUT", tc.path, rootToken, body(fmt.Sprintf("%q:null", tc.key)))), "null clears it")
		})
	}

	t.Run("a form clears with an empty value", func(t *testing.T) {
		path := fmt.Sprintf("/projects/%d/members/%d", p.ID, member.ID)
		r := in.Do(t, "PUT", path, rootToken, url.Values{"access_level": {"30"}, "expires_at": {"2999-01-02"}})
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "2999-01-02", servertest.Object(t, r)["expires_at"])
		r = in.Do(t, "PUT", path, rootToken, url.Values{"access_level": {"30"}, "expires_at": {""}})
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Nil(t, servertest.Object(t, r)["expires_at"])
		r = in.Do(t, "PUT", fmt.Sprintf("/projects/%d", p.ID), rootToken, url.Values{"description": {"x"}})
		require.Equal(t, http.StatusOK, r.Status, r.String())
		r = in.Do(t, "PUT", fmt.Sprintf("/projects/%d", p.ID), rootToken, url.Values{"description": {""}})
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Nil(t, servertest.Object(t, r)["description"], "an empty description reads as null, as GitLab's")
	})
}
