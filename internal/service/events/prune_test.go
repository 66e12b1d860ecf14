package events_test

import (
	"context"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/event"
	"anvil/ent/pusheventpayload"
	"anvil/internal/service/events"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPruneOlderThan(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	u, _ := in.NewUser(t, "alice")
	p := in.NewProject(t, in.NewGroup(t, "g", "public", nil), "p", "public")
	now := time.Now().UTC()
	cutoff := now.Add(-events.Retention)
	ref := "main"
	entry := func(at time.Time) events.Entry {
		return events.Entry{Action: event.ActionPushed, AuthorID: u.ID, ProjectID: &p.ID, CreatedAt: at,
			Push: &events.Push{Action: pusheventpayload.ActionPushed, RefType: pusheventpayload.RefTypeBranch, Ref: &ref}}
	}
	require.NoError(t, events.Record(ctx, in.DB.Client,
		entry(cutoff.Add(-48*time.Hour)), entry(cutoff.Add(-time.Minute)), // older than three years
		entry(cutoff.Add(time.Hour)), entry(now)))

	// The daily pruning job also runs at start and may take its share first.
	n, err := in.Services.Events.PruneOlderThan(ctx, cutoff)
	require.NoError(t, err)
	assert.LessOrEqual(t, n, 2)
	left, err := in.DB.Client.Event.Query().All(ctx)
	require.NoError(t, err)
	require.Len(t, left, 2)
	for _, e := range left {
		assert.False(t, e.CreatedAt.Before(cutoff), e.CreatedAt)
	}
	payloads, err := in.DB.Client.PushEventPayload.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, payloads, "the pruned events' payloads went with them")

	// Running again removes nothing more.
	n, err = in.Services.Events.PruneOlderThan(ctx, cutoff)
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestPruneJob_removesWhatRetentionExpired(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	u, _ := in.NewUser(t, "alice")
	p := in.NewProject(t, in.NewGroup(t, "g", "public", nil), "p", "public")
	cutoff := time.Now().UTC().Add(-events.Retention)
	entry := func(at time.Time) events.Entry {
		return events.Entry{Action: event.ActionCreated, AuthorID: u.ID, ProjectID: &p.ID, CreatedAt: at}
	}
	require.NoError(t, events.Record(ctx, in.DB.Client, entry(cutoff.Add(-time.Hour)), entry(cutoff.Add(time.Hour))))

	require.NoError(t, in.Services.Jobs.Enqueue(ctx, events.PruneJob{}))
	in.WaitJobs(t)
	left, err := in.DB.Client.Event.Query().Where(event.ProjectID(p.ID)).All(ctx)
	require.NoError(t, err)
	require.Len(t, left, 1, "the event within retention stays")
	assert.True(t, left[0].CreatedAt.After(cutoff), left[0].CreatedAt)
}
