package noteapi

import (
	"anvil/internal/service/notes"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// comments handles GET /projects/:id/repository/commits/:sha/comments: the commit's comments,
// oldest first, in GitLab's CommitNote shape.
func (h *handlers) comments(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, _, err := h.notes.Comments(c.Request.Context(), httpx.Actor(c), h.ref(c), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).CommitNotes(r.Items))
}

// comment handles POST /projects/:id/repository/commits/:sha/comments: note (required), and
// path with line (required with it) and line_type (new or old, new by default).
func (h *handlers) comment(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("note")
	in := notes.CommentInput{Note: b.StringDefault("note", ""), Path: b.String("path"), LineType: "new"}
	if in.Path != nil {
		b.Require("line")
		if v := b.Int("line"); v != nil {
			in.Line = *v
		}
		if v := b.Enum("line_type", "new", "old"); v != nil {
			in.LineType = *v
		}
	}
	if err := b.Err(); err != nil {
		return err
	}
	n, _, err := h.notes.Comment(c.Request.Context(), httpx.Actor(c), h.ref(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).CommitNote(n))
}
