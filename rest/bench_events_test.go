package rest_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
)

// eventBenchSizes are the events table sizes BenchmarkEvents runs at; ANVIL_BENCH_EVENTS sets
// one size instead.
func eventBenchSizes() []int {
	if s := os.Getenv("ANVIL_BENCH_EVENTS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return []int{n}
		}
	}
	return []int{10000, 100000, 1000000}
}

// seedEvents inserts n events in one statement per database (a generated series: ent's bulk
// insert would take minutes at a million rows), spread round-robin over the authors and
// projects (each a contiguous id range), one second apart, a quarter of them pushes with their
// payloads.
func seedEvents(tb testing.TB, in *servertest.Instance, n int, authors, projects []int) {
	tb.Helper()
	contiguous := func(ids []int) {
		for i := range ids {
			if ids[i] != ids[0]+i {
				tb.Fatalf("ids not contiguous: %v", ids)
			}
		}
	}
	contiguous(authors)
	contiguous(projects)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var events, payloads string
	if in.DB.Dialect == "postgres" {
		events = `INSERT INTO events (action, author_id, project_id, imported_from, created_at)
			SELECT CASE i % 4 WHEN 0 THEN 'pushed' WHEN 1 THEN 'created' WHEN 2 THEN 'joined' ELSE 'left' END,
				$1 + i % $2, $3 + i % $4, 'none', $5::timestamptz + i * interval '1 second'
			FROM generate_series(0, $6 - 1) AS s(i)`
		payloads = `INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type, commit_from, commit_to, ref, commit_title)
			SELECT id, 1, 'pushed', 'branch', repeat('a', 40), repeat('b', 40), 'main', 'A change' FROM events WHERE action = 'pushed'`
	} else {
		events = `INSERT INTO events (action, author_id, project_id, imported_from, created_at)
			WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ?6)
			SELECT CASE i % 4 WHEN 0 THEN 'pushed' WHEN 1 THEN 'created' WHEN 2 THEN 'joined' ELSE 'left' END,
				?1 + i % ?2, ?3 + i % ?4, 'none', strftime('%Y-%m-%d %H:%M:%S', ?5, '+' || i || ' seconds') || '+00:00'
			FROM s`
		payloads = `INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type, commit_from, commit_to, ref, commit_title)
			SELECT id, 1, 'pushed', 'branch', hex(zeroblob(20)), hex(zeroblob(20)), 'main', 'A change' FROM events WHERE action = 'pushed'`
	}
	baseArg := any(base)
	if in.DB.Dialect != "postgres" {
		baseArg = base.Format("2006-01-02 15:04:05")
	}
	if _, err := in.DB.SQL.Exec(events, authors[0], len(authors), projects[0], len(projects), baseArg, n); err != nil {
		tb.Fatal(err)
	}
	if _, err := in.DB.SQL.Exec(payloads); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkEvents measures the activity feed through HTTP as the events table grows: the
// caller's own events (GET /events), those of the caller's projects (scope=all), another
// user's events as the caller may see them (GET /users/:id/events), and one project's (GET
// /projects/:id/events), 20 per page with GitLab's bounded count. Ten authors share the events
// over forty projects of a group; half the projects are private and the caller is a member of
// none of them but a Guest of two (whose pushes it may not see), so every visibility rule runs.
func BenchmarkEvents(b *testing.B) {
	for _, n := range eventBenchSizes() {
		in := servertest.Start(b)
		ctx := context.Background()
		caller, token := in.NewUser(b, "bench-caller")
		authors := []int{caller.ID}
		for i := 1; i < 10; i++ {
			u, _ := in.NewUser(b, fmt.Sprintf("bench-author-%d", i))
			authors = append(authors, u.ID)
		}
		group := in.NewGroup(b, "bench-events", "public", nil)
		var projects []*ent.Project
		for i := 0; i < 40; i++ {
			vis := "public"
			if i%2 == 1 {
				vis = "private"
			}
			projects = append(projects, in.NewProject(b, group, fmt.Sprintf("p%02d", i), vis))
		}
		in.AddProjectMember(b, projects[1], caller, 10)
		in.AddProjectMember(b, projects[3], caller, 10)
		ids := make([]int, len(projects))
		for i, p := range projects {
			ids[i] = p.ID
		}
		start := time.Now()
		seedEvents(b, in, n, authors, ids)
		if err := in.DB.Optimize(ctx); err != nil {
			b.Fatal(err)
		}
		if in.DB.Dialect == "postgres" {
			if _, err := in.DB.SQL.Exec("VACUUM ANALYZE"); err != nil {
				b.Fatal(err)
			}
		}
		b.Logf("%s: %d events seeded in %s", in.DB.Dialect, n, time.Since(start).Round(time.Millisecond))
		api := in.URL + "/api/v4"
		b.Run(fmt.Sprintf("events=%d/GET_events", n), func(b *testing.B) {
			runHTTP(b, api+"/events", token)
		})
		b.Run(fmt.Sprintf("events=%d/GET_events_scope_all", n), func(b *testing.B) {
			runHTTP(b, api+"/events?scope=all", token)
		})
		b.Run(fmt.Sprintf("events=%d/GET_user_events", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/users/%d/events", api, authors[5]), token)
		})
		b.Run(fmt.Sprintf("events=%d/GET_project_events", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/projects/%d/events?action=pushed", api, ids[2]), token)
		})
	}
}
