// Package mergerequestapi serves the merge request endpoints: a project's merge request (read,
// create, update, delete), its subscription, participants and the issues it closes; the
// lists, merging, diffs and versions, approvals and time tracking, and the collaboration
// around a merge request are registered by their own files.
package mergerequestapi

import (
	"anvil/internal/service/mergerequests"
	"anvil/rest/route"
)

type handlers struct{ mrs *mergerequests.Service }

// Register adds the merge request routes.
func Register(t *route.Table) {
	h := &handlers{mrs: t.S.MergeRequests}
	h.registerCore(t)
	h.registerDiffs(t)
	h.registerLists(t)
	h.registerMerge(t)
	h.registerCollab(t) // dependencies and pipelines
}

// registerCore adds the routes of one merge request's lifecycle.
func (h *handlers) registerCore(t *route.Table) {
	t.GET("/projects/:id/merge_requests/:merge_request_iid", h.get)
	t.POST("/projects/:id/merge_requests", h.create, route.SignedIn)
	t.PUT("/projects/:id/merge_requests/:merge_request_iid", h.update, route.SignedIn)
	t.DELETE("/projects/:id/merge_requests/:merge_request_iid", h.delete, route.SignedIn)
	t.POST("/projects/:id/merge_requests/:merge_request_iid/subscribe", h.subscribe(true), route.SignedIn)
	t.POST("/projects/:id/merge_requests/:merge_request_iid/unsubscribe", h.subscribe(false), route.SignedIn)
	t.GET("/projects/:id/merge_requests/:merge_request_iid/participants", h.participants)
	t.GET("/projects/:id/merge_requests/:merge_request_iid/reviewers", h.reviewers)
	t.GET("/projects/:id/merge_requests/:merge_request_iid/closes_issues", h.closesIssues)
	t.GET("/projects/:id/merge_requests/:merge_request_iid/related_issues", h.relatedIssues)
}
