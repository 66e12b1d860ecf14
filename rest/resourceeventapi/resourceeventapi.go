// Package resourceeventapi serves the resource events of every issuable that has them
// (GitLab's resource_state_events, resource_label_events and resource_milestone_events APIs):
// one set of handlers over resourceevents.Service for each issuable's URL family.
package resourceeventapi

import (
	"anvil/internal/pagination"
	"anvil/internal/service/resourceevents"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// Family is one issuable's URL family: its kind, the path of one issuable (its project or
// group in :id), the name of the path parameter that holds its iid, and whether it keeps label
// events only (epics).
type Family struct {
	Type       string
	Path       string
	IDParam    string
	LabelsOnly bool
}

// Families are the issuables served, one line each.
var Families = []Family{
	{Type: resourceevents.TypeIssue, Path: "/projects/:id/issues/:issue_iid", IDParam: "issue_iid"},
	{Type: resourceevents.TypeMergeRequest, Path: "/projects/:id/merge_requests/:merge_request_iid", IDParam: "merge_request_iid"},
	{Type: resourceevents.TypeEpic, Path: "/groups/:id/epics/:epic_iid", IDParam: "epic_iid", LabelsOnly: true},
	{Type: resourceevents.TypeEpic, Path: "/groups/:id/-/epics/:epic_iid", IDParam: "epic_iid", LabelsOnly: true},
}

type handlers struct {
	events *resourceevents.Service
	family Family
}

// Register adds the resource event routes of every family.
func Register(t *route.Table) {
	for _, f := range Families {
		h := &handlers{events: t.S.ResourceEvents, family: f}
		t.GET(f.Path+"/resource_label_events", h.labelEvents)
		t.GET(f.Path+"/resource_label_events/:event_id", h.labelEvent)
		if f.LabelsOnly {
			continue
		}
		t.GET(f.Path+"/resource_state_events", h.stateEvents)
		t.GET(f.Path+"/resource_state_events/:event_id", h.stateEvent)
		t.GET(f.Path+"/resource_milestone_events", h.milestoneEvents)
		t.GET(f.Path+"/resource_milestone_events/:event_id", h.milestoneEvent)
	}
}

// ref is the issuable the request's path names.
func (h *handlers) ref(c *gin.Context) resourceevents.Ref {
	return resourceevents.Ref{Type: h.family.Type, Parent: httpx.PathParam(c, "id"), IID: httpx.PathParam(c, h.family.IDParam)}
}

// page binds a list's offset page.
func page(c *gin.Context) (pagination.Offset, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return pagination.Offset{}, err
	}
	p := httpx.Offset(b)
	return p, b.Err()
}

// stateEvents handles GET .../resource_state_events.
func (h *handlers) stateEvents(c *gin.Context) error {
	p, err := page(c)
	if err != nil {
		return err
	}
	r, err := h.events.StateEvents(c.Request.Context(), httpx.Actor(c), h.ref(c), p)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).StateEvents(r.Items))
}

// stateEvent handles GET .../resource_state_events/:event_id.
func (h *handlers) stateEvent(c *gin.Context) error {
	e, err := h.events.StateEvent(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "event_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).StateEvent(e))
}

// labelEvents handles GET .../resource_label_events.
func (h *handlers) labelEvents(c *gin.Context) error {
	p, err := page(c)
	if err != nil {
		return err
	}
	r, err := h.events.LabelEvents(c.Request.Context(), httpx.Actor(c), h.ref(c), p)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).LabelEvents(r.Items))
}

// labelEvent handles GET .../resource_label_events/:event_id.
func (h *handlers) labelEvent(c *gin.Context) error {
	e, err := h.events.LabelEvent(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "event_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).LabelEvent(e))
}

// milestoneEvents handles GET .../resource_milestone_events.
func (h *handlers) milestoneEvents(c *gin.Context) error {
	p, err := page(c)
	if err != nil {
		return err
	}
	r, err := h.events.MilestoneEvents(c.Request.Context(), httpx.Actor(c), h.ref(c), p)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MilestoneEvents(r.Items))
}

// milestoneEvent handles GET .../resource_milestone_events/:event_id.
func (h *handlers) milestoneEvent(c *gin.Context) error {
	e, err := h.events.MilestoneEvent(c.Request.Context(), httpx.Actor(c), h.ref(c), httpx.PathParam(c, "event_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MilestoneEvent(e))
}
