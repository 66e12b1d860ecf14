// Package mrobserver records merge requests' resource events (a mergerequests.Observer): it
// lives apart from resourceevents because the merge request domain builds on the issue domain,
// which writes its own events through resourceevents.
package mrobserver

import (
	"context"
	"sort"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/resourceevents"
	"anvil/internal/service/wire"
)

// Observer records the resource events of merge request changes in their transaction, as
// GitLab's ResourceEvents services do: a state event for each close, reopen and merge, a label
// event for each label added or removed (those given at creation too), and a milestone event
// when the milestone is set, changed (the new one) or removed. A destroyed merge request's
// events go with it (their foreign key cascades).
type Observer struct{ client *ent.Client }

// New returns the observer, to be listed among the merge request service's observers.
func New(client *ent.Client) *Observer {
	wire.Require("mrobserver", wire.D("client", client))
	return &Observer{client: client}
}

// MergeRequestChanged records the resource events of ch.
func (o *Observer) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch mergerequests.Change) error {
	mr := ch.After
	if mr == nil {
		return nil
	}
	rec := resourceevents.Recorder{C: db.ClientFrom(ctx, o.client), Actor: actor, Of: resourceevents.MergeRequest(mr.ID)}
	added, removed := labelChanges(ch.Before, mr)
	if err := rec.Labels(ctx, added, removed); err != nil {
		return err
	}
	var before *ent.Milestone
	if ch.Before != nil {
		before = ch.Before.Edges.Milestone
	}
	if after := mr.Edges.Milestone; milestoneID(before) != milestoneID(after) {
		if err := rec.Milestone(ctx, after, before, string(mr.State)); err != nil {
			return err
		}
	}
	switch ch.Action {
	case mergerequests.ActionClosed, mergerequests.ActionReopened, mergerequests.ActionMerged:
		return rec.State(ctx, ch.Action, ch.Via) // a merge by push names its commit or merge request
	}
	return nil
}

// milestoneID is m's id, 0 for none.
func milestoneID(m *ent.Milestone) int {
	if m == nil {
		return 0
	}
	return m.ID
}

// labelChanges are the labels after has and before had not (added) and the reverse
// (removed), each in id order; before is nil at creation.
func labelChanges(before, after *ent.MergeRequest) (added, removed []*ent.Label) {
	had, has := labelsOf(before), labelsOf(after)
	for id, l := range has {
		if had[id] == nil {
			added = append(added, l)
		}
	}
	for id, l := range had {
		if has[id] == nil {
			removed = append(removed, l)
		}
	}
	byID := func(ls []*ent.Label) { sort.Slice(ls, func(i, j int) bool { return ls[i].ID < ls[j].ID }) }
	byID(added)
	byID(removed)
	return added, removed
}

// labelsOf are mr's labels by id (none for nil).
func labelsOf(mr *ent.MergeRequest) map[int]*ent.Label {
	out := map[int]*ent.Label{}
	if mr == nil {
		return out
	}
	for _, l := range mr.Edges.LabelLinks {
		if l.Edges.Label != nil {
			out[l.LabelID] = l.Edges.Label
		}
	}
	return out
}
