// Package issueapi serves the issue endpoints: the global, group and project lists with
// GitLab's filters, issues_statistics, a project's issue (read, create, update, delete) and
// its resource state, label and milestone events.
package issueapi

import (
	"anvil/internal/service/issues"
	"anvil/internal/service/mergerequests"
	"anvil/rest/route"
)

type handlers struct {
	issues *issues.Service
	mrs    *mergerequests.Service
}

// Register adds the issue routes.
func Register(t *route.Table) {
	h := &handlers{issues: t.S.Issues, mrs: t.S.MergeRequests}
	t.GET("/issues", h.list(kindGlobal))
	t.GET("/issues/:id", h.getByID, route.SignedIn)
	t.GET("/groups/:id/issues", h.list(kindGroup))
	t.GET("/projects/:id/issues", h.list(kindProject))
	t.GET("/issues_statistics", h.statistics(kindGlobal))
	t.GET("/groups/:id/issues_statistics", h.statistics(kindGroup))
	t.GET("/projects/:id/issues_statistics", h.statistics(kindProject))
	t.GET("/projects/:id/issues/:issue_iid", h.get)
	t.POST("/projects/:id/issues", h.create, route.SignedIn)
	t.PUT("/projects/:id/issues/:issue_iid", h.update, route.SignedIn)
	t.DELETE("/projects/:id/issues/:issue_iid", h.delete, route.SignedIn)
	t.GET("/projects/:id/issues/:issue_iid/participants", h.participants)
	t.GET("/projects/:id/issues/:issue_iid/closed_by", h.closedBy)
	t.POST("/projects/:id/issues/:issue_iid/subscribe", h.subscribe(true), route.SignedIn)
	t.POST("/projects/:id/issues/:issue_iid/unsubscribe", h.subscribe(false), route.SignedIn)
}
