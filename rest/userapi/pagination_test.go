package userapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestUsers_List_pagination checks offset pages, their headers and keyset pages.
func TestUsers_List_pagination(t *testing.T) {
	in := servertest.Start(t)
	// Names sort differently from ids: u01 is "Name 07", u07 is "Name 01".
	for i := 1; i <= 7; i++ {
		name := fmt.Sprintf("Name %02d", 8-i)
		in.NewUser(t, fmt.Sprintf("u%02d", i), func(in *users.CreateInput) { in.Name = name })
	}
	_, token := in.NewUser(t, "viewer", func(in *users.CreateInput) { in.Name = "Name 00" })
	base := in.URL + "/api/v4/users"

	t.Run("offset headers", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?per_page=3&page=2", token, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []string{"u05", "u04", "u03"}, names(t, r))
		h := r.Header
		assert.Equal(t, "9", h.Get("X-Total"))
		assert.Equal(t, "3", h.Get("X-Total-Pages"))
		assert.Equal(t, "3", h.Get("X-Per-Page"))
		assert.Equal(t, "2", h.Get("X-Page"))
		assert.Equal(t, "3", h.Get("X-Next-Page"))
		assert.Equal(t, "1", h.Get("X-Prev-Page"))
		assert.Equal(t, `<`+base+`?page=1&per_page=3>; rel="prev", <`+base+`?page=3&per_page=3>; rel="next", `+
			`<`+base+`?page=1&per_page=3>; rel="first", <`+base+`?page=3&per_page=3>; rel="last"`, h.Get("Link"))
	})
	t.Run("last page", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?per_page=3&page=3&active=true", token, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []string{"u02", "u01", "root"}, names(t, r))
		assert.Equal(t, []string{""}, r.Header.Values("X-Next-Page"))
		assert.Equal(t, "2", r.Header.Get("X-Prev-Page"))
		assert.Equal(t, `<`+base+`?active=true&page=2&per_page=3>; rel="prev", <`+base+`?active=true&page=1&per_page=3>; rel="first", `+
			`<`+base+`?active=true&page=3&per_page=3>; rel="last"`, r.Header.Get("Link"))
	})
	t.Run("first page and defaults", func(t *testing.T) {
		r := in.Do(t, "GET", "/users", token, nil)
		assert.Equal(t, "20", r.Header.Get("X-Per-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, []string{""}, r.Header.Values("X-Prev-Page"))
		assert.Equal(t, []string{""}, r.Header.Values("X-Next-Page"))
		assert.Len(t, servertest.List(t, r), 9)
	})
	t.Run("past the end is empty", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?page=9&per_page=5", token, nil)
		assert.Equal(t, http.StatusOK, r.Status)
		assert.Equal(t, "[]", string(r.Body))
		assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
	})
	t.Run("per_page is clamped to 100", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?per_page=500", token, nil)
		assert.Equal(t, http.StatusOK, r.Status)
		assert.Equal(t, "100", r.Header.Get("X-Per-Page"))
	})
	t.Run("invalid page parameters", func(t *testing.T) {
		for q, body := range map[string]string{
			"per_page=abc": `{"error":"per_page is invalid"}`,
			"page=abc":     `{"error":"page is invalid"}`,
			"per_page=0":   `{"error":"per_page does not have a valid value"}`,
		} {
			r := in.Do(t, "GET", "/users?"+q, token, nil)
			assert.Equal(t, http.StatusBadRequest, r.Status, q)
			assert.JSONEq(t, body, string(r.Body), q)
		}
	})
	t.Run("client-go walks the pages", func(t *testing.T) {
		gl := in.Client(t, token)
		opt := &gitlab.ListUsersOptions{ListOptions: gitlab.ListOptions{PerPage: 4}}
		var got []string
		for {
			page, resp, err := gl.Users.ListUsers(opt)
			require.NoError(t, err)
			for _, u := range page {
				got = append(got, u.Username)
			}
			assert.Equal(t, int64(9), resp.TotalItems)
			if resp.NextPage == 0 {
				break
			}
			opt.Page = resp.NextPage
		}
		assert.Equal(t, []string{"viewer", "u07", "u06", "u05", "u04", "u03", "u02", "u01", "root"}, got)
	})

	byName := []string{"root", "viewer", "u07", "u06", "u05", "u04", "u03", "u02", "u01"} // Administrator, Name 00, Name 01...
	byID := []string{"root", "u01", "u02", "u03", "u04", "u05", "u06", "u07", "viewer"}
	byUsername := sorted(byID...)
	reversed := func(s []string) []string { out := slices.Clone(s); slices.Reverse(out); return out }
	for _, tc := range []struct {
		desc, query, token string
		want               []string
	}{
		{"keyset default is id desc", "", servertest.RootToken, reversed(byID)},
		{"keyset id asc", "&order_by=id&sort=asc", servertest.RootToken, byID},
		{"keyset name asc", "&order_by=name&sort=asc", servertest.RootToken, byName},
		{"keyset name desc", "&order_by=name&sort=desc", servertest.RootToken, reversed(byName)},
		{"keyset username asc", "&order_by=username&sort=asc", servertest.RootToken, byUsername},
		{"keyset created_at desc", "&order_by=created_at&sort=desc", servertest.RootToken, reversed(byID)},
		{"keyset updated_at asc", "&order_by=updated_at&sort=asc", servertest.RootToken, byID},
		{"keyset for users ignores the order", "&order_by=name&sort=asc", token, reversed(byID)},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			path := "/users?pagination=keyset&per_page=2" + tc.query
			var got []string
			for pages := 0; path != ""; pages++ {
				require.Less(t, pages, 10)
				r := in.Do(t, "GET", path, tc.token, nil)
				require.Equal(t, http.StatusOK, r.Status, r.String())
				assert.Empty(t, r.Header.Get("X-Total"))
				assert.Empty(t, r.Header.Get("X-Page"))
				got = append(got, names(t, r)...)
				path = ""
				if link := r.Header.Get("Link"); link != "" {
					require.True(t, strings.HasPrefix(link, "<"+base+"?") && strings.HasSuffix(link, `>; rel="next"`), link)
					assert.Contains(t, link, "cursor=")
					assert.Contains(t, link, "pagination=keyset")
					path = relURL(in, strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`))
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("keyset last page has no link", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?pagination=keyset&per_page=100", token, nil)
		assert.Equal(t, http.StatusOK, r.Status)
		assert.Empty(t, r.Header.Get("Link"))
		assert.Len(t, servertest.List(t, r), 9)
	})
	t.Run("keyset with a bad cursor", func(t *testing.T) {
		for _, cursor := range []string{"!!!", "bm90IGpzb24", "eyJpZCI6IngifQ"} { // garbage, "not json", {"id":"x"}
			r := in.Do(t, "GET", "/users?pagination=keyset&cursor="+cursor, token, nil)
			assert.Equal(t, http.StatusBadRequest, r.Status, cursor)
			assert.JSONEq(t, `{"error":"cursor is invalid"}`, string(r.Body))
		}
	})
	t.Run("client-go follows keyset links", func(t *testing.T) {
		gl := in.Client(t, servertest.RootToken)
		opt := &gitlab.ListUsersOptions{ListOptions: gitlab.ListOptions{Pagination: "keyset", PerPage: 4}, OrderBy: gitlab.Ptr("name"), Sort: gitlab.Ptr("asc")}
		var got []string
		var opts []gitlab.RequestOptionFunc
		for {
			page, resp, err := gl.Users.ListUsers(opt, opts...)
			require.NoError(t, err)
			for _, u := range page {
				got = append(got, u.Username)
			}
			if resp.NextLink == "" {
				break
			}
			opts = []gitlab.RequestOptionFunc{gitlab.WithKeysetPaginationParameters(resp.NextLink)}
		}
		assert.Equal(t, byName, got)
	})
}

// names returns the usernames of a list response.
func names(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	out := []string{}
	for _, u := range servertest.List(t, r) {
		out = append(out, u["username"].(string))
	}
	return out
}
