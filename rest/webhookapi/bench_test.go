package webhookapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/db"
	"anvil/internal/service/webhooks"

	"github.com/stretchr/testify/require"
)

// BenchmarkDeliveryThroughput measures deliveries per second through the job queue to a
// loopback receiver: each iteration queues 200 deliveries (one event to one project hook,
// each in its own transaction, as changes queue them) and waits until the receiver has them
// all. The metric deliveries/s covers queueing, the queue's pick-up, the POST and the log.
func BenchmarkDeliveryThroughput(b *testing.B) {
	const batch = 200
	f := servertest.NewRepoFixture(b)
	require.NoError(b, f.In.Services.Settings.Set(context.Background(), "outbound_local_requests_whitelist", []string{"127.0.0.1"}))
	rcv := newReceiver(b)
	p := f.Project(b, "bench", "private")
	r := f.Do(b, "POST", "/projects/"+strconv.Itoa(p.ID)+"/hooks", "maintainer", `{"url":"`+rcv.URL+`","push_events":false,"issues_events":true}`)
	require.Equal(b, 201, r.Status, r.String())
	hooks := f.In.Services.Webhooks
	payload := map[string]any{"object_kind": "issue", "object_attributes": map[string]any{"id": 1, "title": "Bench"}}
	ctx := context.Background()
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		want := len(rcv.deliveries()) + batch
		for j := 0; j < batch; j++ {
			require.NoError(b, db.WithTx(ctx, f.In.Services.DB.Client, func(ctx context.Context, _ *ent.Client) error {
				return hooks.Trigger(ctx, webhooks.Target{Project: p}, webhooks.IssueEvent, payload)
			}))
		}
		for len(rcv.deliveries()) < want {
			time.Sleep(2 * time.Millisecond)
		}
		total += time.Since(start)
	}
	b.StopTimer()
	b.ReportMetric(float64(batch*b.N)/total.Seconds(), "deliveries/s")
}

// BenchmarkPushHookCost measures what project hooks add to a push: a commit through the API
// (one file changed) with no hook, then with 10 hooks receiving pushes. The request's time
// includes queueing the push hook job in the push's transaction; the deliveries run after it
// on the queue and are waited for outside the timer.
func BenchmarkPushHookCost(b *testing.B) {
	for _, n := range []int{0, 10} {
		b.Run(strconv.Itoa(n)+"_hooks", func(b *testing.B) {
			f := servertest.NewRepoFixture(b)
			require.NoError(b, f.In.Services.Settings.Set(context.Background(), "outbound_local_requests_whitelist", []string{"127.0.0.1"}))
			rcv := newReceiver(b)
			p := f.ProjectWithReadme(b, "pushed", "private")
			pid := strconv.Itoa(p.ID)
			for i := 0; i < n; i++ {
				r := f.Do(b, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+rcv.URL+`"}`)
				require.Equal(b, 201, r.Status, r.String())
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := f.Do(b, "POST", "/projects/"+pid+"/repository/commits", "maintainer", `{"branch":"main","commit_message":"c`+strconv.Itoa(i)+`",
					"actions":[{"action":"update","file_path":"README.md","content":"v`+strconv.Itoa(i)+`"}]}`)
				if r.Status != 201 {
					b.Fatal(r.String())
				}
				b.StopTimer()
				f.In.WaitJobs(b)
				b.StartTimer()
			}
			b.StopTimer()
			if len(rcv.deliveries()) != n*b.N {
				b.Fatalf("receiver got %d deliveries, want %d", len(rcv.deliveries()), n*b.N)
			}
		})
	}
}
