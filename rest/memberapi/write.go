package memberapi

import (
	"net/http"
	"strings"
	"time"

	"anvil/internal/service/members"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// add handles POST /groups/:id/members and POST /projects/:id/members. A comma in user_id or
// username adds several users and answers GitLab's {"status": ...} object.
func (h *handlers) add(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("access_level")
	level := b.Int("access_level")
	if b.Has("user_id") && b.Has("username") {
		b.Fail("user_id, username are mutually exclusive")
	}
	b.RequireOne("user_id", "username")
	uid := b.StringDefault("user_id", "")
	username := b.StringDefault("username", "")
	expires := b.NullableDate("expires_at").Ptr()
	if err := b.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	if strings.Contains(uid, ",") || strings.Contains(username, ",") {
		in := members.AddManyInput{AccessLevel: *level, ExpiresAt: expires}
		if uid != "" {
			in.UserIDs = strings.Split(uid, ",")
		} else {
			in.Usernames = strings.Split(username, ",")
		}
		r, err := h.members.AddMany(ctx, actor, h.ref(c), in)
		if err != nil {
			return err
		}
		body := gin.H{"status": r.Status}
		if r.Message != "" {
			body["message"] = r.Message
		}
		return httpx.Created(c, body)
	}
	e, err := h.members.Add(ctx, actor, h.ref(c), members.AddInput{UserID: uid, Username: username, AccessLevel: *level, ExpiresAt: expires})
	if err != nil {
		return err
	}
	return httpx.Created(c, presentOne(c, e))
}

// update handles PUT /groups/:id/members/:user_id and PUT /projects/:id/members/:user_id.
func (h *handlers) update(c *gin.Context) error {
	uid, err := userID(c)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("access_level")
	level := b.Int("access_level")
	expires := b.NullableDate("expires_at")
	if err := b.Err(); err != nil {
		return err
	}
	e, err := h.members.Update(c.Request.Context(), httpx.Actor(c), h.ref(c), uid,
		members.UpdateInput{AccessLevel: *level, ExpiresAt: expires})
	if err != nil {
		return err
	}
	return httpx.OK(c, presentOne(c, e))
}

// remove handles DELETE /groups/:id/members/:user_id and DELETE /projects/:id/members/:user_id.
func (h *handlers) remove(c *gin.Context) error {
	uid, err := userID(c)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	opts := members.RemoveOptions{
		SkipSubresources:  b.BoolDefault("skip_subresources", false),
		UnassignIssuables: b.BoolDefault("unassign_issuables", false),
		UnmodifiedSince:   unmodifiedSince(c),
	}
	if err := b.Err(); err != nil {
		return err
	}
	if err := h.members.Remove(c.Request.Context(), httpx.Actor(c), h.ref(c), uid, opts); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// unmodifiedSince reads If-Unmodified-Since; an unparsable value is ignored, as Rails does.
func unmodifiedSince(c *gin.Context) *time.Time {
	v := c.GetHeader("If-Unmodified-Since")
	if v == "" {
		return nil
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return nil
	}
	return &t
}
