// Package resourceevents keeps the resource events of issuables (GitLab's
// resource_state_events, resource_label_events and resource_milestone_events) for every kind
// that has them, issues and merge requests (and epics, which keep label events only): writing them in a change's transaction and reading
// an issuable's events. The issuable's own domain finds it for the actor (visibility is its
// rule); this package only names it by kind and id, as GitLab's eventable does.
package resourceevents

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/predicate"
	"anvil/ent/resourcelabelevent"
	"anvil/ent/resourcemilestoneevent"
	"anvil/ent/resourcestateevent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
)

// The kinds of issuable with resource events (their resource_type).
const (
	TypeIssue        = "Issue"
	TypeMergeRequest = "MergeRequest"
	TypeEpic         = "Epic" // label events only
)

// Issuable names the issuable events belong to: its kind and id.
type Issuable struct {
	Type string
	ID   int
}

// Issue is the issue id as an issuable.
func Issue(id int) Issuable { return Issuable{Type: TypeIssue, ID: id} }

// MergeRequest is the merge request id as an issuable.
func MergeRequest(id int) Issuable { return Issuable{Type: TypeMergeRequest, ID: id} }

// Epic is the epic id as an issuable (label events only).
func Epic(id int) Issuable { return Issuable{Type: TypeEpic, ID: id} }

// keys are the issuable's foreign keys: exactly one is set.
func (i Issuable) keys() (issueID, mergeRequestID *int) {
	id := i.ID
	if i.Type == TypeMergeRequest {
		return nil, &id
	}
	return &id, nil
}

// Source names what caused a state change when it was not a direct edit: the commit or the
// merge request that closed an issue, the merge request that merged one (GitLab's
// source_commit and source_merge_request_id).
type Source struct {
	Commit         string
	MergeRequestID *int
}

// Recorder writes the events of one issuable by one actor, with c (the change's transaction).
type Recorder struct {
	C     *ent.Client
	Actor *authz.Actor
	Of    Issuable
}

// userID is the actor's id, or nil for anonymous changes.
func (r Recorder) userID() *int {
	if r.Actor == nil || r.Actor.IsAnonymous() {
		return nil
	}
	id := r.Actor.UserID()
	return &id
}

// State records a state change: closed, reopened, merged or locked.
func (r Recorder) State(ctx context.Context, state string, src Source) error {
	issueID, mrID := r.Of.keys()
	create := r.C.ResourceStateEvent.Create().SetIssuableType(resourcestateevent.IssuableType(r.Of.Type)).
		SetNillableIssueID(issueID).SetNillableMergeRequestID(mrID).SetNillableUserID(r.userID()).
		SetState(resourcestateevent.State(state)).SetNillableSourceMergeRequestID(src.MergeRequestID)
	if src.Commit != "" {
		create.SetSourceCommit(src.Commit)
	}
	return create.Exec(ctx)
}

// Labels records the labels added and removed, in that order (linking them is the caller's).
func (r Recorder) Labels(ctx context.Context, added, removed []*ent.Label) error {
	issueID, mrID := r.Of.keys()
	for _, set := range []struct {
		ls     []*ent.Label
		action resourcelabelevent.Action
	}{{added, resourcelabelevent.ActionAdd}, {removed, resourcelabelevent.ActionRemove}} {
		for _, l := range set.ls {
			create := r.C.ResourceLabelEvent.Create().SetIssuableType(resourcelabelevent.IssuableType(r.Of.Type)).
				SetNillableUserID(r.userID()).SetAction(set.action).SetLabelID(l.ID)
			if r.Of.Type == TypeEpic {
				create.SetEpicID(r.Of.ID)
			} else {
				create.SetNillableIssueID(issueID).SetNillableMergeRequestID(mrID)
			}
			if err := create.Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// Milestone records the milestone set (added; a change to another milestone records only the
// new one, as GitLab) or, when added is nil, the one removed; state is the issuable's state.
func (r Recorder) Milestone(ctx context.Context, added, removed *ent.Milestone, state string) error {
	ms, action := added, resourcemilestoneevent.ActionAdd
	if added == nil {
		ms, action = removed, resourcemilestoneevent.ActionRemove
	}
	if ms == nil {
		return nil
	}
	issueID, mrID := r.Of.keys()
	return r.C.ResourceMilestoneEvent.Create().SetIssuableType(resourcemilestoneevent.IssuableType(r.Of.Type)).
		SetNillableIssueID(issueID).SetNillableMergeRequestID(mrID).SetNillableUserID(r.userID()).
		SetAction(action).SetMilestoneID(ms.ID).SetState(resourcemilestoneevent.State(state)).Exec(ctx)
}

// eventID reads an event's id from the path: anything but a positive integer finds nothing
// (GitLab's find with a string id).
func eventID(text string) (int, error) {
	id, err := strconv.Atoi(text)
	if err != nil || id <= 0 {
		return 0, apperr.RecordNotFound()
	}
	return id, nil
}

// stateOf selects the state events of i.
func stateOf(i Issuable) predicate.ResourceStateEvent {
	if i.Type == TypeMergeRequest {
		return resourcestateevent.MergeRequestID(i.ID)
	}
	return resourcestateevent.IssueID(i.ID)
}

// labelOf selects the label events of i.
func labelOf(i Issuable) predicate.ResourceLabelEvent {
	switch i.Type {
	case TypeMergeRequest:
		return resourcelabelevent.MergeRequestID(i.ID)
	case TypeEpic:
		return resourcelabelevent.EpicID(i.ID)
	}
	return resourcelabelevent.IssueID(i.ID)
}

// milestoneOf selects the milestone events of i.
func milestoneOf(i Issuable) predicate.ResourceMilestoneEvent {
	if i.Type == TypeMergeRequest {
		return resourcemilestoneevent.MergeRequestID(i.ID)
	}
	return resourcemilestoneevent.IssueID(i.ID)
}

// stateEvents lists the state events of i, oldest first.
func stateEvents(ctx context.Context, c *ent.Client, i Issuable, page pagination.Offset) (pagination.Result[*ent.ResourceStateEvent], error) {
	res := pagination.Result[*ent.ResourceStateEvent]{Page: page}
	q := c.ResourceStateEvent.Query().Where(stateOf(i))
	var err error
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	res.Items, err = q.WithUser().Order(resourcestateevent.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	return res, err
}

// stateEvent is the state event id (path text) of i; another issuable's is not found.
func stateEvent(ctx context.Context, c *ent.Client, i Issuable, id string) (*ent.ResourceStateEvent, error) {
	n, err := eventID(id)
	if err != nil {
		return nil, err
	}
	e, err := c.ResourceStateEvent.Query().Where(stateOf(i), resourcestateevent.ID(n)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return e, err
}

// labelEvents lists the label events of i, oldest first, with their labels.
func labelEvents(ctx context.Context, c *ent.Client, i Issuable, page pagination.Offset) (pagination.Result[*ent.ResourceLabelEvent], error) {
	res := pagination.Result[*ent.ResourceLabelEvent]{Page: page}
	q := c.ResourceLabelEvent.Query().Where(labelOf(i))
	var err error
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	res.Items, err = q.WithUser().WithLabel().Order(resourcelabelevent.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	return res, err
}

// labelEvent is the label event id (path text) of i; another issuable's is not found.
func labelEvent(ctx context.Context, c *ent.Client, i Issuable, id string) (*ent.ResourceLabelEvent, error) {
	n, err := eventID(id)
	if err != nil {
		return nil, err
	}
	e, err := c.ResourceLabelEvent.Query().Where(labelOf(i), resourcelabelevent.ID(n)).WithUser().WithLabel().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return e, err
}

// withMilestone loads an event's milestone with its owner (the presented milestone's web_url).
func withMilestone(mq *ent.MilestoneQuery) {
	mq.WithGroup().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() })
}

// milestoneEvents lists the milestone events of i, oldest first, with their milestones.
func milestoneEvents(ctx context.Context, c *ent.Client, i Issuable, page pagination.Offset) (pagination.Result[*ent.ResourceMilestoneEvent], error) {
	res := pagination.Result[*ent.ResourceMilestoneEvent]{Page: page}
	q := c.ResourceMilestoneEvent.Query().Where(milestoneOf(i))
	var err error
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	res.Items, err = q.WithUser().WithMilestone(withMilestone).
		Order(resourcemilestoneevent.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	return res, err
}

// milestoneEvent is the milestone event id (path text) of i; another issuable's is not found.
func milestoneEvent(ctx context.Context, c *ent.Client, i Issuable, id string) (*ent.ResourceMilestoneEvent, error) {
	n, err := eventID(id)
	if err != nil {
		return nil, err
	}
	e, err := c.ResourceMilestoneEvent.Query().Where(milestoneOf(i), resourcemilestoneevent.ID(n)).
		WithUser().WithMilestone(withMilestone).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return e, err
}
