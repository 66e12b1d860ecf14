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
	h.registerLists(t)
	h.registerMerge(t)
}

// registerCore adds the routes of one merge request's lifecycle.
func (h *handlers) registerCore(t *route.Table) {
	t.GET("/projects/:id/merge_requests/:merge_request_iid", h.get)
	t.POST("/projects/:id/merge_requests", h.create, route.SignedIn)
}
