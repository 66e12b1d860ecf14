// Package resourceevents keeps the label events of every issuable that records them (GitLab's
// resource_label_events of issues and epics): recording added and removed labels in the
// change's transaction, and listing and reading them for an issuable its domain has found for
// the caller. The issuable's domain decides who may read them (finding it); this package only
// stores and reads.
package resourceevents

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/predicate"
	"anvil/ent/resourcelabelevent"
	"anvil/internal/apperr"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// Issuable is the object events are about: its kind and row.
type Issuable struct {
	Type resourcelabelevent.IssuableType
	ID   int
}

// Issue is the issue id as an Issuable.
func Issue(id int) Issuable { return Issuable{Type: resourcelabelevent.IssuableTypeIssue, ID: id} }

// Epic is the epic id as an Issuable.
func Epic(id int) Issuable { return Issuable{Type: resourcelabelevent.IssuableTypeEpic, ID: id} }

// of selects the label events of on.
func (on Issuable) of() predicate.ResourceLabelEvent {
	if on.Type == resourcelabelevent.IssuableTypeEpic {
		return resourcelabelevent.EpicID(on.ID)
	}
	return resourcelabelevent.IssueID(on.ID)
}

// RecordLabels records, in the transaction ctx carries (or on client), the labels added to
// and removed from on by userID (nil: no user), each an event, additions first.
func RecordLabels(ctx context.Context, client *ent.Client, on Issuable, userID *int, added, removed []*ent.Label) error {
	c := db.ClientFrom(ctx, client)
	var creates []*ent.ResourceLabelEventCreate
	for _, set := range []struct {
		ls     []*ent.Label
		action resourcelabelevent.Action
	}{{added, resourcelabelevent.ActionAdd}, {removed, resourcelabelevent.ActionRemove}} {
		for _, l := range set.ls {
			cr := c.ResourceLabelEvent.Create().SetIssuableType(on.Type).SetNillableUserID(userID).
				SetAction(set.action).SetLabelID(l.ID)
			if on.Type == resourcelabelevent.IssuableTypeEpic {
				cr.SetEpicID(on.ID)
			} else {
				cr.SetIssueID(on.ID)
			}
			creates = append(creates, cr)
		}
	}
	if len(creates) == 0 {
		return nil
	}
	return c.ResourceLabelEvent.CreateBulk(creates...).Exec(ctx)
}

// LabelEvents lists one page of on's label events, oldest first, with their users and labels.
func LabelEvents(ctx context.Context, client *ent.Client, on Issuable, page pagination.Offset) (pagination.Result[*ent.ResourceLabelEvent], error) {
	res := pagination.Result[*ent.ResourceLabelEvent]{Page: page}
	q := db.ClientFrom(ctx, client).ResourceLabelEvent.Query().Where(on.of())
	var err error
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	res.Items, err = q.WithUser().WithLabel().Order(resourcelabelevent.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	return res, err
}

// LabelEvent reads on's label event idText (GitLab's :event_id): 404 Not found when on has no
// such event; param names the parameter for a malformed id.
func LabelEvent(ctx context.Context, client *ent.Client, on Issuable, idText, param string) (*ent.ResourceLabelEvent, error) {
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, apperr.Invalid(param)
	}
	e, err := db.ClientFrom(ctx, client).ResourceLabelEvent.Query().Where(on.of(), resourcelabelevent.ID(id)).
		WithUser().WithLabel().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return e, err
}
