// Package timetrackingapi serves time tracking for every trackable object (GitLab's
// TimeTrackingEndpoints): .../time_estimate, reset_time_estimate, add_spent_time,
// reset_spent_time and time_stats, one set of handlers over timetracking.Service for each
// object's URL family.
package timetrackingapi

import (
	"anvil/internal/service/timetracking"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// Family is one trackable object's URL family: its type, the path of one object (project in
// :id) and the name of the path parameter that holds its iid (the name the object's own
// routes use at that position, as the router requires).
type Family struct {
	Type     string
	Path     string
	IIDParam string
}

// Families are the trackable objects served.
var Families = []Family{
	{Type: timetracking.TypeIssue, Path: "/projects/:id/issues/:issue_iid", IIDParam: "issue_iid"},
}

type handlers struct {
	tt     *timetracking.Service
	family Family
}

// Register adds the time tracking routes of every family.
func Register(t *route.Table) {
	for _, f := range Families {
		h := &handlers{tt: t.S.TimeTracking, family: f}
		t.POST(f.Path+"/time_estimate", h.setEstimate, route.SignedIn)
		t.POST(f.Path+"/reset_time_estimate", h.resetEstimate, route.SignedIn)
		t.POST(f.Path+"/add_spent_time", h.addSpent, route.SignedIn)
		t.POST(f.Path+"/reset_spent_time", h.resetSpent, route.SignedIn)
		t.GET(f.Path+"/time_stats", h.stats)
	}
}

// ref is the object the request names.
func (h *handlers) ref(c *gin.Context) timetracking.Ref {
	return timetracking.Ref{Type: h.family.Type, Project: httpx.PathParam(c, "id"), IID: httpx.PathParam(c, h.family.IIDParam)}
}

// present writes the time stats object.
func present(c *gin.Context, status int, st timetracking.Stats) error {
	httpx.JSON(c, status, httpx.P(c).TimeStats(st.TimeEstimate, st.TotalTimeSpent))
	return nil
}

// setEstimate handles POST .../time_estimate (duration required).
func (h *handlers) setEstimate(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("duration")
	duration := b.StringDefault("duration", "")
	if err := b.Err(); err != nil {
		return err
	}
	st, err := h.tt.SetEstimate(c.Request.Context(), httpx.Actor(c), h.ref(c), duration)
	if err != nil {
		return err
	}
	return present(c, 200, st)
}

// resetEstimate handles POST .../reset_time_estimate.
func (h *handlers) resetEstimate(c *gin.Context) error {
	st, err := h.tt.ResetEstimate(c.Request.Context(), httpx.Actor(c), h.ref(c))
	if err != nil {
		return err
	}
	return present(c, 200, st)
}

// addSpent handles POST .../add_spent_time (duration required, summary optional): 201.
func (h *handlers) addSpent(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("duration")
	duration, summary := b.StringDefault("duration", ""), b.String("summary")
	if err := b.Err(); err != nil {
		return err
	}
	st, err := h.tt.AddSpent(c.Request.Context(), httpx.Actor(c), h.ref(c), duration, summary)
	if err != nil {
		return err
	}
	return present(c, 201, st)
}

// resetSpent handles POST .../reset_spent_time.
func (h *handlers) resetSpent(c *gin.Context) error {
	st, err := h.tt.ResetSpent(c.Request.Context(), httpx.Actor(c), h.ref(c))
	if err != nil {
		return err
	}
	return present(c, 200, st)
}

// stats handles GET .../time_stats (read_issue, read_merge_request).
func (h *handlers) stats(c *gin.Context) error {
	st, err := h.tt.Stats(c.Request.Context(), httpx.Actor(c), h.ref(c))
	if err != nil {
		return err
	}
	return present(c, 200, st)
}
