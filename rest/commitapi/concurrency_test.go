package commitapi_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"

	"github.com/stretchr/testify/require"
)

// Racing writers on one branch: the branch moves by compare-and-swap, so every commit that was
// acknowledged (201) is in the history afterwards, and every loser gets a clean 400 and can
// retry.
func TestCommits_Create_concurrent(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "race", "public")
	r := f.Repo(t, p)
	tok := f.Tokens["maintainer"]
	path := base(p) + "/commits"
	const writers = 12
	const stale = "Could not update refs/heads/main. Please refresh and try again."

	post := func(i, attempt int) (int, map[string]any) {
		body := fmt.Sprintf(`{"branch":"main","commit_message":"writer %d try %d","stats":false,"actions":[{"action":"create","file_path":"w/%d.txt","content":"%d"}]}`, i, attempt, i, i)
		res := f.In.Do(t, "POST", path, tok, body)
		return res.Status, servertest.Object(t, res)
	}

	// Round 1: everyone at once, no retries.
	var mu sync.Mutex
	var acked []string
	var losers []int
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body := post(i, 0)
			mu.Lock()
			defer mu.Unlock()
			switch status {
			case 201:
				acked = append(acked, body["id"].(string))
			case 400:
				require.Equal(t, map[string]any{"message": stale}, body)
				losers = append(losers, i)
			default:
				t.Errorf("writer %d: unexpected %d %v", i, status, body)
			}
		}()
	}
	wg.Wait()
	require.NotEmpty(t, acked)
	require.Equal(t, writers, len(acked)+len(losers))

	// Round 2: the losers retry until they land.
	for _, i := range losers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for attempt := 1; ; attempt++ {
				status, body := post(i, attempt)
				if status == 201 {
					mu.Lock()
					acked = append(acked, body["id"].(string))
					mu.Unlock()
					return
				}
				if status != 400 || body["message"] != stale || attempt > 200 {
					t.Errorf("writer %d: %d %v", i, status, body)
					return
				}
			}
		}()
	}
	wg.Wait()
	require.Len(t, acked, writers)

	history, err := r.Log(context.Background(), git.LogOptions{Revisions: []string{"main"}})
	require.NoError(t, err)
	inHistory := map[string]bool{}
	for _, c := range history {
		inHistory[string(c.ID)] = true
	}
	for _, id := range acked {
		require.True(t, inHistory[id], "acknowledged commit %s lost", id)
	}
	require.Len(t, history, writers+1) // the README commit, then one per writer
	for i := range writers {
		require.Equal(t, fmt.Sprint(i), blob(t, r, "main", fmt.Sprintf("w/%d.txt", i)))
	}
}
