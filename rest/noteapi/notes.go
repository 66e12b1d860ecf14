package noteapi

import (
	"anvil/internal/service/notes"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// list handles GET <noteable>/notes: sort (desc), order_by (created_at, updated_at), activity_filter.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	var p notes.ListParams
	var o notes.Order
	if v := b.Enum("activity_filter", notes.ActivityFilters...); v != nil {
		p.ActivityFilter = *v
	}
	if v := b.Enum("order_by", "created_at", "updated_at"); v != nil {
		o.By = *v
	}
	if v := b.Enum("sort", "asc", "desc"); v != nil {
		o.Sort = *v
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, _, err := h.notes.List(c.Request.Context(), httpx.Actor(c), h.ref(c), p, o, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Notes(r.Items))
}

// get handles GET <noteable>/notes/:note_id.
func (h *handlers) get(c *gin.Context) error {
	n, _, err := h.notes.Get(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "note_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Note(n))
}

// bindCreate reads a new note: body (required), internal, created_at.
func bindCreate(c *gin.Context) (notes.CreateInput, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return notes.CreateInput{}, err
	}
	return createInput(b)
}

func createInput(b *params.Binder) (notes.CreateInput, error) {
	b.Require("body")
	in := notes.CreateInput{Body: b.StringDefault("body", ""), CreatedAt: b.Time("created_at")}
	// confidential is the deprecated name of internal.
	in.Internal = b.BoolDefault("internal", false) || b.BoolDefault("confidential", false)
	return in, b.Err()
}

// create handles POST <noteable>/notes.
func (h *handlers) create(c *gin.Context) error {
	in, err := bindCreate(c)
	if err != nil {
		return err
	}
	n, _, err := h.notes.Create(c.Request.Context(), httpx.Actor(c), h.ref(c), in, false)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Note(n))
}

// update handles PUT <noteable>/notes/:note_id and PUT <noteable>/discussions/:discussion_id/notes/:note_id
// (the discussion form resolves the note with resolved instead of body).
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	if c.Param("discussion_id") != "" {
		// GitLab's exactly_one_of(body, resolved): a request that sends both (python-gitlab's
		// save() always sends body) is refused rather than having its resolved flag ignored.
		b.ExactlyOneOf("body", "resolved")
		if err := b.Err(); err != nil {
			return err
		}
	}
	if c.Param("discussion_id") != "" && !b.Has("body") && b.Has("resolved") {
		resolved := b.BoolDefault("resolved", false)
		if err := b.Err(); err != nil {
			return err
		}
		n, _, err := h.notes.ResolveNote(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "note_id"), resolved)
		if err != nil {
			return err
		}
		return httpx.OK(c, httpx.P(c).Note(n))
	}
	b.Require("body")
	body := b.StringDefault("body", "")
	if err := b.Err(); err != nil {
		return err
	}
	n, _, err := h.notes.Update(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "note_id"), body)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Note(n))
}

// delete handles DELETE <noteable>/notes/:note_id and its discussion form.
func (h *handlers) delete(c *gin.Context) error {
	if err := h.notes.Delete(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "note_id")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
