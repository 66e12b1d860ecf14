// Package epicapi serves a group's epics: /groups/:id/epics (list, read, create, update,
// delete), the epic tree under /groups/:id/epics/:epic_iid/epics and an epic's issues under
// /groups/:id/epics/:epic_iid/issues and its label events under
// /groups/:id/epics/:epic_iid/resource_label_events, each also under GitLab's /groups/:id/-/epics spelling.
package epicapi

import (
	"anvil/internal/service/epics"
	"anvil/rest/route"
)

type handlers struct{ epics *epics.Service }

// Register adds the epic routes.
func Register(t *route.Table) {
	h := &handlers{epics: t.S.Epics}
	for _, base := range []string{"/groups/:id/epics", "/groups/:id/-/epics"} {
		t.GET(base, h.list)
		t.GET(base+"/:epic_iid", h.get)
		t.POST(base, h.create, route.SignedIn)
		t.PUT(base+"/:epic_iid", h.update, route.SignedIn)
		t.DELETE(base+"/:epic_iid", h.delete, route.SignedIn)
		t.GET(base+"/:epic_iid/epics", h.children, route.SignedIn)
		t.POST(base+"/:epic_iid/epics", h.createChild, route.SignedIn)
		t.POST(base+"/:epic_iid/epics/:child_epic_id", h.assignChild, route.SignedIn)
		t.DELETE(base+"/:epic_iid/epics/:child_epic_id", h.removeChild, route.SignedIn)
		// The router needs one parameter name here: :issue_id holds the issue's id on POST
		// and the link's (GitLab's :epic_issue_id) on DELETE.
		t.GET(base+"/:epic_iid/issues", h.issues, route.SignedIn)
		t.POST(base+"/:epic_iid/issues/:issue_id", h.assignIssue, route.SignedIn)
		t.DELETE(base+"/:epic_iid/issues/:issue_id", h.removeIssue, route.SignedIn)
	}
}
