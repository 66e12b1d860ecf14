package epicapi_test

import (
	"net/url"
	"sort"
	"strconv"
	"sync"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
)

// TestEpicIIDsConcurrent: parallel creations in one group take iids 1..n, without gaps or
// repeats; another group counts from 1.
func TestEpicIIDsConcurrent(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "busy", "public", nil)
	const n = 20
	var (
		mu  sync.Mutex
		got []int
		wg  sync.WaitGroup
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := in.Do(t, "POST", "/groups/"+strconv.Itoa(g.ID)+"/epics", servertest.RootToken, url.Values{"title": {"e" + strconv.Itoa(i)}})
			if !assert.Equal(t, 201, r.Status, r.String()) {
				return
			}
			mu.Lock()
			got = append(got, num(servertest.Object(t, r)["iid"]))
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	sort.Ints(got)
	want := make([]int, n)
	for i := range want {
		want[i] = i + 1
	}
	assert.Equal(t, want, got)
	other := in.NewGroup(t, "calm", "public", nil)
	assert.Equal(t, 1, num(newEpic(t, in, other.ID, servertest.RootToken, url.Values{"title": {"x"}})["iid"]))
}
