package groupapi_test

import (
	"context"
	"fmt"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroupCustomAttributes(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "plain")
	g := in.NewGroup(t, "attrs", "public", nil)
	other := in.NewGroup(t, "other", "public", nil)
	sub := in.NewGroup(t, "sub", "public", g)
	base := fmt.Sprintf("/groups/%d/custom_attributes", g.ID)

	r := in.Do(t, "PUT", base+"/tier", servertest.RootToken, `{"value":"gold"}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.JSONEq(t, `{"key":"tier","value":"gold"}`, string(r.Body))
	r = in.Do(t, "PUT", "/groups/attrs/custom_attributes/region", servertest.RootToken, `{"value":"eu"}`)
	require.Equal(t, 200, r.Status, r.String())
	r = in.Do(t, "PUT", base+"/tier", servertest.RootToken, `{"value":"platinum"}`)
	require.Equal(t, 200, r.Status, r.String())
	r = in.Do(t, "GET", base, servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.JSONEq(t, `[{"key":"tier","value":"platinum"},{"key":"region","value":"eu"}]`, string(r.Body))
	r = in.Do(t, "GET", base+"/region", servertest.RootToken, nil)
	assert.JSONEq(t, `{"key":"region","value":"eu"}`, string(r.Body))
	servertest.RequireError(t, in.Do(t, "GET", base+"/none", servertest.RootToken, nil), 404, "message", "404 Not found")

	t.Run("filter and with_custom_attributes, for administrators", func(t *testing.T) {
		require.Equal(t, 200, in.Do(t, "PUT", fmt.Sprintf("/groups/%d/custom_attributes/tier", sub.ID), servertest.RootToken, `{"value":"gold"}`).Status)
		assert.Equal(t, []string{"attrs"}, paths(t, in.Do(t, "GET", "/groups?custom_attributes[tier]=platinum", servertest.RootToken, nil)))
		assert.Equal(t, []string{"attrs"}, paths(t, in.Do(t, "GET", "/groups?custom_attributes[tier]=platinum&custom_attributes[region]=eu", servertest.RootToken, nil)))
		assert.Empty(t, paths(t, in.Do(t, "GET", "/groups?custom_attributes[tier]=platinum&custom_attributes[region]=us", servertest.RootToken, nil)))
		// Ignored for others.
		assert.Equal(t, []string{"attrs", "other", "attrs/sub"}, paths(t, in.Do(t, "GET", "/groups?custom_attributes[tier]=platinum&all_available=true", tok, nil)))

		list := servertest.Decode[[]map[string]any](t, in.Do(t, "GET", "/groups?with_custom_attributes=true", servertest.RootToken, nil))
		require.Len(t, list, 3)
		assert.Equal(t, []any{map[string]any{"key": "tier", "value": "platinum"}, map[string]any{"key": "region", "value": "eu"}}, list[0]["custom_attributes"])
		assert.Equal(t, []any{}, list[1]["custom_attributes"])
		detail := servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/groups/%d?with_custom_attributes=true", sub.ID), servertest.RootToken, nil))
		assert.Equal(t, []any{map[string]any{"key": "tier", "value": "gold"}}, detail["custom_attributes"])
		detail = servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/groups/%d?with_custom_attributes=true", sub.ID), tok, nil))
		assert.NotContains(t, detail, "custom_attributes")
		_ = other
	})

	r = in.Do(t, "DELETE", base+"/region", servertest.RootToken, nil)
	assert.Equal(t, 204, r.Status, r.String())
	servertest.RequireError(t, in.Do(t, "DELETE", base+"/region", servertest.RootToken, nil), 404, "message", "404 Custom attribute Not Found")

	t.Run("refusals", func(t *testing.T) {
		servertest.RequireError(t, in.Do(t, "GET", base, tok, nil), 403, "message", "403 Forbidden")
		servertest.RequireError(t, in.Do(t, "PUT", base+"/tier", tok, `{"value":"x"}`), 403, "message", "403 Forbidden")
		servertest.RequireError(t, in.Do(t, "DELETE", base+"/tier", "", nil), 401, "message", "401 Unauthorized")
		servertest.RequireError(t, in.Do(t, "GET", "/groups/999999/custom_attributes", servertest.RootToken, nil), 404, "message", "404 Group Not Found")
		servertest.RequireError(t, in.Do(t, "PUT", base+"/tier", servertest.RootToken, `{}`), 400, "error", "value is missing")
	})

	t.Run("client-go", func(t *testing.T) {
		gl := in.Client(t, servertest.RootToken)
		a, _, err := gl.CustomAttribute.SetCustomGroupAttribute(int64(other.ID), gitlab.CustomAttribute{Key: "k", Value: "v"})
		require.NoError(t, err)
		assert.Equal(t, "v", a.Value)
		list, _, err := gl.CustomAttribute.ListCustomGroupAttributes(int64(other.ID))
		require.NoError(t, err)
		require.Len(t, list, 1)
		_, err = gl.CustomAttribute.DeleteCustomGroupAttribute(int64(other.ID), "k")
		require.NoError(t, err)
	})

	t.Run("a deleted group's attributes go with it", func(t *testing.T) {
		r := in.Do(t, "DELETE", fmt.Sprintf("/groups/%d", g.ID), servertest.RootToken, nil)
		require.Equal(t, 202, r.Status, r.String())
		n, err := in.DB.Client.GroupCustomAttribute.Query().Count(context.Background())
		require.NoError(t, err)
		assert.Zero(t, n)
	})
}

func TestGroups_keyset(t *testing.T) {
	in := servertest.Start(t)
	for _, name := range []string{"delta", "alpha", "echo", "charlie", "bravo"} {
		in.NewGroup(t, name, "public", nil)
	}
	walk := func(query, token string) [][]string {
		t.Helper()
		var pages [][]string
		path := "/groups?pagination=keyset&per_page=2" + query
		for i := 0; path != "" && i < 10; i++ {
			r := in.Do(t, "GET", path, token, nil)
			require.Equal(t, 200, r.Status, r.String())
			assert.Empty(t, r.Header.Get("X-Total"))
			pages = append(pages, paths(t, r))
			path = ""
			if link := r.Header.Get("Link"); link != "" {
				require.Regexp(t, `^<http://[^>]+>; rel="next"$`, link)
				path = link[1 : len(link)-len(`>; rel="next"`)]
			}
		}
		return pages
	}
	assert.Equal(t, [][]string{{"alpha", "bravo"}, {"charlie", "delta"}, {"echo"}}, walk("", ""))
	assert.Equal(t, [][]string{{"echo", "delta"}, {"charlie", "bravo"}, {"alpha"}}, walk("&order_by=name&sort=desc", servertest.RootToken))
	assert.Equal(t, [][]string{{"delta", "alpha"}, {"echo", "charlie"}, {"bravo"}}, walk("&order_by=id", servertest.RootToken))

	servertest.RequireError(t, in.Do(t, "GET", "/groups?pagination=keyset&order_by=similarity&search=alp", "", nil), 405,
		"error", "Keyset pagination is not yet available for this type of request")
	servertest.RequireError(t, in.Do(t, "GET", "/groups?pagination=keyset&cursor=***", "", nil), 400, "error", "cursor is invalid")
	// Keyset pages are not capped like offset pages.
	r := in.Do(t, "GET", "/groups?pagination=keyset&page=5000&per_page=20", "", nil)
	assert.Equal(t, 200, r.Status, r.String())
	servertest.RequireError(t, in.Do(t, "GET", "/groups?page=5000&per_page=20", "", nil), 405, "error",
		"Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Group. Remaining records can be retrieved using keyset pagination.")

	// client-go walks the keyset pages through the Link header.
	gl := in.Client(t, "")
	opt := &gitlab.ListGroupsOptions{ListOptions: gitlab.ListOptions{Pagination: "keyset", PerPage: 2, OrderBy: "name", Sort: "asc"}}
	var names []string
	var options []gitlab.RequestOptionFunc
	for i := 0; i < 10; i++ {
		groups, resp, err := gl.Groups.ListGroups(opt, options...)
		require.NoError(t, err)
		for _, g := range groups {
			names = append(names, g.Path)
		}
		if resp.NextLink == "" {
			break
		}
		options = []gitlab.RequestOptionFunc{gitlab.WithKeysetPaginationParameters(resp.NextLink)}
	}
	assert.Equal(t, []string{"alpha", "bravo", "charlie", "delta", "echo"}, names)
}
