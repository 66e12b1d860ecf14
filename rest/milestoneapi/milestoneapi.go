// Package milestoneapi serves project and group milestones: /projects/:id/milestones and
// /groups/:id/milestones, with the same operations, and a milestone's issues and merge requests.
package milestoneapi

import (
	"anvil/internal/service/issues"
	"anvil/internal/service/milestones"
	"anvil/rest/route"
)

type handlers struct {
	milestones *milestones.Service
	issues     *issues.Service
	group      bool
}

// Register adds the milestone routes.
func Register(t *route.Table) {
	for _, r := range []struct {
		prefix string
		group  bool
	}{{"/projects", false}, {"/groups", true}} {
		h := &handlers{milestones: t.S.Milestones, issues: t.S.Issues, group: r.group}
		t.GET(r.prefix+"/:id/milestones", h.list)
		t.GET(r.prefix+"/:id/milestones/:milestone_id", h.get)
		t.POST(r.prefix+"/:id/milestones", h.create, route.SignedIn)
		t.PUT(r.prefix+"/:id/milestones/:milestone_id", h.update, route.SignedIn)
		t.DELETE(r.prefix+"/:id/milestones/:milestone_id", h.delete, route.SignedIn)
		t.GET(r.prefix+"/:id/milestones/:milestone_id/issues", h.listIssues)
		t.GET(r.prefix+"/:id/milestones/:milestone_id/merge_requests", h.listMergeRequests)
		t.GET(r.prefix+"/:id/milestones/:milestone_id/burndown_events", h.burndownEvents)
	}
	h := &handlers{milestones: t.S.Milestones, issues: t.S.Issues}
	t.POST("/projects/:id/milestones/:milestone_id/promote", h.promote, route.SignedIn)
}
