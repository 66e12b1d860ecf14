// Package webhookapi serves system hooks (/hooks, administrators), group hooks
// (/groups/:id/hooks, group Owners) and project hooks (/projects/:id/hooks, Maintainers): list,
// read, create, update, delete, tests, the delivery log with resend, and the custom headers and
// URL variables of a hook.
package webhookapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"anvil/internal/authz"
	"anvil/internal/service/webhooks"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct {
	hooks *webhooks.Service
	kind  webhooks.Kind
}

// Register adds the hook routes.
func Register(t *route.Table) {
	sys := &handlers{hooks: t.S.Webhooks, kind: webhooks.System}
	t.GET("/hooks", sys.list, route.AdminOnly)
	t.GET("/hooks/:id", sys.get, route.AdminOnly)
	t.POST("/hooks", sys.create, route.AdminOnly)
	t.PUT("/hooks/:id", sys.update, route.AdminOnly)
	t.POST("/hooks/:id", sys.systemTest, route.AdminOnly)
	t.DELETE("/hooks/:id", sys.delete, route.AdminOnly)
	t.PUT("/hooks/:id/url_variables/:key", sys.setURLVariable, route.AdminOnly)
	t.DELETE("/hooks/:id/url_variables/:key", sys.deleteURLVariable, route.AdminOnly)
	for _, r := range []struct {
		prefix string
		kind   webhooks.Kind
	}{{"/projects/:id/hooks", webhooks.Project}, {"/groups/:id/hooks", webhooks.Group}} {
		h := &handlers{hooks: t.S.Webhooks, kind: r.kind}
		t.GET(r.prefix, h.list, route.SignedIn)
		t.GET(r.prefix+"/:hook_id", h.get, route.SignedIn)
		t.POST(r.prefix, h.create, route.SignedIn)
		t.PUT(r.prefix+"/:hook_id", h.update, route.SignedIn)
		t.DELETE(r.prefix+"/:hook_id", h.delete, route.SignedIn)
		t.POST(r.prefix+"/:hook_id/test/:trigger", h.test, route.SignedIn)
		t.GET(r.prefix+"/:hook_id/events", h.events, route.SignedIn)
		t.POST(r.prefix+"/:hook_id/events/:hook_event_id/resend", h.resend, route.SignedIn)
		t.PUT(r.prefix+"/:hook_id/custom_headers/:key", h.setCustomHeader, route.SignedIn)
		t.DELETE(r.prefix+"/:hook_id/custom_headers/:key", h.deleteCustomHeader, route.SignedIn)
		t.PUT(r.prefix+"/:hook_id/url_variables/:key", h.setURLVariable, route.SignedIn)
		t.DELETE(r.prefix+"/:hook_id/url_variables/:key", h.deleteURLVariable, route.SignedIn)
	}
}

// scope is the hooks the route addresses.
func (h *handlers) scope(c *gin.Context) webhooks.Scope {
	if h.kind == webhooks.System {
		return webhooks.Scope{Kind: webhooks.System}
	}
	return webhooks.Scope{Kind: h.kind, Ref: httpx.PathParam(c, "id")}
}

// hookID reads the hook's id from the path.
func (h *handlers) hookID(c *gin.Context) (int, error) {
	if h.kind == webhooks.System {
		return httpx.PathInt(c, "id", "")
	}
	return httpx.PathInt(c, "hook_id", "")
}

// answer maps the refusal of a hook URL to GitLab's {"error":"Invalid url given"}.
func answer(err error) error {
	if errors.Is(err, webhooks.ErrInvalidURL) {
		return httpx.GrapeError(http.StatusUnprocessableEntity, "Invalid url given")
	}
	return err
}

// list handles GET .../hooks: a page, with GitLab's pagination headers.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.hooks.List(c.Request.Context(), httpx.Actor(c), h.scope(c), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Hooks(r.Items, h.hooks.Now()))
}

// get handles GET .../hooks/:hook_id.
func (h *handlers) get(c *gin.Context) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	v, err := h.hooks.Get(c.Request.Context(), httpx.Actor(c), h.scope(c), id)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Hook(v, h.hooks.Now()))
}

// input reads a hook's attributes: the flags of its kind, the filters, the template, and the
// custom headers and URL variables as arrays of {key, value}.
func (h *handlers) input(b *params.Binder) webhooks.Input {
	template := b.NullableString("custom_webhook_template")
	in := webhooks.Input{URL: b.String("url"), Name: emptyIfNull(b, "name"), Description: emptyIfNull(b, "description"),
		Token: emptyIfNull(b, "token"), PushEventsBranchFilter: emptyIfNull(b, "push_events_branch_filter"),
		BranchFilterStrategy:  b.Enum("branch_filter_strategy", "wildcard", "regex", "all_branches"),
		CustomWebhookTemplate: template.Ptr(), ClearCustomWebhookTemplate: template.IsNull(),
		EnableSSLVerification: b.Bool("enable_ssl_verification"), Flags: map[string]bool{}}
	for _, f := range webhooks.Flags(h.kind) {
		if v := b.Bool(f); v != nil {
			in.Flags[f] = *v
		}
	}
	if h.kind != webhooks.System {
		in.CustomHeaders = keyValues(b, "custom_headers")
	}
	in.URLVariables = keyValues(b, "url_variables")
	return in
}

// emptyIfNull reads a text attribute whose JSON null clears it, as GitLab stores nil (python-gitlab's
// save() sends an attribute set to None as null): the empty text, which the service stores as
// cleared.
func emptyIfNull(b *params.Binder, name string) *string {
	v := b.NullableString(name)
	if v.IsNull() {
		empty := ""
		return &empty
	}
	return v.Ptr()
}

// keyValues reads an array of {key, value}; nil when absent.
func keyValues(b *params.Binder, name string) []webhooks.KeyValue {
	if !b.Has(name) {
		return nil
	}
	objs := b.Objects(name)
	out := make([]webhooks.KeyValue, 0, len(objs))
	for _, o := range objs {
		k, kok := o["key"].(string)
		v, vok := o["value"].(string)
		if !kok || !vok {
			b.Fail(fmt.Sprintf("%s[key], %s[value] are missing", name, name))
			return nil
		}
		out = append(out, webhooks.KeyValue{Key: k, Value: v})
	}
	return out
}

// create handles POST .../hooks.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("url")
	in := h.input(b)
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.hooks.Create(c.Request.Context(), httpx.Actor(c), h.scope(c), in)
	if err != nil {
		return answer(err)
	}
	return httpx.Created(c, httpx.P(c).Hook(v, h.hooks.Now()))
}

// update handles PUT .../hooks/:hook_id; url is required, as the spec says.
func (h *handlers) update(c *gin.Context) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("url")
	in := h.input(b)
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.hooks.Update(c.Request.Context(), httpx.Actor(c), h.scope(c), id, in)
	if err != nil {
		return answer(err)
	}
	return httpx.OK(c, httpx.P(c).Hook(v, h.hooks.Now()))
}

// delete handles DELETE .../hooks/:hook_id.
func (h *handlers) delete(c *gin.Context) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	if err := h.hooks.Delete(c.Request.Context(), httpx.Actor(c), h.scope(c), id); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// systemTest handles POST /hooks/:id: the mock data, delivered.
func (h *handlers) systemTest(c *gin.Context) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	data, err := h.hooks.SystemTest(c.Request.Context(), httpx.Actor(c), id)
	if err != nil {
		return err
	}
	return httpx.Created(c, data)
}

// test handles POST .../hooks/:hook_id/test/:trigger: 201 when the receiver accepted it.
func (h *handlers) test(c *gin.Context) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	if err := h.hooks.Test(c.Request.Context(), httpx.Actor(c), h.scope(c), id, httpx.PathParam(c, "trigger")); err != nil {
		return err
	}
	return httpx.Created(c, gin.H{"message": "201 Created"})
}

// events handles GET .../hooks/:hook_id/events.
func (h *handlers) events(c *gin.Context) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	var status *webhooks.EventStatus
	if s := b.String("status"); s != nil {
		st, ok := webhooks.ParseEventStatus(*s)
		if !ok {
			b.Fail("status does not have a valid value")
		}
		status = &st
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.hooks.Events(c.Request.Context(), httpx.Actor(c), h.scope(c), id, status, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).HookEvents(r.Items))
}

// resend handles POST .../hooks/:hook_id/events/:hook_event_id/resend.
func (h *handlers) resend(c *gin.Context) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	logID, err := httpx.PathInt(c, "hook_event_id", "")
	if err != nil {
		return err
	}
	status, err := h.hooks.Resend(c.Request.Context(), httpx.Actor(c), h.scope(c), id, logID)
	if err != nil {
		return err
	}
	return httpx.Created(c, gin.H{"response_status": status})
}

// setCustomHeader handles PUT .../custom_headers/:key (value required).
func (h *handlers) setCustomHeader(c *gin.Context) error {
	return h.setKey(c, h.hooks.SetCustomHeader)
}

// setURLVariable handles PUT .../url_variables/:key (value required).
func (h *handlers) setURLVariable(c *gin.Context) error {
	return h.setKey(c, h.hooks.SetURLVariable)
}

func (h *handlers) setKey(c *gin.Context, set func(ctx context.Context, actor *authz.Actor, sc webhooks.Scope, id int, key, value string) error) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("value")
	value := b.String("value")
	if err := b.Err(); err != nil {
		return err
	}
	if err := set(c.Request.Context(), httpx.Actor(c), h.scope(c), id, httpx.PathParam(c, "key"), *value); err != nil {
		return answer(err)
	}
	return httpx.NoContent(c)
}

// deleteCustomHeader handles DELETE .../custom_headers/:key.
func (h *handlers) deleteCustomHeader(c *gin.Context) error {
	return h.deleteKey(c, h.hooks.DeleteCustomHeader)
}

// deleteURLVariable handles DELETE .../url_variables/:key.
func (h *handlers) deleteURLVariable(c *gin.Context) error {
	return h.deleteKey(c, h.hooks.DeleteURLVariable)
}

func (h *handlers) deleteKey(c *gin.Context, del func(ctx context.Context, actor *authz.Actor, sc webhooks.Scope, id int, key string) error) error {
	id, err := h.hookID(c)
	if err != nil {
		return err
	}
	if err := del(c.Request.Context(), httpx.Actor(c), h.scope(c), id, httpx.PathParam(c, "key")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
