package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
)

// seed bulk-inserts n users (each with a personal namespace) and n public projects spread over
// those namespaces, directly through ent: fixtures, not API calls.
func seed(tb testing.TB, in *servertest.Instance, n int) (firstProject int) {
	tb.Helper()
	ctx := context.Background()
	c := in.DB.Client
	// Small batches: the SQLite driver binds arguments in time quadratic in their number.
	const batch = 50
	for start := 0; start < n; start += batch {
		end := min(start+batch, n)
		users := make([]*ent.UserCreate, 0, end-start)
		for i := start; i < end; i++ {
			name := fmt.Sprintf("bench-user-%06d", i)
			users = append(users, c.User.Create().SetUsername(name).SetName("Bench "+name).SetEmail(name+"@example.com"))
		}
		created, err := c.User.CreateBulk(users...).Save(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		nss := make([]*ent.NamespaceCreate, 0, len(created))
		for _, u := range created {
			nss = append(nss, c.Namespace.Create().SetName(u.Name).SetPath(u.Username).SetFullPath(u.Username).
				SetKind(namespace.KindUser).SetVisibility(namespace.VisibilityPublic).SetOwnerID(u.ID))
		}
		nsRows, err := c.Namespace.CreateBulk(nss...).Save(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		projects := make([]*ent.ProjectCreate, 0, len(nsRows))
		for i, ns := range nsRows {
			projects = append(projects, c.Project.Create().SetName(fmt.Sprintf("Project %d", start+i)).
				SetPath(fmt.Sprintf("project-%d", start+i)).SetNamespaceID(ns.ID).SetCreatorID(*ns.OwnerID).
				SetVisibility(project.VisibilityPublic))
		}
		ps, err := c.Project.CreateBulk(projects...).Save(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		if start == 0 {
			firstProject = ps[0].ID
		}
	}
	return firstProject
}

// benchSizes are the table sizes each benchmark runs at; ANVIL_BENCH_SIZES overrides
// (comma-free: one size, for a quick run).
func benchSizes() []int {
	if s := os.Getenv("ANVIL_BENCH_SIZE"); s != "" {
		n, err := strconv.Atoi(s)
		if err == nil {
			return []int{n}
		}
	}
	return []int{1000, 10000, 100000}
}

// get issues one authenticated GET and fails on a non-200 answer.
func get(b *testing.B, client *http.Client, url, token string) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("PRIVATE-TOKEN", token)
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
}

// runHTTP times each request and reports the median and p90 besides Go's mean.
func runHTTP(b *testing.B, url, token string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	get(b, client, url, token) // warm caches and the connection
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		get(b, client, url, token)
		durations = append(durations, time.Since(t))
	}
	b.StopTimer()
	sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(durations[len(durations)*9/10].Microseconds())/1000, "p90-ms")
}

// BenchmarkAPI measures GET /projects/:id (a public project in a personal namespace, and a
// private one in a subgroup read through an inherited membership), GET /projects?per_page=100 and GET /users?per_page=100
// through HTTP as the table sizes grow. The user is a non-admin, so visibility rules run.
func BenchmarkAPI(b *testing.B) {
	for _, n := range benchSizes() {
		in := servertest.Start(b)
		first := seed(b, in, n)
		// A long-running server has planner statistics: SQLite's from the server's upkeep,
		// PostgreSQL's from autovacuum, which analyzes a table and (since PostgreSQL 13, after
		// inserts too) vacuums it, setting the visibility map index-only scans rely on, within
		// a minute or so of a bulk load. Do now what they would do rather than wait.
		if err := in.DB.Optimize(context.Background()); err != nil {
			b.Fatal(err)
		}
		if in.DB.Dialect == "postgres" {
			if _, err := in.DB.SQL.Exec("VACUUM ANALYZE"); err != nil {
				b.Fatal(err)
			}
		}
		caller, token := in.NewUser(b, "bench-caller")
		// A private project two groups deep that the caller reaches through a membership of
		// the top group: the access rules' longest common path (ancestors, inherited levels,
		// group shares).
		top := in.NewGroup(b, "bench-top", "private", nil)
		sub := in.NewGroup(b, "bench-sub", "private", top)
		nested := in.NewProject(b, sub, "bench-nested", "private")
		in.AddGroupMember(b, top, caller, 30)
		b.Run(fmt.Sprintf("rows=%d/GET_project", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/api/v4/projects/%d", in.URL, first+n/2), token)
		})
		b.Run(fmt.Sprintf("rows=%d/GET_project_in_subgroup", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/api/v4/projects/%d", in.URL, nested.ID), token)
		})
		b.Run(fmt.Sprintf("rows=%d/GET_projects_per_page_100", n), func(b *testing.B) {
			runHTTP(b, in.URL+"/api/v4/projects?per_page=100", token)
		})
		b.Run(fmt.Sprintf("rows=%d/GET_users_per_page_100", n), func(b *testing.B) {
			runHTTP(b, in.URL+"/api/v4/users?per_page=100", token)
		})
	}
}
