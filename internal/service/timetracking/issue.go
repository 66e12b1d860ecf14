package timetracking

import (
	"context"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/internal/authz"
	"anvil/internal/service/issues"
	"anvil/internal/service/notes"
)

// IssueTrackable is the issue kind of trackable object: an issue of a project by iid, read
// with the issue service's rules; admin_issue changes its time tracking.
type IssueTrackable struct{ issues *issues.Service }

// NewIssueTrackable returns the issue trackable.
func NewIssueTrackable(is *issues.Service) IssueTrackable { return IssueTrackable{issues: is} }

// Find returns the issue ref.IID of project ref.Project as issues.Service.Find does.
func (t IssueTrackable) Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Item, error) {
	is, level, err := t.issues.Find(ctx, actor, ref.Project, ref.IID)
	if err != nil {
		return nil, err
	}
	return &Item{
		Type: TypeIssue, ID: is.ID, ProjectID: is.ProjectID,
		TimeEstimate: is.TimeEstimate, TotalTimeSpent: is.TotalTimeSpent,
		Admin:     authz.CanProject(actor, is.Edges.Project, level, authz.AdminIssue),
		Anonymous: actor.IsAnonymous(),
		Note:      notes.IssueTarget(actor, level, is),
		Object:    is,
	}, nil
}

// Read returns the issue's columns, first taking its row when lock is set.
func (IssueTrackable) Read(ctx context.Context, c *ent.Client, it *Item, lock bool) (int, int, error) {
	if lock {
		if err := c.Issue.UpdateOneID(it.ID).AddTotalTimeSpent(0).Exec(ctx); err != nil {
			return 0, 0, err
		}
	}
	is, err := c.Issue.Query().Where(issue.ID(it.ID)).Select(issue.FieldTimeEstimate, issue.FieldTotalTimeSpent).Only(ctx)
	if err != nil {
		return 0, 0, err
	}
	return is.TimeEstimate, is.TotalTimeSpent, nil
}

// Save writes the issue's columns and tells the issue observers.
func (t IssueTrackable) Save(ctx context.Context, c *ent.Client, actor *authz.Actor, it *Item, estimate, total *int) error {
	up := c.Issue.UpdateOneID(it.ID)
	if estimate != nil {
		up.SetTimeEstimate(*estimate)
	}
	if total != nil {
		up.SetTotalTimeSpent(*total)
	}
	if err := up.Exec(ctx); err != nil {
		return err
	}
	return t.issues.Updated(ctx, actor, it.Object.(*ent.Issue))
}
