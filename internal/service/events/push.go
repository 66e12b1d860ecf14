package events

import (
	"strings"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/ent/pushevent"
	"anvil/ent/pusheventpayload"
)

// DefaultPushActivitiesLimit is GitLab's push_event_activities_limit: a push that creates,
// updates or removes more refs of one kind in one way than this is shown as one bulk event
// ("pushed new 12 branches") instead of one event per ref.
const DefaultPushActivitiesLimit = 3

// Pushes are the events of one accepted push, from its recorded ref updates (repos.RecordPush):
// one per ref, except that the refs of one type (branch, tag) moved in one way (created,
// removed, pushed) become a single bulk event when there are more than limit of them, as
// GitLab's ProcessRefChangesService does. Updates without a pusher record nothing.
func Pushes(projectID int, pushes []*ent.PushEvent, limit int) []Entry {
	type group struct {
		refType pushevent.RefType
		action  pushevent.Action
	}
	var order []group
	byGroup := map[group][]*ent.PushEvent{}
	for _, p := range pushes {
		if p.UserID == nil {
			continue
		}
		g := group{p.RefType, p.Action}
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], p)
	}
	var out []Entry
	for _, g := range order {
		rows := byGroup[g]
		if len(rows) > limit {
			n := len(rows)
			out = append(out, Entry{Action: event.ActionPushed, AuthorID: *rows[0].UserID, ProjectID: &projectID,
				Push: &Push{Action: pusheventpayload.Action(g.action), RefType: pusheventpayload.RefType(g.refType), RefCount: &n}})
			continue
		}
		for _, p := range rows {
			out = append(out, Entry{Action: event.ActionPushed, AuthorID: *p.UserID, ProjectID: &projectID, Push: payloadOf(p)})
		}
	}
	return out
}

// payloadOf is the payload of one ref's push: no starting commit for a created ref, no
// resulting one for a removed ref, the newest commit's title when commits came.
func payloadOf(p *ent.PushEvent) *Push {
	ref := shortRef(p.Ref)
	out := &Push{Action: pusheventpayload.Action(p.Action), RefType: pusheventpayload.RefType(p.RefType),
		CommitCount: p.CommitCount, Ref: &ref}
	if p.Action != pushevent.ActionCreated {
		from := p.Before
		out.CommitFrom = &from
	}
	if p.Action != pushevent.ActionRemoved {
		to := p.After
		out.CommitTo = &to
	}
	if p.CommitTitle != "" {
		title := p.CommitTitle
		out.CommitTitle = &title
	}
	return out
}

// shortRef is a ref's name without refs/heads/ or refs/tags/.
func shortRef(ref string) string {
	if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		return b
	}
	return strings.TrimPrefix(ref, "refs/tags/")
}
