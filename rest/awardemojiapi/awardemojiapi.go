// Package awardemojiapi serves emoji reactions (award emoji) on every registered awardable:
// list, read, award and remove under the awardable's URL (issues, project snippets, epics and
// the notes on each: .../issues/:issue_iid/award_emoji, .../notes/:note_id/award_emoji).
package awardemojiapi

import (
	"anvil/internal/service/awardemoji"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ awards *awardemoji.Service }

// awardable is one URL family of awardables: its kind and how its path names it.
type awardable struct {
	kind awardemoji.Kind
	path string   // the awardable's path below /api/v4
	keys []string // the path parameters naming it below the parent :id
}

// awardables are the URL families served once their kind is registered.
var awardables = []awardable{
	{awardemoji.IssueKind, "/projects/:id/issues/:issue_iid", []string{"issue_iid"}},
	{awardemoji.IssueNoteKind, "/projects/:id/issues/:issue_iid/notes/:note_id", []string{"issue_iid", "note_id"}},
	{awardemoji.SnippetKind, "/projects/:id/snippets/:snippet_id", []string{"snippet_id"}},
	{awardemoji.SnippetNoteKind, "/projects/:id/snippets/:snippet_id/notes/:note_id", []string{"snippet_id", "note_id"}},
	{awardemoji.EpicKind, "/groups/:id/epics/:epic_iid", []string{"epic_iid"}},
	{awardemoji.EpicNoteKind, "/groups/:id/epics/:epic_iid/notes/:note_id", []string{"epic_iid", "note_id"}},
	{awardemoji.MergeRequestKind, "/projects/:id/merge_requests/:merge_request_iid", []string{"merge_request_iid"}},
	{awardemoji.MergeRequestNoteKind, "/projects/:id/merge_requests/:merge_request_iid/notes/:note_id", []string{"merge_request_iid", "note_id"}},
}

// Register adds the award routes of every registered kind. Reading is open to anyone who may
// read the awardable; awarding and removing answer 404 or 401 themselves, as GitLab does for
// callers who are not signed in.
func Register(t *route.Table) {
	h := &handlers{awards: t.S.AwardEmoji}
	for _, a := range awardables {
		if !t.S.AwardEmoji.Registry().Has(a.kind) {
			continue
		}
		t.GET(a.path+"/award_emoji", h.list(a))
		t.GET(a.path+"/award_emoji/:award_id", h.get(a))
		t.POST(a.path+"/award_emoji", h.create(a))
		t.DELETE(a.path+"/award_emoji/:award_id", h.delete(a))
	}
}

// ref is the awardable the path names.
func (a awardable) ref(c *gin.Context) awardemoji.Ref {
	r := awardemoji.Ref{Parent: httpx.PathParam(c, "id")}
	for _, k := range a.keys {
		r.Keys = append(r.Keys, httpx.PathParam(c, k))
	}
	return r
}

// list handles GET .../award_emoji.
func (h *handlers) list(a awardable) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		page := httpx.Offset(b)
		if err := b.Err(); err != nil {
			return err
		}
		r, err := h.awards.List(c.Request.Context(), httpx.Actor(c), a.kind, a.ref(c), page)
		if err != nil {
			return err
		}
		return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).AwardEmojis(r.Items))
	}
}

// get handles GET .../award_emoji/:award_id.
func (h *handlers) get(a awardable) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		aw, err := h.awards.Get(c.Request.Context(), httpx.Actor(c), a.kind, a.ref(c), httpx.PathParam(c, "award_id"))
		if err != nil {
			return err
		}
		return httpx.OK(c, httpx.P(c).AwardEmoji(aw))
	}
}

// create handles POST .../award_emoji (name: the emoji's name without colons).
func (h *handlers) create(a awardable) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		b.Require("name")
		name := b.StringDefault("name", "")
		if err := b.Err(); err != nil {
			return err
		}
		aw, err := h.awards.Award(c.Request.Context(), httpx.Actor(c), a.kind, a.ref(c), name)
		if err != nil {
			return err
		}
		return httpx.Created(c, httpx.P(c).AwardEmoji(aw))
	}
}

// delete handles DELETE .../award_emoji/:award_id (the award's user or an administrator).
func (h *handlers) delete(a awardable) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		if err := h.awards.Remove(c.Request.Context(), httpx.Actor(c), a.kind, a.ref(c), httpx.PathParam(c, "award_id")); err != nil {
			return err
		}
		return httpx.NoContent(c)
	}
}
