package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
)

// fuzzRoutes are the routes the API fuzzer drives; {id} is replaced by the fuzzed identifier
// (path-escaped), {pid}, {gid} and {uid} by fixture ids.
var fuzzRoutes = []struct{ method, path string }{
	{"GET", "/api/v4/projects"},
	{"GET", "/api/v4/projects/{id}"},
	{"PUT", "/api/v4/projects/{pid}"},
	{"POST", "/api/v4/projects"},
	{"GET", "/api/v4/groups"},
	{"GET", "/api/v4/groups/{id}/subgroups"},
	{"POST", "/api/v4/groups"},
	{"PUT", "/api/v4/groups/{gid}"},
	{"GET", "/api/v4/users"},
	{"GET", "/api/v4/users/{id}"},
	{"POST", "/api/v4/users"},
	{"PUT", "/api/v4/users/{uid}"},
	{"GET", "/api/v4/projects/{pid}/members/all"},
	{"POST", "/api/v4/groups/{gid}/members"},
	{"PUT", "/api/v4/groups/{gid}/members/{id}"},
	{"POST", "/api/v4/users/{uid}/personal_access_tokens"},
	{"GET", "/api/v4/personal_access_tokens"},
	{"POST", "/api/v4/projects/{pid}/share"},
	{"POST", "/api/v4/projects/{pid}/protected_branches"},
	{"PUT", "/api/v4/users/{uid}/custom_attributes/{id}"},
	{"GET", "/api/v4/projects/{rid}/repository/tree"},
	{"GET", "/api/v4/projects/{rid}/repository/files/{id}"},
	{"GET", "/api/v4/projects/{rid}/repository/branches/{id}"},
	{"POST", "/api/v4/projects/{rid}/repository/branches"},
	{"GET", "/api/v4/projects/{rid}/repository/commits"},
	{"GET", "/api/v4/projects/{rid}/repository/compare"},
	{"GET", "/api/v4/project_repository_storage_moves/{id}"},
	{"POST", "/api/v4/project_repository_storage_moves"},
	{"POST", "/api/v4/projects/{pid}/repository_storage_moves"},
}

// fuzzTypes are the body content types the fuzzer picks from.
var fuzzTypes = []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=fz", "", "text/plain"}

// FuzzAPI_paramsNeverPanic drives the whole HTTP stack in-process (routing, authentication,
// parameter parsing, services, database) with fuzzed identifiers, query strings and bodies on a
// set of routes: every answer must be below 500 and, when it has a body, JSON. A plain
// `go test` runs the seed corpus only; `go test -run '^$' -fuzz FuzzAPI_paramsNeverPanic ./rest/`
// explores.
func FuzzAPI_paramsNeverPanic(f *testing.F) {
	in := servertest.Start(f)
	g := in.NewGroup(f, "fz", "private", nil)
	p := in.NewProject(f, g, "fp", "private")
	u, _ := in.NewUser(f, "fuzzy")
	r := in.Do(f, "POST", "/projects", servertest.RootToken, fmt.Sprintf(`{"name":"fr","namespace_id":%d,"initialize_with_readme":true}`, g.ID))
	if r.Status != http.StatusCreated {
		f.Fatalf("create repository project: %s", r.String())
	}
	var repo struct{ ID int }
	if err := json.Unmarshal(r.Body, &repo); err != nil {
		f.Fatal(err)
	}
	repl := strings.NewReplacer("{pid}", fmt.Sprint(p.ID), "{gid}", fmt.Sprint(g.ID), "{uid}", fmt.Sprint(u.ID), "{rid}", fmt.Sprint(repo.ID))

	for i := range fuzzRoutes {
		for _, seed := range []struct {
			id, query, body string
			ct              uint8
		}{
			{"fz%2Ffp", "page=2&per_page=abc", `{"name":"x","path":"x"}`, 0},
			{"1", "visibility=secret&owned=maybe", "name=a%ff&path=b", 1},
			{"fz/fp", "search=%00&created_after=2020-01-01T00:00:00%2B05:30", "--fz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nn\r\n--fz--\r\n", 2},
			{"-1", "a[b][c][]=1&a[b][d]=%ff&sort=desc&order_by=id", `{"name":`, 0},
			{"\x00", "scopes[]=api&expires_at=2020-02-30&access_level=99", `{"user_id":"x","access_level":[1],"scopes":{"a":1}}`, 0},
			{"99999999999999999999", "custom_attributes[k]=v&pagination=keyset&per_page=1000", `[1,2]`, 0},
			{"a+b", "", "\xff\xfe", 3},
			{"", "per_page=0&page=-5", `{"name":"n","visibility":"public","namespace_id":"999999","parent_id":null}`, 4},
			{"README.md", "ref=main&from=main&to=HEAD~1&path=..%2F..&branch=x&page_token=a", `{"branch":"new/b","ref":"main"}`, 0},
			{"..%2F..%2Fetc%2Fpasswd", "ref=-o&recursive=true&pagination=keyset&per_page=1", "branch=-x&ref=--upload-pack", 1},
		} {
			f.Add(uint8(i), seed.id, seed.query, seed.body, seed.ct)
		}
	}

	f.Fuzz(func(t *testing.T, route uint8, id, query, body string, ct uint8) {
		r := fuzzRoutes[int(route)%len(fuzzRoutes)]
		path := strings.ReplaceAll(repl.Replace(r.path), "{id}", url.PathEscape(id))
		u, err := url.Parse(path)
		if err != nil {
			t.Fatalf("escaped path %q does not parse: %v", path, err)
		}
		u.RawQuery = query
		req := httptest.NewRequest(r.method, "/", strings.NewReader(body))
		req.URL = u
		req.RequestURI = u.RequestURI()
		if typ := fuzzTypes[int(ct)%len(fuzzTypes)]; typ != "" {
			req.Header.Set("Content-Type", typ)
		}
		req.Header.Set("PRIVATE-TOKEN", servertest.RootToken)
		w := httptest.NewRecorder()
		in.Handler.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s?%q body %q: %d %s", r.method, path, query, body, w.Code, w.Body.String())
		}
		if w.Code == http.StatusNoContent || w.Body.Len() == 0 {
			return
		}
		if got := w.Header().Get("Content-Type"); got != "application/json" {
			t.Fatalf("%s %s: Content-Type %q: %s", r.method, path, got, w.Body.String())
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %s: invalid JSON: %s", r.method, path, w.Body.String())
		}
	})
}
