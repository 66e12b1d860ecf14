package todos_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/todo"
	"anvil/internal/authz"
	"anvil/internal/service/todos"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecorder_NoteAdded: what the notes domain calls for a comment: the commenter's pending
// to-dos on the target are done, and the users the comment mentions who may read the target
// get a to-do carrying the note's id and text (except those named in skip).
func TestRecorder_NoteAdded(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	g := in.NewGroup(t, "g", "public", nil)
	p := in.NewProject(t, g, "p", "private")
	dev, devTok := in.NewUser(t, "dev")
	rep, _ := in.NewUser(t, "rep")
	gst, _ := in.NewUser(t, "gst")
	skipped, _ := in.NewUser(t, "skipped")
	in.NewUser(t, "out")
	in.AddGroupMember(t, g, dev, 30)
	in.AddGroupMember(t, g, rep, 20)
	in.AddGroupMember(t, g, gst, 10)
	in.AddGroupMember(t, g, skipped, 30)
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/issues", devTok,
		url.Values{"title": {"Secret"}, "confidential": {"true"}, "description": {"@dev"}})
	require.Equal(t, 201, r.Status, r.String())

	actor := &authz.Actor{User: dev}
	is, _, err := in.Services.Issues.Find(ctx, actor, strconv.Itoa(p.ID), "1")
	require.NoError(t, err)
	rec := in.Services.Todos.Recorder()
	require.NoError(t, rec.NoteAdded(ctx, actor, rec.IssueTarget(is), 4242,
		"@rep please check\nalso @gst @out @skipped", []string{"skipped"}))

	all, err := in.DB.Client.Todo.Query().Order(todo.ByUserID()).All(ctx)
	require.NoError(t, err)
	got := map[int]string{}
	for _, td := range all {
		got[td.UserID] = string(td.Action) + " " + string(td.State)
		if td.UserID == rep.ID {
			require.NotNil(t, td.NoteID)
			assert.Equal(t, 4242, *td.NoteID)
			assert.Equal(t, "@rep please check\nalso @gst @out @skipped", *td.Body)
			assert.Equal(t, todos.TargetIssue, td.TargetType)
			assert.Equal(t, is.ID, td.TargetID)
		}
	}
	assert.Equal(t, map[int]string{
		dev.ID: "directly_addressed done", // the commenter's own to-do on the issue is done
		rep.ID: "directly_addressed pending",
	}, got, "the Guest may not read the confidential issue, the outsider not the project; skipped is skipped")
}
