package noteapi

import (
	"anvil/internal/apperr"
	"anvil/internal/service/notes"
	"anvil/rest/httpx"
	"anvil/rest/params"

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

// discussionNotes handles GET <noteable>/discussions/:discussion_id/notes: the thread's notes
// (404 Notes Not Found when the actor reads none).
func (h *handlers) discussionNotes(c *gin.Context) error {
	d, _, err := h.notes.Discussion(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "discussion_id"))
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindNotFound && e.Resource == "Discussion" {
		return apperr.NotFound("Notes")
	}
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Notes(d.Notes))
}

// createDiscussion handles POST <noteable>/discussions: a new thread, on a diff line with
// position (merge requests and commits; merge requests also take commit_id and a position's
// line_range).
func (h *handlers) createDiscussion(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in, err := createInput(b)
	if err != nil {
		return err
	}
	if h.family.Diffs {
		mr := h.family.Type == notes.TypeMergeRequest
		in.Position = positionInput(b, mr)
		if mr {
			in.CommitID = b.String("commit_id")
		}
		if err := b.Err(); err != nil {
			return err
		}
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

// resolveDiscussion handles PUT <noteable>/discussions/:discussion_id?resolved= (resolvable families).
func (h *handlers) resolveDiscussion(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("resolved")
	resolved := b.BoolDefault("resolved", false)
	if err := b.Err(); err != nil {
		return err
	}
	d, _, err := h.notes.ResolveDiscussion(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "discussion_id"), resolved)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Discussion(d))
}

// positionInput reads a diff note's position (position[base_sha], ... or a JSON object), nil
// when none is given; lineRange reads position[line_range] (merge requests).
func positionInput(b *params.Binder, lineRange bool) *notes.Position {
	pb := b.Nested("position")
	if pb == nil {
		return nil
	}
	pb.Require("base_sha", "start_sha", "head_sha", "position_type")
	p := &notes.Position{
		BaseSHA: pb.StringDefault("base_sha", ""), StartSHA: pb.StringDefault("start_sha", ""),
		HeadSHA: pb.StringDefault("head_sha", ""),
		OldPath: pb.String("old_path"), NewPath: pb.String("new_path"),
		OldLine: pb.Int("old_line"), NewLine: pb.Int("new_line"),
		Width: pb.Int("width"), Height: pb.Int("height"), X: pb.Int("x"), Y: pb.Int("y"),
	}
	if v := pb.Enum("position_type", notes.PositionTypes...); v != nil {
		p.PositionType = *v
	}
	if lr := nestedIf(pb, lineRange, "line_range"); lr != nil {
		p.LineRange = map[string]any{}
		for _, end := range []string{"start", "end"} {
			e := lr.Nested(end)
			if e == nil {
				continue
			}
			m := map[string]any{"line_code": ptrOf(e.String("line_code")), "type": ptrOf(e.String("type"))}
			// Grape takes the lines as strings; they are kept as the numbers they are.
			for _, k := range []string{"old_line", "new_line"} {
				m[k] = ptrOf(e.Int(k))
			}
			p.LineRange[end] = m
		}
	}
	return p
}

// ptrOf is *v, or nil (JSON null).
func ptrOf[T any](v *T) any {
	if v == nil {
		return nil
	}
	return *v
}

// nestedIf is b.Nested(name) when ok, else nil (the parameter is not one of the route's).
func nestedIf(b *params.Binder, ok bool, name string) *params.Binder {
	if !ok {
		return nil
	}
	return b.Nested(name)
}
