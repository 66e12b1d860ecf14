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

// mergeRequestBenchSizes are the merge request table sizes BenchmarkMergeRequests runs at;
// ANVIL_BENCH_MERGE_REQUESTS sets one size instead.
func mergeRequestBenchSizes() []int {
	if s := os.Getenv("ANVIL_BENCH_MERGE_REQUESTS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return []int{n}
		}
	}
	return []int{10000, 100000}
}

// seedMergeRequests inserts n merge requests with one statement per table (a generated
// series): merge request i targets projects[0] when i is even and one of the others otherwise,
// is merged when i%6 == 0 and closed when i%6 == 3 (opened otherwise), a draft when i%10 == 9,
// has milestone milestones[i%10] when i%10 < len(milestones), labels[i%20] and
// labels[(i/20)%20] (one label when they coincide), one assignee (its author) when i%4 == 0,
// and one thumbsup from its author when i%10 == 0. Ids must be contiguous.
func seedMergeRequests(tb testing.TB, in *servertest.Instance, n int, author int, projects, milestones, labels []int) {
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
	project := `CASE WHEN i % 2 = 0 THEN ` + p(2) + ` ELSE ` + p(2) + ` + 1 + i % (` + p(3) + ` - 1) END`
	// $1 author, $2 first project, $3 projects, $4 first milestone, $5 milestones, $6 n, $7 base.
	mrs := `INSERT INTO merge_requests (project_id, source_project_id, iid, source_branch, target_branch, title, state,
			draft, author_id, milestone_id, merge_status, merge_when_pipeline_succeeds, squash, allow_collaboration,
			time_estimate, total_time_spent, user_notes_count, imported, created_at, updated_at) ` + series + `
		SELECT ` + project + `, ` + project + `, i + 1, 'feature-' || i, 'main', 'Merge request ' || i,
			CASE WHEN i % 6 = 0 THEN 'merged' WHEN i % 6 = 3 THEN 'closed' ELSE 'opened' END,
			i % 10 = 9, ` + p(1) + `, CASE WHEN i % 10 < ` + p(5) + ` THEN ` + p(4) + ` + i % 10 END, 'unchecked',
			false, false, false, 0, 0, 0, false, ` + ts + `, ` + ts + from
	baseArg := any(base)
	if in.DB.Dialect != "postgres" {
		baseArg = base.Format("2006-01-02 15:04:05")
	}
	if _, err := in.DB.SQL.Exec(mrs, author, projects[0], len(projects), milestones[0], len(milestones), n, baseArg); err != nil {
		tb.Fatal(err)
	}
	// The merge requests' row numbers follow their ids (one statement, nothing else inserting).
	first := `(SELECT MIN(id) FROM merge_requests)`
	now := "CURRENT_TIMESTAMP"
	for _, stmt := range []string{
		fmt.Sprintf(`INSERT INTO merge_request_labels (merge_request_id, label_id) SELECT id, %d + (id - %s) %% 20 FROM merge_requests`, labels[0], first),
		fmt.Sprintf(`INSERT INTO merge_request_labels (merge_request_id, label_id) SELECT id, %d + ((id - %s) / 20) %% 20 FROM merge_requests
			WHERE (id - %s) %% 20 <> ((id - %s) / 20) %% 20`, labels[0], first, first, first),
		fmt.Sprintf(`INSERT INTO merge_request_assignees (merge_request_id, user_id) SELECT id, %d FROM merge_requests
			WHERE (id - %s) %% 4 = 0`, author, first),
		fmt.Sprintf(`INSERT INTO award_emojis (name, user_id, awardable_type, awardable_id, created_at, updated_at)
			SELECT 'thumbsup', %d, 'MergeRequest', id, %s, %s FROM merge_requests WHERE (id - %s) %% 10 = 0`, author, now, now, first),
	} {
		if _, err := in.DB.SQL.Exec(stmt); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkMergeRequests measures the merge request lists through HTTP as the table grows:
// one project's opened merge requests with two labels (issue 10's target), its group's, and the
// project's unfiltered list, 20 per page with the bounded count, votes, assignees, reviewers
// and labels. Twenty group labels and eight group milestones spread over four public projects
// (the project measured holds half of the merge requests); the caller is signed in but no
// member.
func BenchmarkMergeRequests(b *testing.B) {
	for _, n := range mergeRequestBenchSizes() {
		in := servertest.Start(b)
		ctx := context.Background()
		author, _ := in.NewUser(b, "bench-author")
		_, token := in.NewUser(b, "bench-caller")
		group := in.NewGroup(b, "bench-mrs", "public", nil)
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
		seedMergeRequests(b, in, n, author.ID, projectIDs, milestones, labels)
		if err := in.DB.Optimize(ctx); err != nil {
			b.Fatal(err)
		}
		if in.DB.Dialect == "postgres" {
			if _, err := in.DB.SQL.Exec("VACUUM ANALYZE"); err != nil {
				b.Fatal(err)
			}
		}
		b.Logf("%s: %d merge requests seeded in %s", in.DB.Dialect, n, time.Since(start).Round(time.Millisecond))
		api := in.URL + "/api/v4"
		query := "/merge_requests?labels=l00,l01&state=opened"
		// The filter must match a few merge requests of each list, or the benchmark measures nothing.
		for _, u := range []string{fmt.Sprintf("%s/projects/%d%s", api, projects[0].ID, query), fmt.Sprintf("%s/groups/%d%s", api, group.ID, query)} {
			resp := in.Do(b, "GET", u, token, nil)
			if resp.Status != 200 || resp.Header.Get("X-Total") == "0" {
				b.Fatalf("GET %s: %s (X-Total %s)", u, resp.String()[:min(200, len(resp.String()))], resp.Header.Get("X-Total"))
			}
			b.Logf("%s: X-Total %s", u[len(api):], resp.Header.Get("X-Total"))
		}
		for _, u := range []string{fmt.Sprintf("%s/projects/%d%s", api, projects[0].ID, query), fmt.Sprintf("%s/groups/%d%s", api, group.ID, query),
			fmt.Sprintf("%s/projects/%d/merge_requests", api, projects[0].ID)} {
			traceStatements(b, in, u, token)
		}
		b.Run(fmt.Sprintf("merge_requests=%d/GET_project_merge_requests", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/projects/%d%s", api, projects[0].ID, query), token)
		})
		b.Run(fmt.Sprintf("merge_requests=%d/GET_group_merge_requests", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/groups/%d%s", api, group.ID, query), token)
		})
		b.Run(fmt.Sprintf("merge_requests=%d/GET_project_merge_requests_unfiltered", n), func(b *testing.B) {
			runHTTP(b, fmt.Sprintf("%s/projects/%d/merge_requests", api, projects[0].ID), token)
		})
	}
}
