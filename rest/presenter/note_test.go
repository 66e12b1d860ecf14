package presenter_test

import (
	"encoding/json"
	"testing"
	"time"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/rest/presenter"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNote_resolvable: resolved, resolved_by and resolved_at appear on resolvable notes only
// (null until resolved); commit_id and position on a merge request's diff notes only.
func TestNote_resolvable(t *testing.T) {
	p := presenter.New("http://anvil.test")
	render := func(n *ent.Note) map[string]any {
		b, err := json.Marshal(p.Note(n))
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.Unmarshal(b, &out))
		return out
	}
	dn, diff := note.TypeDiscussionNote, note.TypeDiffNote
	plain := render(&ent.Note{ID: 1, NoteableType: note.NoteableTypeIssue, Body: "x"})
	for _, k := range []string{"resolved", "resolved_by", "resolved_at", "commit_id", "position"} {
		assert.NotContains(t, plain, k)
	}
	open := render(&ent.Note{ID: 2, NoteableType: note.NoteableTypeMergeRequest, Type: &dn, Resolvable: true})
	assert.Equal(t, false, open["resolved"])
	assert.Contains(t, open, "resolved_by")
	assert.Nil(t, open["resolved_by"])
	assert.Nil(t, open["resolved_at"])
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sha := "0123456789abcdef0123456789abcdef01234567"
	done := &ent.Note{ID: 3, NoteableType: note.NoteableTypeMergeRequest, Type: &diff, Resolvable: true,
		ResolvedAt: &at, CommitID: &sha, Position: map[string]any{"new_line": float64(3)}}
	done.Edges.ResolvedBy = &ent.User{ID: 7, Username: "rev", Name: "Rev", State: "active"}
	out := render(done)
	assert.Equal(t, true, out["resolved"])
	assert.Equal(t, "2026-01-02T03:04:05.000Z", out["resolved_at"])
	assert.Equal(t, "rev", out["resolved_by"].(map[string]any)["username"])
	assert.Equal(t, sha, out["commit_id"])
	assert.Equal(t, map[string]any{"new_line": float64(3)}, out["position"])
}
