// Package noteapi serves the notes and discussions of every noteable: the notes API
// (.../notes: list, read, create, update, delete) and the discussions API (.../discussions:
// list, read, start a thread, reply, change and delete a thread's notes), one set of
// handlers over notes.Service for each noteable's URL family.
package noteapi

import (
	"anvil/internal/service/notes"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// Family is one noteable's URL family: its type, the path of one noteable (its parent in
// :id) and the name of the path parameter that holds its id or iid. Resolvable families (merge
// requests) also serve PUT .../discussions/:discussion_id?resolved=; Diffs families (merge
// requests, commits) start threads on diff lines (position); DiscussionsOnly families
// (commits) have no notes API, as in GitLab.
type Family struct {
	Type            string
	Path            string
	IDParam         string
	Resolvable      bool
	Diffs           bool
	DiscussionsOnly bool
}

// Families are the noteables served, one line each (snippets, epics, merge requests and
// commits add theirs).
var Families = []Family{
	{Type: notes.TypeIssue, Path: "/projects/:id/issues/:issue_iid", IDParam: "issue_iid"},
	{Type: notes.TypeSnippet, Path: "/projects/:id/snippets/:snippet_id", IDParam: "snippet_id"},
	// Epics are addressed by their global id here (GitLab's :epic_id); the path parameter
	// shares the epic routes' name, which the router requires at this position.
	{Type: notes.TypeEpic, Path: "/groups/:id/epics/:epic_iid", IDParam: "epic_iid"},
	// Commits are addressed by id, branch or tag (the commit routes' :sha).
	{Type: notes.TypeCommit, Path: "/projects/:id/repository/commits/:sha", IDParam: "sha", Diffs: true, DiscussionsOnly: true},
}

type handlers struct {
	notes  *notes.Service
	family Family
}

// Register adds the notes and discussions routes of every family.
func Register(t *route.Table) {
	for _, f := range Families {
		h := &handlers{notes: t.S.Notes, family: f}
		if !f.DiscussionsOnly {
			t.GET(f.Path+"/notes", h.list)
			t.GET(f.Path+"/notes/:note_id", h.get)
			t.POST(f.Path+"/notes", h.create, route.SignedIn)
			t.PUT(f.Path+"/notes/:note_id", h.update, route.SignedIn)
			t.DELETE(f.Path+"/notes/:note_id", h.delete, route.SignedIn)
		}
		t.GET(f.Path+"/discussions", h.discussions)
		t.GET(f.Path+"/discussions/:discussion_id", h.discussion)
		t.POST(f.Path+"/discussions", h.createDiscussion, route.SignedIn)
		t.GET(f.Path+"/discussions/:discussion_id/notes", h.discussionNotes)
		t.GET(f.Path+"/discussions/:discussion_id/notes/:note_id", h.get)
		t.POST(f.Path+"/discussions/:discussion_id/notes", h.reply, route.SignedIn)
		t.PUT(f.Path+"/discussions/:discussion_id/notes/:note_id", h.update, route.SignedIn)
		t.DELETE(f.Path+"/discussions/:discussion_id/notes/:note_id", h.delete, route.SignedIn)
		if f.Resolvable {
			t.PUT(f.Path+"/discussions/:discussion_id", h.resolveDiscussion, route.SignedIn)
		}
	}
	// GitLab's older commit comments API.
	c := &handlers{notes: t.S.Notes, family: familyOf(notes.TypeCommit)}
	t.GET(c.family.Path+"/comments", c.comments)
	t.POST(c.family.Path+"/comments", c.comment, route.SignedIn)
}

// ref is the noteable the request's path names.
func (h *handlers) ref(c *gin.Context) notes.Ref {
	return notes.Ref{Type: h.family.Type, Parent: httpx.PathParam(c, "id"), ID: httpx.PathParam(c, h.family.IDParam)}
}

// familyOf is the family of a noteable type.
func familyOf(typ string) Family {
	for _, f := range Families {
		if f.Type == typ {
			return f
		}
	}
	panic("noteapi: no family " + typ)
}
