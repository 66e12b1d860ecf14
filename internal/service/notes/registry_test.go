package notes_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/notes"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// threads is a noteable registered the way other domains register theirs: a resolvable kind
// (as merge requests are) that stands on an issue, keeping no count.
type threads struct{ issues *notes.IssueNoteable }

func (n threads) Find(ctx context.Context, actor *authz.Actor, ref notes.Ref) (*notes.Target, error) {
	t, err := n.issues.Find(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	t.Type, t.Access.Resolvable = notes.TypeMergeRequest, true
	return t, nil
}

func (threads) UserNotesChanged(context.Context, *notes.Target, int) error { return nil }

// TestRegistry_resolvableThreads: a registered noteable gets threads, replies and resolution
// without any code of its own; a thread's author resolves it, others may not.
func TestRegistry_resolvableThreads(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "reg", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	bob, _ := in.NewUser(t, "bob")
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/issues", tok, url.Values{"title": {"MR stand-in"}})
	require.Equal(t, 201, r.Status, r.String())
	// A registry of its own: the server's has the real merge request noteable.
	svc := notes.New(in.Services.DB.Client)
	svc.Register(notes.TypeIssue, notes.NewIssueNoteable(in.Services.DB.Client, in.Services.Issues))
	svc.Register(notes.TypeMergeRequest, threads{issues: notes.NewIssueNoteable(in.Services.DB.Client, in.Services.Issues)})
	require.Panics(t, func() { svc.Register(notes.TypeMergeRequest, threads{}) }, "a type registers once")

	ctx := t.Context()
	ref := notes.Ref{Type: notes.TypeMergeRequest, Parent: strconv.Itoa(p.ID), ID: "1"}
	aliceA, bobA := authz.System(alice), authz.System(bob)

	single, _, err := svc.Create(ctx, aliceA, ref, notes.CreateInput{Body: "individual"}, false)
	require.NoError(t, err)
	assert.False(t, single.Resolvable, "individual notes are not resolvable")
	thread, _, err := svc.Create(ctx, aliceA, ref, notes.CreateInput{Body: "thread"}, true)
	require.NoError(t, err)
	assert.True(t, thread.Resolvable)
	assert.Equal(t, notes.TypeMergeRequest, string(thread.NoteableType))

	// Replying to the individual note makes it a resolvable thread.
	_, _, err = svc.Reply(ctx, bobA, ref, single.DiscussionID, notes.CreateInput{Body: "re"})
	require.NoError(t, err)
	d, _, err := svc.Discussion(ctx, bobA, ref, single.DiscussionID)
	require.NoError(t, err)
	assert.False(t, d.Individual)
	for _, n := range d.Notes {
		assert.True(t, n.Resolvable)
	}

	_, _, err = svc.ResolveDiscussion(ctx, bobA, ref, thread.DiscussionID, true)
	assert.True(t, apperr.Is(err, apperr.KindForbidden), "not bob's thread: %v", err)
	d, _, err = svc.ResolveDiscussion(ctx, aliceA, ref, thread.DiscussionID, true)
	require.NoError(t, err)
	require.NotNil(t, d.Notes[0].ResolvedAt)
	assert.Equal(t, alice.ID, *d.Notes[0].ResolvedByID)
	n, _, err := svc.ResolveNote(ctx, aliceA, ref, strconv.Itoa(thread.ID), false)
	require.NoError(t, err)
	assert.Nil(t, n.ResolvedAt)

	// The kind's notes are its own: the issue underneath has none of them.
	res, _, err := svc.List(ctx, aliceA, notes.Ref{Type: notes.TypeIssue, Parent: ref.Parent, ID: "1"}, notes.ListParams{}, notes.Order{}, pageOne)
	require.NoError(t, err)
	assert.Empty(t, res.Items)
}

var pageOne = pagination.NewOffset(1, 20)
