package noteapi

import (
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// discussions handles GET <noteable>/discussions.
func (h *handlers) discussions(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, _, err := h.notes.Discussions(c.Request.Context(), httpx.Actor(c), h.ref(c), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Discussions(r.Items))
}

// discussion handles GET <noteable>/discussions/:discussion_id.
func (h *handlers) discussion(c *gin.Context) error {
	d, _, err := h.notes.Discussion(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "discussion_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Discussion(d))
}

// createDiscussion handles POST <noteable>/discussions: a new thread.
func (h *handlers) createDiscussion(c *gin.Context) error {
	in, err := bindCreate(c)
	if err != nil {
		return err
	}
	n, _, err := h.notes.Create(c.Request.Context(), httpx.Actor(c), h.ref(c), in, true)
	if err != nil {
		return err
	}
	d, _, err := h.notes.Discussion(c.Request.Context(), httpx.Actor(c), h.ref(c), n.DiscussionID)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Discussion(d))
}

// reply handles POST <noteable>/discussions/:discussion_id/notes (note_id is accepted and unused,
// as in GitLab).
func (h *handlers) reply(c *gin.Context) error {
	in, err := bindCreate(c)
	if err != nil {
		return err
	}
	n, _, err := h.notes.Reply(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "discussion_id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Note(n))
}
