package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConventions_parameterEncodings sends the same parameters as a query string, a form body, a
// multipart body and a JSON body (and mixed) and expects the same result: arrays (name[]),
// arrays of hashes (name[][key], name[0][key]), hashes (name[key]) and dates.
func TestConventions_parameterEncodings(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	alice, _ := in.NewUser(t, "alice")
	expires := time.Now().AddDate(0, 2, 0).Format("2006-01-02")
	tokenPath := fmt.Sprintf("/users/%d/personal_access_tokens", alice.ID)

	t.Run("arrays and dates", func(t *testing.T) {
		fields := [][2]string{{"name", "enc"}, {"scopes[]", "api"}, {"scopes[]", "read_user"}, {"expires_at", expires}}
		ctMultipart, multi := multipartBody(t, fields)
		for _, tc := range []struct {
			desc string
			req  request
		}{
			{"query string", request{path: tokenPath + "?" + formBody(fields)}},
			{"form", request{path: tokenPath, contentType: "application/x-www-form-urlencoded", body: stringsReader(formBody(fields))}},
			{"form with charset", request{path: tokenPath, contentType: "application/x-www-form-urlencoded; charset=UTF-8", body: stringsReader(formBody(fields))}},
			{"multipart", request{path: tokenPath, contentType: ctMultipart, body: multi}},
			{"json", request{path: tokenPath, contentType: "application/json",
				body: stringsReader(`{"name":"enc","scopes":["api","read_user"],"expires_at":"` + expires + `"}`)}},
			{"json with charset", request{path: tokenPath, contentType: "application/json; charset=utf-8",
				body: stringsReader(`{"name":"enc","scopes":["api","read_user"],"expires_at":"` + expires + `"}`)}},
			{"query and json mixed", request{path: tokenPath + "?name=enc&expires_at=" + expires, contentType: "application/json",
				body: stringsReader(`{"scopes":["api","read_user"]}`)}},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				tc.req.method, tc.req.token = "POST", root
				r := send(t, in, tc.req)
				require.Equal(t, 201, r.Status, r.String())
				tok := servertest.Object(t, r)
				assert.Equal(t, "enc", tok["name"])
				assert.Equal(t, []any{"api", "read_user"}, tok["scopes"])
				assert.Equal(t, expires, tok["expires_at"])
				assert.EqualValues(t, alice.ID, tok["user_id"])
			})
		}
	})

	t.Run("arrays of hashes", func(t *testing.T) {
		g := in.NewGroup(t, "enc", "private", nil)
		in.NewProject(t, g, "p", "private")
		grouped := [][2]string{{"allowed_to_push[][access_level]", "40"}, {"allowed_to_push[][access_level]", "30"}}
		indexed := [][2]string{{"allowed_to_push[1][access_level]", "30"}, {"allowed_to_push[0][access_level]", "40"}}
		for i, tc := range []struct {
			desc string
			req  func(name string) request
		}{
			{"form name[][key]", func(name string) request {
				return request{contentType: "application/x-www-form-urlencoded", body: stringsReader(formBody(append([][2]string{{"name", name}}, grouped...)))}
			}},
			{"form name[n][key]", func(name string) request {
				return request{contentType: "application/x-www-form-urlencoded", body: stringsReader(formBody(append([][2]string{{"name", name}}, indexed...)))}
			}},
			{"multipart name[][key]", func(name string) request {
				ct, body := multipartBody(t, append([][2]string{{"name", name}}, grouped...))
				return request{contentType: ct, body: body}
			}},
			{"query name[][key]", func(name string) request {
				return request{path: "?" + formBody(append([][2]string{{"name", name}}, grouped...))}
			}},
			{"json", func(name string) request {
				return request{contentType: "application/json",
					body: stringsReader(`{"name":"` + name + `","allowed_to_push":[{"access_level":40},{"access_level":"30"}]}`)}
			}},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				req := tc.req(fmt.Sprintf("branch-%d", i))
				req.method, req.token, req.path = "POST", root, "/projects/enc%2Fp/protected_branches"+req.path
				r := send(t, in, req)
				require.Equal(t, 201, r.Status, r.String())
				var pb struct {
					Name string `json:"name"`
					Push []struct {
						AccessLevel int `json:"access_level"`
					} `json:"push_access_levels"`
				}
				require.NoError(t, json.Unmarshal(r.Body, &pb))
				assert.Equal(t, fmt.Sprintf("branch-%d", i), pb.Name)
				levels := []int{}
				for _, p := range pb.Push {
					levels = append(levels, p.AccessLevel)
				}
				assert.Equal(t, []int{40, 30}, levels)
			})
		}
	})

	t.Run("hashes", func(t *testing.T) {
		r := in.Do(t, "PUT", fmt.Sprintf("/users/%d/custom_attributes/team", alice.ID), root, url.Values{"value": {"blue team"}})
		require.Equal(t, 200, r.Status, r.String())
		for _, q := range []string{"custom_attributes[team]=blue+team", "custom_attributes%5Bteam%5D=blue%20team"} {
			r = in.Do(t, "GET", "/users?"+q, root, nil)
			require.Equal(t, 200, r.Status, r.String())
			got := servertest.List(t, r)
			require.Len(t, got, 1, q)
			assert.Equal(t, "alice", got[0]["username"])
		}
		requireJSONError(t, in.Do(t, "GET", "/users?custom_attributes=plain", root, nil), 400, `{"error":"custom_attributes is invalid"}`)
	})
}

// TestConventions_booleansInGrapeSpellings checks Grape's boolean coercion in filters (query
// strings) and in write bodies (form, multipart as python-gitlab sends "1"/"0", JSON).
func TestConventions_booleansInGrapeSpellings(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	g := in.NewGroup(t, "shared", "public", nil)
	in.NewProject(t, g, "other", "public")
	in.NewProject(t, in.PersonalNamespace(t, alice), "mine", "private")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "edit", "private")

	names := func(r *servertest.Response) []string {
		out := []string{}
		for _, m := range servertest.List(t, r) {
			out = append(out, m["path"].(string))
		}
		return out
	}
	for _, v := range []string{"1", "true", "True", "TRUE", "t", "T", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON"} {
		r := in.Do(t, "GET", "/projects?order_by=id&sort=asc&owned="+v, aliceToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, []string{"mine", "edit"}, names(r), "owned=%s", v)
	}
	for _, v := range []string{"0", "false", "False", "FALSE", "f", "F", "no", "No", "NO", "n", "N", "off", "Off", "OFF"} {
		r := in.Do(t, "GET", "/projects?order_by=id&sort=asc&owned="+v, aliceToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, []string{"other", "mine", "edit"}, names(r), "owned=%s", v)
	}
	for _, v := range []string{"maybe", "2", "", "truee", "%00"} {
		r := in.Do(t, "GET", "/projects?owned="+v, aliceToken, nil)
		requireJSONError(t, r, 400, `{"error":"owned is invalid"}`)
	}

	edit := fmt.Sprintf("/projects/%d", p.ID)
	for _, tc := range []struct {
		desc string
		req  request
		want bool
	}{
		{"form yes", request{contentType: "application/x-www-form-urlencoded", body: stringsReader("lfs_enabled=yes")}, true},
		{"form no", request{contentType: "application/x-www-form-urlencoded", body: stringsReader("lfs_enabled=no")}, false},
		{"form True", request{contentType: "application/x-www-form-urlencoded", body: stringsReader("lfs_enabled=True")}, true},
		{"form False", request{contentType: "application/x-www-form-urlencoded", body: stringsReader("lfs_enabled=False")}, false},
		{"query 1", request{path: "?lfs_enabled=1"}, true},
		{"query 0", request{path: "?lfs_enabled=0"}, false},
		{"json true", request{contentType: "application/json", body: stringsReader(`{"lfs_enabled":true}`)}, true},
		{"json false", request{contentType: "application/json", body: stringsReader(`{"lfs_enabled":false}`)}, false},
		{"json string 1", request{contentType: "application/json", body: stringsReader(`{"lfs_enabled":"1"}`)}, true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tc.req.method, tc.req.token, tc.req.path = "PUT", aliceToken, edit+tc.req.path
			r := send(t, in, tc.req)
			require.Equal(t, 200, r.Status, r.String())
			assert.Equal(t, tc.want, servertest.Object(t, r)["lfs_enabled"])
		})
	}
	for _, v := range []string{"1", "0"} {
		ct, body := multipartBody(t, [][2]string{{"lfs_enabled", v}})
		r := send(t, in, request{method: "PUT", path: edit, token: aliceToken, contentType: ct, body: body})
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, v == "1", servertest.Object(t, r)["lfs_enabled"], "multipart %s", v)
	}
	requireJSONError(t, in.Do(t, "PUT", edit, aliceToken, `{"lfs_enabled":"sure"}`), 400, `{"error":"lfs_enabled is invalid"}`)
	requireJSONError(t, in.Do(t, "PUT", edit, aliceToken, `{"lfs_enabled":[true]}`), 400, `{"error":"lfs_enabled is invalid"}`)
}

// TestConventions_datetimes checks ISO 8601 datetimes with Z and with offsets (sent as %2B in
// query strings), dates, and their errors, on the admin created_after/created_before filters.
func TestConventions_datetimes(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	in.NewUser(t, "alice")
	now := time.Now().UTC()
	india := time.FixedZone("IST", 5*3600+30*60)
	newYork := time.FixedZone("EST", -5*3600)

	// has reports whether alice is in GET /users with a raw (already encoded) query.
	has := func(t *testing.T, rawQuery string) bool {
		t.Helper()
		r := in.Do(t, "GET", "/users?username=alice&"+rawQuery, root, nil)
		require.Equal(t, 200, r.Status, r.String())
		return len(servertest.List(t, r)) == 1
	}
	enc := func(tm time.Time, layout string) string { return url.QueryEscape(tm.Format(layout)) }

	for _, tc := range []struct {
		desc, query string
		want        bool
	}{
		{"Z, after an hour ago", "created_after=" + enc(now.Add(-time.Hour), time.RFC3339), true},
		{"Z, after in an hour", "created_after=" + enc(now.Add(time.Hour), time.RFC3339), false},
		{"Z with milliseconds", "created_after=" + enc(now.Add(-time.Hour), "2006-01-02T15:04:05.000Z07:00"), true},
		// An hour ago written in +05:30 reads as 4h30 in the future if the offset were dropped.
		{"+05:30 offset", "created_after=" + enc(now.Add(-time.Hour).In(india), time.RFC3339), true},
		{"+05:30 offset, before", "created_before=" + enc(now.Add(-time.Hour).In(india), time.RFC3339), false},
		// In an hour written in -05:00 reads as 4h ago if the offset were dropped.
		{"-05:00 offset", "created_before=" + enc(now.Add(time.Hour).In(newYork), time.RFC3339), true},
		{"+0530 without colon", "created_after=" + enc(now.Add(-time.Hour).In(india), "2006-01-02T15:04:05-0700"), true},
		{"date, after yesterday", "created_after=" + now.AddDate(0, 0, -1).Format("2006-01-02"), true},
		{"date, before yesterday", "created_before=" + now.AddDate(0, 0, -1).Format("2006-01-02"), false},
		{"date, before tomorrow", "created_before=" + now.AddDate(0, 0, 2).Format("2006-01-02"), true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, has(t, tc.query), tc.query)
		})
	}

	for _, bad := range []string{"yesterday", "2020-13-45", "2020-01-01T25:00:00Z", "1700000000", strings.Repeat("9", 300)} {
		requireJSONError(t, in.Do(t, "GET", "/users?created_after="+url.QueryEscape(bad), root, nil), 400, `{"error":"created_after is invalid"}`)
	}
	requireJSONError(t, in.Do(t, "POST", "/user/personal_access_tokens", root, `{"name":"x","scopes":["k8s_proxy"],"expires_at":"2020-02-30"}`),
		400, `{"error":"expires_at is invalid"}`)
}
