// Package eventapi serves the activity feed: GET /events, GET /users/:id/events and
// GET /projects/:id/events. A read_user token suffices for all three, as in GitLab.
package eventapi

import (
	"anvil/internal/service/events"
	"anvil/internal/service/notes"
	"anvil/rest/route"
)

type handlers struct {
	events *events.Service
	notes  *notes.Service // the notes of "commented on" events
}

// Register adds the event routes.
func Register(t *route.Table) {
	h := &handlers{events: t.S.Events, notes: t.S.Notes}
	t.GET("/events", h.own, route.SignedIn, route.UserScope)
	t.GET("/users/:id/events", h.user, route.UserScope)
	t.GET("/projects/:id/events", h.project, route.UserScope)
}
