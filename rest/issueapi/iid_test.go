package issueapi_test

import (
	"net/url"
	"sort"
	"strconv"
	"sync"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueIIDsUnderConcurrency: 50 parallel creations in one project get iids 1..50 without
// gaps or duplicates; a deleted issue's iid is never handed out again.
func TestIssueIIDsUnderConcurrency(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "conc", "private", nil)
	p := in.NewProject(t, g, "proj", "private")
	other := in.NewProject(t, g, "other", "private")

	const n = 50
	got := make([]int, n)
	errs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/issues", servertest.RootToken,
				url.Values{"title": {"issue " + strconv.Itoa(i)}})
			if r.Status != 201 {
				errs[i] = r.String()
				return
			}
			got[i] = int(decode[map[string]any](t, r)["iid"].(float64))
		}()
	}
	wg.Wait()
	for _, e := range errs {
		require.Empty(t, e)
	}
	sort.Ints(got)
	want := make([]int, n)
	for i := range want {
		want[i] = i + 1
	}
	assert.Equal(t, want, got)

	// Deleting the newest issue does not free its iid; another project counts on its own.
	r := in.Do(t, "DELETE", "/projects/"+strconv.Itoa(p.ID)+"/issues/50", servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	is := newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"after delete"}})
	assert.Equal(t, float64(51), is["iid"])
	is = newIssue(t, in, other.ID, servertest.RootToken, url.Values{"title": {"first elsewhere"}})
	assert.Equal(t, float64(1), is["iid"])
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues/50", servertest.RootToken, nil)
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Issue Not Found"}`, string(r.Body))
}
