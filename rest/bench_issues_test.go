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

// issueBenchSizes are the issue table sizes BenchmarkIssues runs at; ANVIL_BENCH_ISSUES sets
// one size instead.
func issueBenchSizes() []int {
	if s := os.Getenv("ANVIL_BENCH_ISSUES"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return []int{n}
		}
	}
	return []int{10000, 100000}
}

// seedIssues inserts n issues with one statement per table (a generated series; ent's bulk
// insert would take minutes): issue i lives in projects[0] when i is even and in one of the
// others otherwise, is closed when i%3 == 0, confidential when i%20 == 19, has milestone
// milestones[i%10] when i%10 < len(milestones), labels[i%20] and labels[(i/20)%20] (one label
// when they coincide), and one thumbsup from its author when i%10 == 0. Ids must be contiguous.
func seedIssues(tb testing.TB, in *servertest.Instance, n int, author int, projects, milestones, labels []int) {
	tb.Helper()
	for _, ids := range [][]int{projects, milestones, labels} {
		for i := range ids {
			if ids[i] != ids[0]+i {
				tb.Fatalf("ids not contiguous: %v", ids)
			}
		}
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	series := `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ?6) `
	ts := `strftime('%Y-%m-%d %H:%M:%S', ?7, '+' || i || ' seconds') || '+00:00'`
	from := ` FROM s`
	p := func(k int) string { return "?" + strconv.Itoa(k) }
	if in.DB.Dialect == "postgres" {
		series = ""
		ts = `$7::timestamptz + i * interval '1 second'`
		from = ` FROM generate_series(0, $6 - 1) AS s(i)`
		p = func(k int) string { return "$" + strconv.Itoa(k) }
	}
	// $1 author, $2 first project, $3 projects, $4 first milestone, $5 milestones, $6 n, $7 base.
	issues := `INSERT INTO issues (project_id, iid, title, state, issue_type, confidential, author_id,
			milestone_id, created_at, updated_at) ` + series + `
		SELECT CASE WHEN i % 2 = 0 THEN ` + p(2) + ` ELSE ` + p(2) + ` + 1 + i % (` + p(3) + ` - 1) END,
			i + 1, 'Issue ' || i, CASE WHEN i % 3 = 0 THEN 'closed' ELSE 'opened' END, 'issue', i % 20 = 19, ` + p(1) + `,
			CASE WHEN i % 10 < ` + p(5) + ` THEN ` + p(4) + ` + i % 10 END, ` + ts + `, ` + ts + from
	baseArg := any(base)
	if in.DB.Dialect != "postgres" {
		baseArg = base.Format("2006-01-02 15:04:05")
	}
	if _, err := in.DB.SQL.Exec(issues, author, projects[0], len(projects), milestones[0], len(milestones), n, baseArg); err != nil {
		tb.Fatal(err)
	}
	// The issues' row numbers follow their ids (one statement, nothing else inserting).
	first := `(SELECT MIN(id) FROM issues)`
	for _, link := range []string{
		fmt.Sprintf(`INSERT INTO issue_labels (issue_id, label_id) SELECT id, %d + (id - %s) %% 20 FROM issues`, labels[0], first),
		fmt.Sprintf(`INSERT INTO issue_labels (issue_id, label_id) SELECT id, %d + ((id - %s) / 20) %% 20 FROM issues
			WHERE (id - %s) %% 20 <> ((id - %s) / 20) %% 20`, labels[0], first, first, first),
	} {
		if _, err := in.DB.SQL.Exec(link); err != nil {
			tb.Fatal(err)
		}
	}
	now := "CURRENT_TIMESTAMP"
	awards := fmt.Sprintf(`INSERT INTO award_emojis (name, user_id, awardable_type, awardable_id, created_at, updated_at)
		SELECT 'thumbsup', %d, 'Issue', id, %s, %s FROM issues WHERE (id - %s) %% 10 = 0`, author, now, now, first)
	if _, err := in.DB.SQL.Exec(awards); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkIssues measures the issue lists through HTTP as the issues table grows: one
// project's and its group's opened issues with two labels and a milestone (GitLab's common
// board and list filter), 20 per page with the bounded count, upvotes and downvotes. Twenty group
// labels and eight group milestones spread over four public projects (the project measured
// holds half of the issues); the caller is signed in but no member, so the confidential-issue
// rule runs on every row.
func BenchmarkIssues(b *testing.B) {
	for _, n := range issueBenchSizes() {
		in := servertest.Start(b)
		ctx := context.Background()
		author, _ := in.NewUser(b, "bench-author")
		_, token := in.NewUser(b, "bench-caller")
		group := in.NewGroup(b, "bench-issues", "public", nil)
		var projects []*ent.Project
		for i := 0; i < 4; i++ {
			projects = append(projects, in.NewProject(b, group, fmt.Sprintf("p%d", i), "public"))
		}
		var labels, milestones, projectIDs []int
		for i := 0; i < 20; i++ {
			l := in.DB.Client.Label.Create().SetTitle(fmt.Sprintf("l%02d", i)).SetColor("#6699cc").SetGroupID(group.ID).SaveX(ctx)
			labels = append(labels, l.ID)
		}
		for i := 0; i < 8; i++ {
			m := in.DB.Client.Milestone.Create().SetTitle(fmt.Sprintf("m%d", i)).SetIid(i + 1).SetGroupID(group.ID).SaveX(ctx)
			milestones = append(milestones, m.ID)
		}
		for _, p := range projects {
			projectIDs = append(projectIDs, p.ID)
		}
		start := time.Now()
		seedIssues(b, in, n, author.ID, projectIDs, milestones, labels)
		if err := in.DB.Optimize(ctx); err != nil {
			b.Fatal(err)
		}
		if in.DB.Dialect == "postgres" {
			if _, err := in.DB.SQL.Exec("VACUUM ANALYZE"); err != nil {
				b.Fatal(err)
			}
		} else if _, err := in.DB.SQL.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			// The seed's pages move from the write-ahead log into the database file, as a
			// running server's checkpoints move them, so that the first list measured does not
			// read them from the seed's log (the first list ran slower than the same list
			// measured later).
			b.Fatal(err)
		}
		b.Logf("%s: %d issues seeded in %s", in.DB.Dialect, n, time.Since(start).Round(time.Millisecond))
		api := in.URL + "/api/v4"
		query := "/issues?labels=l00,l01&milestone=m0&state=opened"
		// The filter must match a few issues of each list, or the benchmark measures nothing.
		for _, u := range []string{fmt.Sprintf("%s/projects/%d%s", api, projects[0].ID, query), fmt.Sprintf("%s/groups/%d%s", api, group.ID, query)} {
			resp := in.Do(b, "GET", u, token, nil)
			if resp.Status != 200 || resp.Header.Get("X-Total") == "0" {
				b.Fatalf("GET %s: %s (X-Total %s)", u, resp.String()[:min(200, len(resp.String()))], resp.Header.Get("X-Total"))
			}
			b.Logf("%s: X-Total %s", u[len(api):], resp.Header.Get("X-Total"))
		}
		b.Run(fmt.Sprintf("issues=%d/GET_project_issues", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/projects/%d%s", api, projects[0].ID, query), token)
		})
		b.Run(fmt.Sprintf("issues=%d/GET_group_issues", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/groups/%d%s", api, group.ID, query), token)
		})
		b.Run(fmt.Sprintf("issues=%d/GET_project_issues_unfiltered", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/projects/%d/issues", api, projects[0].ID), token)
		})
	}
}
