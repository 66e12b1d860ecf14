package rest_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/internal/git"
)

// The fuzz campaign: a route-table-driven generator of mutated requests (path parameters,
// query strings, bodies, credentials) sent to an in-process server over every route of the
// router, GraphQL, the registry's /v2/ and git smart HTTP. Every answer must be below 500,
// and every /api/v4 error a JSON body. ANVIL_FUZZ_REQUESTS sets the number of requests
// (a bounded default in the suite; `make fuzz` runs 100,000), ANVIL_FUZZ_SEED the seed.
const campaignDefaultRequests = 3000

// campaignFixture is the state the generator draws valid values from. It is rebuilt when a
// request deleted or broke part of it, so that the campaign keeps reaching deep code.
type campaignFixture struct {
	in                          *servertest.Instance
	root                        *ent.User
	rootToken                   string
	alice                       *ent.User
	aliceToken                  string
	aliceTokenID                int
	group                       string
	groupID, projectID, private int
	head                        git.ObjectID
	generation                  int
	renewed                     int
}

// ensure (re)creates what the campaign needs: root's and alice's tokens, a public group with a
// public project holding a repository (main, a branch, a tag) and a private project.
func (f *campaignFixture) ensure(t *testing.T) {
	t.Helper()
	in, ctx := f.in, context.Background()
	if r := in.Do(t, "GET", "/user", f.rootToken, nil); r.Status != 200 {
		f.rootToken = in.NewToken(t, f.root.ID, "api", "sudo", "admin_mode")
		f.renewed++
		if os.Getenv("ANVIL_FUZZ_DEBUG") != "" {
			t.Logf("root token renewed: %s", r.String())
		}
	}
	if f.alice == nil || in.Do(t, "GET", "/user", f.aliceToken, nil).Status != 200 {
		f.generation++
		f.alice, f.aliceToken = in.NewUser(t, fmt.Sprintf("alice%d", f.generation))
		tok, err := in.DB.Client.PersonalAccessToken.Query().Where(personalaccesstoken.UserID(f.alice.ID)).First(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f.aliceTokenID = tok.ID
	}
	if f.group != "" && in.Do(t, "GET", "/projects/"+strconv.Itoa(f.projectID), f.rootToken, nil).Status == 200 &&
		in.Do(t, "GET", "/projects/"+strconv.Itoa(f.private), f.rootToken, nil).Status == 200 &&
		in.Do(t, "GET", "/groups/"+strconv.Itoa(f.groupID), f.rootToken, nil).Status == 200 {
		p, err := in.DB.Client.Project.Get(ctx, f.projectID)
		if err == nil {
			if repo, err := in.Services.Repos.Repository(p); err == nil {
				servertest.SetBranch(t, repo, "main", f.head)
			}
		}
		return
	}
	f.generation++
	f.group = fmt.Sprintf("fz%d", f.generation)
	g := in.NewGroup(t, f.group, "public", nil)
	in.AddGroupMember(t, g, f.alice, 30)
	f.groupID = g.ID
	r := in.Do(t, "POST", "/projects", f.rootToken, fmt.Sprintf(`{"path":"p","namespace_id":%d,"visibility":"public"}`, g.ID))
	if r.Status != 201 {
		t.Fatalf("campaign project: %s", r.String())
	}
	var created struct{ ID int }
	_ = json.Unmarshal(r.Body, &created)
	f.projectID = created.ID
	p, err := in.DB.Client.Project.Get(ctx, f.projectID)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := in.Services.Repos.Repository(p)
	if err != nil {
		t.Fatal(err)
	}
	tt := t
	c1 := servertest.Commit(tt, repo, "", "README.md", 1)
	f.head = servertest.Commit(tt, repo, c1, "dir/file.txt", 2)
	servertest.SetBranch(tt, repo, "main", f.head)
	servertest.SetBranch(tt, repo, "feature", c1)
	in.Do(t, "POST", "/projects/"+strconv.Itoa(f.projectID)+"/repository/tags", f.rootToken, `{"tag_name":"v1","ref":"main"}`)
	priv := in.NewProject(t, g, "private", "private")
	f.private = priv.ID
}

// campaignNasty are values that have broken parsers before: empty, signs, overflows, NUL and
// invalid UTF-8, traversal, revision syntax git dies on, option-looking values, long strings.
var campaignNasty = []string{
	"", " ", "0", "-1", "1e3", "1.5", "99999999999999999999", "9223372036854775808", "-9223372036854775809",
	"\x00", "a\x00b", "\xff", "\xc3\x28", "%", "%zz", "+", "..", ".", "../../etc/passwd", "..%2F..", "/", "//", "a//b",
	"main:../x", "main:./x", "main@{u}", "@{push}", "HEAD~99999", "HEAD^{/x}", ":/x", "main..feature", "main...feature",
	"^main", "-x", "--upload-pack=touch /tmp/x", "--output=/tmp/x", "refs/heads/main", "refs/heads/../x", "\\", "*",
	"null", "true", "false", "[]", "{}", `{"a":1}`, "' OR 1=1 --", "%00", "\u202e", "🚀", strings.Repeat("a", 300),
	strings.Repeat("x", 5000), strings.Repeat("%", 60000), strings.Repeat("é", 2000), "2020-02-30", "2020-01-01T00:00:00Z",
	"0001-01-01", "9999-12-31T23:59:59+14:00", "asc", "desc", "id", "name", "similarity", "keyset", "public", "private",
	"internal", "api", "read_api", "sudo", "10", "20", "30", "40", "50", "60", "100", "101", "\n", "a\nb", "\r\n",
}

// campaignParams are parameter names of the API (query strings and bodies).
var campaignParams = strings.Fields(`access_level actions active admin all_available archived author author_email
author_name branch branches can_create_group commit_message config_file config_file_ref content created_after
created_before cursor custom_attributes default_branch description dry_run email encoding expires_at
external file_path first_parent force format from from_project_id full_path_search group_access group_id
id_after id_before include_subgroups initialize_with_readme key keep_n last_commit_id membership
min_access_level name name_regex namespace_id note order_by owned page page_token pagination parent_id password
path per_page projects_limit public_email query recursive ref ref_name refs regex relation
repository_storage revoked scope scopes search search_namespaces sha simple since skip_users sort
start_branch starred state statistics tag_name to topic topics trailer until user_id username value
version visibility with_custom_attributes with_stats older_than title file_path submodule commit_sha
merge_access_level push_access_level allow_force_push code_owner_approval_required expires_in`)

// campaignGen generates one request at a time.
type campaignGen struct {
	r      *rand.Rand
	f      *campaignFixture
	routes []campaignRoute
}

type campaignRoute struct{ method, path string }

func (g *campaignGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// value is a value for a parameter: often a valid one drawn from the fixture, else a nasty one.
func (g *campaignGen) value(name string) string {
	f := g.f
	if g.r.IntN(3) == 0 {
		return g.pick(campaignNasty)
	}
	switch name {
	case "sha", "ref", "ref_name", "from", "to", "start_branch", "branch", "commit_sha", "last_commit_id", "config_file_ref":
		return g.pick([]string{"main", "feature", "v1", string(f.head), string(f.head)[:8], "main~1", "HEAD"})
	case "file_path", "path", "config_file":
		return g.pick([]string{"README.md", "dir/file.txt", "dir", "CHANGELOG.md", "nope"})
	case "user_id", "skip_users":
		return strconv.Itoa(f.alice.ID)
	case "group_id", "namespace_id", "parent_id":
		return strconv.Itoa(f.groupID)
	case "from_project_id":
		return strconv.Itoa(f.projectID)
	case "access_level", "group_access", "min_access_level", "merge_access_level", "push_access_level":
		return g.pick([]string{"0", "10", "20", "30", "40", "50"})
	case "visibility":
		return g.pick([]string{"public", "internal", "private"})
	case "repository_storage":
		return g.pick([]string{"default", "nonexistent"})
	case "scopes":
		return g.pick([]string{"api", "read_api", "read_user", "read_repository"})
	case "expires_at", "created_after", "created_before", "since", "until", "older_than":
		return g.pick([]string{"2030-01-01", "2020-01-01T00:00:00Z", "2000-01-01"})
	case "page", "per_page", "keep_n", "projects_limit":
		return strconv.Itoa(g.r.IntN(120))
	}
	return g.pick([]string{"main", "fz", "alice", "x", "p", "new-name", "v1", "README.md", "true", "1"})
}

// segment is a value for a path parameter, escaped into one segment (or, now and then, not).
func (g *campaignGen) segment(param, route string) string {
	f := g.f
	var v string
	if g.r.IntN(4) == 0 {
		v = g.pick(campaignNasty)
	} else {
		switch {
		case param == "id" && strings.HasPrefix(route, "/api/v4/projects/"):
			v = g.pick([]string{strconv.Itoa(f.projectID), f.group + "/p", strconv.Itoa(f.private), f.group + "/private"})
		case param == "id" && strings.HasPrefix(route, "/api/v4/groups/"):
			v = g.pick([]string{strconv.Itoa(f.groupID), f.group})
		case param == "id" && strings.HasPrefix(route, "/api/v4/users/"):
			v = g.pick([]string{strconv.Itoa(f.alice.ID), f.alice.Username})
		case param == "id" && strings.Contains(route, "tokens"), param == "token_id":
			v = strconv.Itoa(f.aliceTokenID)
		case param == "user_id":
			v = strconv.Itoa(f.alice.ID)
		case param == "sha":
			v = g.pick([]string{string(f.head), "main", "v1"})
		case param == "file_path":
			v = g.pick([]string{"README.md", "dir/file.txt", "dir"})
		case param == "tag_name":
			v = "v1"
		case param == "name", param == "branch":
			v = g.pick([]string{"main", "feature", "feat*"})
		case param == "key":
			v = "k"
		case param == "group_id":
			v = strconv.Itoa(f.groupID)
		case param == "forked_from_id":
			v = strconv.Itoa(f.projectID)
		default:
			v = g.pick([]string{"1", "2", strconv.Itoa(f.projectID), "main", "x"})
		}
	}
	if g.r.IntN(10) == 0 {
		return strings.ReplaceAll(v, "%", "%25") // raw: slashes split the segment
	}
	return url.PathEscape(v)
}

// query is a random query string over the API's parameter names.
func (g *campaignGen) query() string {
	var parts []string
	for i := g.r.IntN(5); i > 0; i-- {
		name := g.pick(campaignParams)
		switch g.r.IntN(8) {
		case 0:
			name += "[]"
		case 1:
			name += "[" + g.pick([]string{"k", "", "a][b"}) + "]"
		}
		parts = append(parts, url.QueryEscape(name)+"="+url.QueryEscape(g.value(strings.TrimRight(name, "[]"))))
	}
	if g.r.IntN(20) == 0 {
		parts = append(parts, g.pick([]string{"%zz=1", "a=%ff", "&&&", "=x", "a[=1", strings.Repeat("a[", 500) + "=1"}))
	}
	return strings.Join(parts, "&")
}

// jsonValue is a random JSON value for a parameter.
func (g *campaignGen) jsonValue(name string) any {
	switch g.r.IntN(12) {
	case 0:
		return g.r.IntN(100) - 10
	case 1:
		return []any{g.value(name), g.r.IntN(5)}
	case 2:
		return map[string]any{"a": g.value(name)}
	case 3:
		return nil
	case 4:
		return g.r.IntN(2) == 0
	case 5:
		return 1e300
	case 6:
		if n, err := strconv.Atoi(g.value(name)); err == nil {
			return n
		}
	}
	return g.value(name)
}

// body is a random body for a write: JSON, a form, multipart, or broken bytes.
func (g *campaignGen) body() (string, []byte) {
	fields := map[string]any{}
	for i := g.r.IntN(6); i > 0; i-- {
		name := g.pick(campaignParams)
		fields[name] = g.jsonValue(name)
	}
	switch g.r.IntN(10) {
	case 0, 1, 2, 3:
		b, _ := json.Marshal(fields)
		return "application/json", b
	case 4, 5:
		v := url.Values{}
		for k, x := range fields {
			v.Set(k, fmt.Sprint(x))
		}
		return "application/x-www-form-urlencoded", []byte(v.Encode())
	case 6:
		var b bytes.Buffer
		for k, x := range fields {
			fmt.Fprintf(&b, "--fz\r\nContent-Disposition: form-data; name=%q\r\n\r\n%v\r\n", k, x)
		}
		b.WriteString("--fz--\r\n")
		return "multipart/form-data; boundary=fz", b.Bytes()
	case 7:
		return "application/json", []byte(g.pick([]string{`{"name":`, `[1,2]`, `"x"`, "\xff\xfe", `{"a":1} {"b":2}`, strings.Repeat("[", 10000), `{"name":"\u0000"}`}))
	case 8:
		return g.pick([]string{"text/plain", "", "application/xml", "multipart/form-data"}), []byte("name=x")
	}
	return "", nil
}

// pkt frames a pkt-line.
func campaignPkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

// gitRequest is a smart-HTTP request with a generated, often malformed, pkt-line body.
func (g *campaignGen) gitRequest() *http.Request {
	f := g.f
	repo := g.pick([]string{f.group + "/p.git", f.group + "/private.git", f.group + "/p", "nope/x.git", f.group + "/p.git/.."})
	head := string(f.head)
	ids := []string{head, strings.Repeat("0", 40), strings.Repeat("1", 40), "xyz", "", head[:10], head + "0"}
	lines := []string{}
	for i := g.r.IntN(8); i >= 0; i-- {
		switch g.r.IntN(14) {
		case 0, 1:
			lines = append(lines, campaignPkt("want "+g.pick(ids)+g.pick([]string{"\n", " multi_ack_detailed side-band-64k ofs-delta\n", ""})))
		case 2:
			lines = append(lines, campaignPkt("have "+g.pick(ids)+"\n"))
		case 3:
			lines = append(lines, campaignPkt("deepen "+g.pick([]string{"1", "-1", "0", "x", "99999999999"})+"\n"))
		case 4:
			lines = append(lines, "0000")
		case 5:
			lines = append(lines, g.pick([]string{"0001", "0002", "0003", "0004", "zzzz", "fff0", "00", "0fff"}))
		case 6:
			lines = append(lines, campaignPkt("done\n"))
		case 7:
			lines = append(lines, campaignPkt("command="+g.pick([]string{"fetch", "ls-refs", "object-info", "nope", ""})+"\n"))
		case 8:
			lines = append(lines, campaignPkt(g.pick(ids)+" "+g.pick(ids)+" "+g.pick([]string{"refs/heads/fz", "refs/heads/main", "refs/tags/x", "HEAD", "refs/heads/../x", ""})+"\x00report-status side-band-64k\n"))
		case 9:
			lines = append(lines, "PACK"+string([]byte{0, 0, 0, 2, 0, 0, 0, byte(g.r.IntN(3))})+g.pick([]string{"", "garbage", strings.Repeat("\x00", 40)}))
		case 10:
			lines = append(lines, campaignPkt(g.pick(campaignNasty)))
		case 11:
			lines = append(lines, campaignPkt("shallow "+g.pick(ids)+"\n"))
		case 12:
			lines = append(lines, campaignPkt(g.pick([]string{"filter blob:none\n", "filter \n", "deepen-since x\n", "deepen-not main\n", "agent=x\n", "object-format=sha1\n", "thin-pack\n"})))
		default:
			lines = append(lines, campaignPkt("peel\n"))
		}
	}
	body := []byte(strings.Join(lines, ""))
	var req *http.Request
	switch g.r.IntN(6) {
	case 0:
		req = httptest.NewRequest("GET", "/"+repo+"/info/refs?service="+g.pick([]string{"git-upload-pack", "git-receive-pack", "git-nope", ""}), nil)
	case 1:
		req = httptest.NewRequest(g.pick([]string{"GET", "PUT", "DELETE"}), "/"+repo+"/"+g.pick([]string{"HEAD", "objects/info/packs", "git-upload-pack", "info/refs"}), nil)
	default:
		svc := g.pick([]string{"git-upload-pack", "git-upload-pack", "git-receive-pack"})
		if g.r.IntN(8) == 0 {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			_, _ = w.Write(body)
			_ = w.Close()
			body = b.Bytes()
			if g.r.IntN(2) == 0 {
				body = body[:len(body)/2]
			}
			req = httptest.NewRequest("POST", "/"+repo+"/"+svc, bytes.NewReader(body))
			req.Header.Set("Content-Encoding", "gzip")
		} else {
			req = httptest.NewRequest("POST", "/"+repo+"/"+svc, bytes.NewReader(body))
		}
		req.Header.Set("Content-Type", "application/x-"+g.pick([]string{svc, svc, "git-nope"})+"-request")
	}
	if g.r.IntN(2) == 0 {
		req.Header.Set("Git-Protocol", g.pick([]string{"version=2", "version=1", "version=2:x", "version=2 x"}))
	}
	switch g.r.IntN(4) {
	case 0:
		req.SetBasicAuth("root", f.rootToken)
	case 1:
		req.SetBasicAuth(f.alice.Username, f.aliceToken)
	case 2:
		// Wrong passwords for an account lock it: only for names the campaign does not use.
		req.SetBasicAuth(g.pick([]string{"nobody", "", "x@example.com"}), g.pick([]string{"wrong", "", "glpat-x"}))
	}
	g.fromAddress(req)
	return req
}

// fromAddress sets the client's address: mostly loopback (never banned after failed
// authentications), else one of many documentation addresses, so that the failed-authentication
// ban is exercised without shutting the campaign out of git.
func (g *campaignGen) fromAddress(req *http.Request) {
	if g.r.IntN(10) < 7 {
		req.RemoteAddr = "127.0.0.1:40000"
		return
	}
	req.RemoteAddr = fmt.Sprintf("203.0.%d.%d:40000", 113+g.r.IntN(2), g.r.IntN(256))
}

// apiRequest is a request to one route of the router with mutated parameters.
func (g *campaignGen) apiRequest() *http.Request {
	rt := g.routes[g.r.IntN(len(g.routes))]
	var segs []string
	for _, s := range strings.Split(rt.path, "/") {
		switch {
		case strings.HasPrefix(s, ":"):
			s = g.segment(s[1:], rt.path)
		case strings.HasPrefix(s, "*"):
			s = g.segment(s[1:], rt.path) + g.pick([]string{"", "/x", "/../y"})
		}
		segs = append(segs, s)
	}
	target := strings.Join(segs, "/")
	if q := g.query(); q != "" {
		target += "?" + q
	}
	method := rt.method
	var (
		ct   string
		body []byte
	)
	if method != "GET" && method != "HEAD" {
		ct, body = g.body()
	}
	if rt.path == "/api/graphql" {
		ct, body = "application/json", g.graphqlBody()
	}
	req := httptest.NewRequest("GET", "/", bytes.NewReader(body))
	req.Method = method
	u, err := url.Parse(target)
	if err != nil {
		u = &url.URL{Path: "/api/v4/projects", RawQuery: "bad"}
	}
	req.URL, req.RequestURI = u, u.RequestURI()
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	switch g.r.IntN(10) {
	case 0, 1, 2, 3, 4:
		req.Header.Set("PRIVATE-TOKEN", g.f.rootToken)
	case 5, 6, 7:
		req.Header.Set("Authorization", "Bearer "+g.f.aliceToken)
	case 8:
		req.Header.Set("PRIVATE-TOKEN", g.pick([]string{"glpat-nope", "", "\x00"}))
	}
	if g.r.IntN(20) == 0 {
		req.Header.Set("Sudo", g.pick([]string{g.f.alice.Username, "root", "nobody", "-1", "\xff"}))
	}
	g.fromAddress(req)
	return req
}

// graphqlBody is a GraphQL request with mutated arguments.
func (g *campaignGen) graphqlBody() []byte {
	arg := func() string {
		v := g.pick(campaignNasty)
		b, _ := json.Marshal(v)
		return string(b)
	}
	queries := []string{
		`{projects(after:` + arg() + `){nodes{id fullPath}}}`,
		`{groups(search:` + arg() + `, sort:` + arg() + `){nodes{id}}}`,
		`{project(fullPath:` + arg() + `){repository{tree(ref:` + arg() + `, path:` + arg() + `){blobs{nodes{name}}}}}}`,
		`{project(fullPath:"` + g.f.group + `/p"){repository{tree(ref:` + arg() + `, path:` + arg() + `){blobs{nodes{name}}}}}}`,
		`{project(fullPath:"` + g.f.group + `/p"){repository{blobs(ref:` + arg() + `, paths:[` + arg() + `]){nodes{rawBlob}}}}}`,
		`{users(usernames:[` + arg() + `], after:` + arg() + `){nodes{id}}}`,
		`{namespace(fullPath:` + arg() + `){projects(after:` + arg() + `){nodes{id}}}}`,
		`{group(fullPath:"` + g.f.group + `"){groupMembers(search:` + arg() + `, before:` + arg() + `){nodes{id}}}}`,
		`mutation{createProject:projectCreate(input:{name:` + arg() + `}){errors}}`,
		`{__typename`, `{`, `query($a:Int!){x}`, g.pick(campaignNasty),
	}
	q := g.pick(queries)
	if g.r.IntN(10) == 0 {
		ops := make([]string, 1+g.r.IntN(50))
		for i := range ops {
			b, _ := json.Marshal(map[string]any{"query": g.pick(queries)})
			ops[i] = string(b)
		}
		return []byte("[" + strings.Join(ops, ",") + "]")
	}
	b, _ := json.Marshal(map[string]any{"query": q, "variables": g.pick([]string{"", "{}", "null", "[]", `{"a":1}`})})
	return b
}

// campaignFinding is one request that broke a rule.
type campaignFinding struct{ rule, request, answer string }

// TestFuzzCampaign_no5xxAndJSONErrors runs the campaign: see campaignDefaultRequests.
func TestFuzzCampaign_no5xxAndJSONErrors(t *testing.T) {
	total := campaignDefaultRequests
	if s := os.Getenv("ANVIL_FUZZ_REQUESTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("ANVIL_FUZZ_REQUESTS=%q", s)
		}
		total = n
	}
	seed := uint64(1)
	if s := os.Getenv("ANVIL_FUZZ_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ANVIL_FUZZ_SEED=%q", s)
		}
		seed = n
	}
	in := servertest.Start(t)
	root, err := in.Services.Users.FindByRef(context.Background(), "root")
	if err != nil {
		t.Fatal(err)
	}
	f := &campaignFixture{in: in, root: root, rootToken: servertest.RootToken}
	f.ensure(t)

	g := &campaignGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), f: f}
	for _, rt := range in.Routes {
		g.routes = append(g.routes, campaignRoute{rt.Method, rt.Path})
	}
	for _, p := range []string{"/v2/", "/v2/_catalog", "/v2/:id/tags/list", "/v2/:id/manifests/:sha", "/v2/:id/blobs/:sha", "/jwt/auth"} {
		g.routes = append(g.routes, campaignRoute{"GET", p})
	}
	apiRoutes := len(g.routes)

	statuses := map[int]int{}
	var findings []campaignFinding
	seen := map[string]bool{}
	start := time.Now()
	gitRequests := 0
	for i := 0; i < total; i++ {
		if i > 0 && i%50 == 0 {
			f.ensure(t)
		}
		var req *http.Request
		if g.r.IntN(5) == 0 {
			req, gitRequests = g.gitRequest(), gitRequests+1
		} else {
			req = g.apiRequest()
		}
		desc := fmt.Sprintf("%s %.300q", req.Method, req.URL.RequestURI())
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			in.Handler.ServeHTTP(w, req.WithContext(ctx))
		}()
		select {
		case <-done:
		case <-time.After(90 * time.Second):
			cancel()
			t.Fatalf("request hung for 90 s: %s", desc)
		}
		cancel()
		statuses[w.Code]++
		add := func(rule string) {
			key := rule + " " + req.Method + " " + templateOf(req.URL.Path)
			if seen[key] {
				return
			}
			seen[key] = true
			findings = append(findings, campaignFinding{rule, desc, fmt.Sprintf("%d %.300s", w.Code, w.Body.String())})
		}
		if w.Code >= 500 {
			add("5xx")
		}
		if w.Code >= 400 && strings.HasPrefix(req.URL.Path, "/api/v4/") && req.Method != "HEAD" {
			var v map[string]any
			if w.Header().Get("Content-Type") != "application/json" || json.Unmarshal(w.Body.Bytes(), &v) != nil {
				add("non-JSON /api/v4 error")
			}
		}
	}
	elapsed := time.Since(start)

	var codes []string
	for c, n := range statuses {
		codes = append(codes, fmt.Sprintf("%d:%d", c, n))
	}
	sort.Strings(codes)
	t.Logf("campaign: %d requests (%d git smart HTTP) over %d routes + git, seed %d, %s on %s/%s, %d CPUs, %s; statuses %s; findings %d; %d lines logged at ERROR; fixture rebuilt %d times, root token renewed %d times",
		total, gitRequests, apiRoutes, seed, elapsed.Round(time.Second), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), dbKind(), strings.Join(codes, " "), len(findings), len(in.Logs.Errors()), f.generation, f.renewed)
	for _, fd := range findings {
		t.Errorf("%s: %s -> %s", fd.rule, fd.request, fd.answer)
	}
}

// templateOf reduces a path to a rough template (numbers and long segments folded), so that
// one broken route is reported once.
func templateOf(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if _, err := strconv.Atoi(s); err == nil || len(s) > 20 || strings.ContainsAny(s, "%.:@") || (strings.HasPrefix(s, "fz") && i == 1) {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

func dbKind() string {
	if os.Getenv("ANVIL_TEST_DATABASE_URL") != "" {
		return "PostgreSQL"
	}
	return "SQLite"
}
