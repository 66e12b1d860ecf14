package events

import (
	"context"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/internal/db"
)

// Milestone is the event of a project milestone's creation, closing, reopening (action
// created, closed, reopened) by author, as GitLab records them; group milestones record none.
func Milestone(action event.Action, m *ent.Milestone, authorID int) Entry {
	return Entry{Action: action, AuthorID: authorID, ProjectID: m.ProjectID,
		Target: &Target{Type: TargetMilestone, ID: m.ID, IID: &m.Iid, Title: m.Title}}
}

// MilestoneDestroyed records the deletion of the project milestone m by author, inside the
// deleting transaction, and unlinks the milestone's earlier events from it as GitLab does:
// they keep their kind but lose the target's id, iid and title, and stay visible to those
// who may read the project's milestones.
func MilestoneDestroyed(ctx context.Context, c *ent.Client, m *ent.Milestone, authorID int) error {
	c = db.ClientFrom(ctx, c)
	err := c.Event.Update().Where(event.TargetType(TargetMilestone), event.TargetID(m.ID)).
		ClearTargetID().ClearTargetIid().ClearTargetTitle().Exec(ctx)
	if err != nil {
		return err
	}
	return Record(ctx, c, Entry{Action: event.ActionDestroyed, AuthorID: authorID, ProjectID: m.ProjectID,
		Target: &Target{Type: TargetMilestone}})
}

// MilestoneRetitled keeps the title the milestone's events show current (GitLab reads it from
// the milestone), inside the renaming transaction.
func MilestoneRetitled(ctx context.Context, c *ent.Client, m *ent.Milestone) error {
	return db.ClientFrom(ctx, c).Event.Update().Where(event.TargetType(TargetMilestone), event.TargetID(m.ID)).
		SetTargetTitle(m.Title).Exec(ctx)
}
