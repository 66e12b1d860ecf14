package timetrackingapi_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/timelog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// stats is the time stats object GitLab answers; empty human forms are null.
func stats(estimate, total int, humanEstimate, humanTotal string) map[string]any {
	out := map[string]any{"time_estimate": float64(estimate), "total_time_spent": float64(total),
		"human_time_estimate": nil, "human_total_time_spent": nil}
	if humanEstimate != "" {
		out["human_time_estimate"] = humanEstimate
	}
	if humanTotal != "" {
		out["human_total_time_spent"] = humanTotal
	}
	return out
}

// systemNotes are the bodies of the issue's system notes, oldest first.
func systemNotes(t *testing.T, in *servertest.Instance, base string) []string {
	t.Helper()
	r := in.Do(t, "GET", base+"/notes?sort=asc&order_by=created_at", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	var out []string
	for _, n := range servertest.List(t, r) {
		if n["system"] == true {
			out = append(out, n["body"].(string))
		}
	}
	return out
}

// TestIssueTimeTracking: the four writes and time_stats on an issue, their exact answers and
// errors, the timelogs and total kept in step, the system notes, and the issue's time_stats.
func TestIssueTimeTracking(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "tt", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	in.AddProjectMember(t, p, alice, 20) // Reporter: admin_issue
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues/1"
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/issues", tok, url.Values{"title": {"Track me"}})
	require.Equal(t, 201, r.Status, r.String())

	do := func(method, path string, form url.Values) *servertest.Response {
		var body any
		if form != nil {
			body = form
		}
		return in.Do(t, method, base+path, tok, body)
	}
	expect := func(r *servertest.Response, status int, want map[string]any) {
		t.Helper()
		require.Equal(t, status, r.Status, r.String())
		assert.Equal(t, want, servertest.Object(t, r))
	}

	expect(do("GET", "/time_stats", nil), 200, stats(0, 0, "", ""))
	expect(do("POST", "/time_estimate", url.Values{"duration": {"3h30m"}}), 200, stats(12600, 0, "3h 30m", ""))
	// The same estimate again changes nothing and writes no note.
	expect(do("POST", "/time_estimate", url.Values{"duration": {"3h 30m"}}), 200, stats(12600, 0, "3h 30m", ""))
	expect(do("POST", "/add_spent_time", url.Values{"duration": {"1h"}, "summary": {"triage"}}), 201, stats(12600, 3600, "3h 30m", "1h"))
	expect(do("POST", "/add_spent_time", url.Values{"duration": {"1w2d"}}), 201, stats(12600, 205200, "3h 30m", "1w 2d 1h"))
	expect(do("POST", "/add_spent_time", url.Values{"duration": {"-30m"}}), 201, stats(12600, 203400, "3h 30m", "1w 2d 30m"))

	// Errors: a missing duration names it; an estimate GitLab cannot read (or a negative one)
	// is its bad request; spent time that cannot be read, would go below 0 or above 4 years
	// is the timelog's validation.
	servertest.RequireError(t, do("POST", "/time_estimate", url.Values{}), 400, "error", "duration is missing")
	servertest.RequireError(t, do("POST", "/add_spent_time", url.Values{"summary": {"x"}}), 400, "error", "duration is missing")
	for _, bad := range []string{"abc", "-1h", ""} {
		servertest.RequireError(t, do("POST", "/time_estimate", url.Values{"duration": {bad}}), 400, "message",
			"400 Bad request - Time estimate must have a valid format and be greater than or equal to zero.")
	}
	for _, bad := range []string{"abc", "0", ""} {
		expect(do("POST", "/add_spent_time", url.Values{"duration": {bad}}), 400,
			map[string]any{"message": map[string]any{"timelogs.time_spent": []any{"can't be blank"}}})
	}
	expect(do("POST", "/add_spent_time", url.Values{"duration": {"-2w"}}), 400, map[string]any{"message": map[string]any{
		"base": []any{"Time to subtract exceeds the total time spent"}, "timelogs.base": []any{"Total time spent cannot be negative."}}})
	expect(do("POST", "/add_spent_time", url.Values{"duration": {"5y"}}), 400,
		map[string]any{"message": map[string]any{"timelogs.base": []any{"Total time spent cannot exceed 4 years."}}})
	expect(do("POST", "/add_spent_time", url.Values{"duration": {"1h"}, "summary": {strings.Repeat("s", 256)}}), 400,
		map[string]any{"message": map[string]any{"timelogs.summary": []any{"is too long (maximum is 255 characters)"}}})
	expect(do("GET", "/time_stats", nil), 200, stats(12600, 203400, "3h 30m", "1w 2d 30m"))

	// The issue shows the same time stats.
	r = do("GET", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(12600, 203400, "3h 30m", "1w 2d 30m"), servertest.Object(t, r)["time_stats"])

	expect(do("POST", "/reset_spent_time", nil), 200, stats(12600, 0, "3h 30m", ""))
	expect(do("POST", "/reset_time_estimate", nil), 200, stats(0, 0, "", ""))
	// An estimate of 0 is allowed; a huge one is clamped to GitLab's integer column.
	expect(do("POST", "/time_estimate", url.Values{"duration": {"0"}}), 200, stats(0, 0, "", ""))
	expect(do("POST", "/time_estimate", url.Values{"duration": {"1000y"}}), 200, stats(2147483647, 0, "3728mo 1w 3h 14m 7s", ""))
	expect(do("POST", "/reset_time_estimate", nil), 200, stats(0, 0, "", ""))

	assert.Equal(t, []string{
		"changed time estimate to 3h 30m",
		"added 1h of time spent",
		"added 1w 2d of time spent",
		"subtracted 30m of time spent",
		"removed time spent",
		"removed time estimate",
		"changed time estimate to 3728mo 1w 3h 14m 7s",
		"removed time estimate",
	}, systemNotes(t, in, base))

	// Timelogs: one per write of spent time (the reset is minus the total), the summary and
	// the author kept; their sum is the issue's total.
	ctx := context.Background()
	logs, err := in.DB.Client.Timelog.Query().Where(timelog.TargetTypeEQ(timelog.TargetTypeIssue)).Order(timelog.ByID()).All(ctx)
	require.NoError(t, err)
	var spent []int
	for _, l := range logs {
		spent = append(spent, l.TimeSpent)
		assert.Equal(t, alice.ID, *l.UserID)
		assert.Equal(t, p.ID, *l.ProjectID)
	}
	assert.Equal(t, []int{3600, 201600, -1800, -203400}, spent)
	require.NotNil(t, logs[0].Summary)
	assert.Equal(t, "triage", *logs[0].Summary)

	// A deleted issue's timelogs go with it.
	require.Equal(t, 204, in.Do(t, "DELETE", base, servertest.RootToken, nil).Status)
	n, err := in.DB.Client.Timelog.Query().Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
}

// TestIssueTimeTrackingLimitToHours: with time_tracking_limit_to_hours the human forms and
// the notes stop at hours.
func TestIssueTimeTrackingLimitToHours(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "tth", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues"
	require.Equal(t, 201, in.Do(t, "POST", base, servertest.RootToken, url.Values{"title": {"x"}}).Status)
	r := in.Do(t, "PUT", "/application/settings", servertest.RootToken, url.Values{"time_tracking_limit_to_hours": {"true"}})
	require.Equal(t, 200, r.Status, r.String())

	r = in.Do(t, "POST", base+"/1/time_estimate", servertest.RootToken, url.Values{"duration": {"1w"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(144000, 0, "40h", ""), servertest.Object(t, r))
	r = in.Do(t, "POST", base+"/1/add_spent_time", servertest.RootToken, url.Values{"duration": {"1d 2h"}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, stats(144000, 36000, "40h", "10h"), servertest.Object(t, r))
	r = in.Do(t, "GET", base+"?iids[]=1", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(144000, 36000, "40h", "10h"), servertest.List(t, r)[0]["time_stats"])
	assert.Equal(t, []string{"changed time estimate to 40h", "added 10h of time spent"}, systemNotes(t, in, base+"/1"))
}

// TestIssueTimeTrackingPermissions: reading time_stats follows read_issue; the writes need
// admin_issue (Reporter+), 401 for anonymous callers, 404 where the issue is hidden.
func TestIssueTimeTrackingPermissions(t *testing.T) {
	in := servertest.Start(t)
	for _, vis := range []string{"public", "private"} {
		g := in.NewGroup(t, "ttp-"+vis, vis, nil)
		p := in.NewProject(t, g, "app", vis)
		base := "/projects/" + strconv.Itoa(p.ID) + "/issues/1"
		require.Equal(t, 201, in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/issues", servertest.RootToken,
			url.Values{"title": {"x"}}).Status)
		hidden := map[bool]int{true: 404, false: 403}[vis == "private"]
		want := map[string]struct{ read, write int }{
			"anonymous":  {map[bool]int{true: 404, false: 200}[vis == "private"], 401},
			"non-member": {map[bool]int{true: 404, false: 200}[vis == "private"], hidden},
			"guest":      {200, 403},
			"reporter":   {200, 200},
			"developer":  {200, 200},
			"maintainer": {200, 200},
			"owner":      {200, 200},
			"admin":      {200, 200},
		}
		for _, role := range servertest.Roles(t, in, vis, g) {
			w := want[role.Name]
			t.Run(vis+"/"+role.Name, func(t *testing.T) {
				assert.Equal(t, w.read, in.Do(t, "GET", base+"/time_stats", role.Token, nil).Status, "time_stats")
				for _, path := range []string{"/time_estimate", "/reset_time_estimate", "/add_spent_time", "/reset_spent_time"} {
					r := in.Do(t, "POST", base+path, role.Token, url.Values{"duration": {"1h"}})
					status := w.write
					if status == 200 && path == "/add_spent_time" {
						status = 201
					}
					require.Equal(t, status, r.Status, path+" "+r.String())
					switch status {
					case 401:
						assert.Equal(t, map[string]any{"message": "401 Unauthorized"}, servertest.Object(t, r))
					case 403:
						assert.Equal(t, map[string]any{"message": "403 Forbidden"}, servertest.Object(t, r))
					case 404:
						assert.Equal(t, map[string]any{"message": "404 Project Not Found"}, servertest.Object(t, r))
					}
				}
			})
		}
	}
	// An unknown issue is 404 Issue Not Found.
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(1)+"/issues/99/time_estimate", servertest.RootToken, url.Values{"duration": {"1h"}})
	servertest.RequireError(t, r, 404, "message", "404 Issue Not Found")
}

// TestIssueTimeTrackingClientGo: GitLab's Go client sets, adds, resets and reads time stats.
func TestIssueTimeTrackingClientGo(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "ttc", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	gl := in.Client(t, servertest.RootToken)
	is, _, err := gl.Issues.CreateIssue(p.ID, &gitlab.CreateIssueOptions{Title: gitlab.Ptr("client")})
	require.NoError(t, err)

	ts, _, err := gl.Issues.SetTimeEstimate(p.ID, is.IID, &gitlab.SetTimeEstimateOptions{Duration: gitlab.Ptr("1mo")})
	require.NoError(t, err)
	assert.Equal(t, &gitlab.TimeStats{HumanTimeEstimate: "1mo", TimeEstimate: 576000}, ts)
	ts, _, err = gl.Issues.AddSpentTime(p.ID, is.IID, &gitlab.AddSpentTimeOptions{Duration: gitlab.Ptr("90m"), Summary: gitlab.Ptr("x")})
	require.NoError(t, err)
	assert.Equal(t, &gitlab.TimeStats{HumanTimeEstimate: "1mo", HumanTotalTimeSpent: "1h 30m", TimeEstimate: 576000, TotalTimeSpent: 5400}, ts)
	ts, _, err = gl.Issues.GetTimeSpent(p.ID, is.IID)
	require.NoError(t, err)
	assert.Equal(t, int64(5400), ts.TotalTimeSpent)
	ts, _, err = gl.Issues.ResetSpentTime(p.ID, is.IID)
	require.NoError(t, err)
	assert.Equal(t, &gitlab.TimeStats{HumanTimeEstimate: "1mo", TimeEstimate: 576000}, ts)
	ts, _, err = gl.Issues.ResetTimeEstimate(p.ID, is.IID)
	require.NoError(t, err)
	assert.Equal(t, &gitlab.TimeStats{}, ts)
	got, _, err := gl.Issues.GetIssue(p.ID, is.IID)
	require.NoError(t, err)
	assert.Equal(t, &gitlab.TimeStats{}, got.TimeStats)
}
