package timetracking

import (
	"context"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/internal/authz"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/notes"
)

// MergeRequestTrackable is the merge request kind of trackable object: a merge request of a
// project by iid, read with the merge request service's rules; admin_merge_request
// (Developer+) changes its time tracking.
type MergeRequestTrackable struct{ mrs *mergerequests.Service }

// NewMergeRequestTrackable returns the merge request trackable.
func NewMergeRequestTrackable(mrs *mergerequests.Service) MergeRequestTrackable {
	return MergeRequestTrackable{mrs: mrs}
}

// Find returns the merge request ref.IID of project ref.Project as mergerequests.Service.Find
// does.
func (t MergeRequestTrackable) Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Item, error) {
	mr, level, err := t.mrs.Find(ctx, actor, ref.Project, ref.IID, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	return &Item{
		Type: TypeMergeRequest, ID: mr.ID, ProjectID: mr.ProjectID,
		TimeEstimate: mr.TimeEstimate, TotalTimeSpent: mr.TotalTimeSpent,
		Admin:     authz.CanProject(actor, mr.Edges.Project, level, authz.AdminMergeRequest),
		Anonymous: actor.IsAnonymous(),
		Note:      notes.MergeRequestTarget(actor, level, mr),
		Object:    mr,
	}, nil
}

// Read returns the merge request's columns, first taking its row when lock is set.
func (MergeRequestTrackable) Read(ctx context.Context, c *ent.Client, it *Item, lock bool) (int, int, error) {
	if lock {
		if err := c.MergeRequest.UpdateOneID(it.ID).AddTotalTimeSpent(0).Exec(ctx); err != nil {
			return 0, 0, err
		}
	}
	mr, err := c.MergeRequest.Query().Where(mergerequest.ID(it.ID)).
		Select(mergerequest.FieldTimeEstimate, mergerequest.FieldTotalTimeSpent).Only(ctx)
	if err != nil {
		return 0, 0, err
	}
	return mr.TimeEstimate, mr.TotalTimeSpent, nil
}

// Save writes the merge request's columns and tells the merge request observers.
func (t MergeRequestTrackable) Save(ctx context.Context, c *ent.Client, actor *authz.Actor, it *Item, estimate, total *int) error {
	up := c.MergeRequest.UpdateOneID(it.ID)
	if estimate != nil {
		up.SetTimeEstimate(*estimate)
	}
	if total != nil {
		up.SetTotalTimeSpent(*total)
	}
	if err := up.Exec(ctx); err != nil {
		return err
	}
	return t.mrs.NotifyUpdated(ctx, actor, it.Object.(*ent.MergeRequest))
}
