package timetracking

import (
	"context"

	"anvil/ent"
	"anvil/ent/timelog"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/issues"
)

// IssueObserver removes a destroyed issue's timelogs with it (they name their target without a
// foreign key, as notes do).
type IssueObserver struct{ client *ent.Client }

// NewIssueObserver returns the observer that removes destroyed issues' timelogs.
func NewIssueObserver(client *ent.Client) IssueObserver { return IssueObserver{client: client} }

// IssueChanged deletes the timelogs of a destroyed issue.
func (o IssueObserver) IssueChanged(ctx context.Context, _ *authz.Actor, ch issues.Change) error {
	if ch.Action != "destroyed" || ch.Before == nil {
		return nil
	}
	return DeleteFor(ctx, o.client, TypeIssue, ch.Before.ID)
}

// DeleteFor removes the timelogs of one object, in ctx's transaction.
func DeleteFor(ctx context.Context, client *ent.Client, typ string, id int) error {
	_, err := db.ClientFrom(ctx, client).Timelog.Delete().
		Where(timelog.TargetTypeEQ(timelog.TargetType(typ)), timelog.TargetID(id)).Exec(ctx)
	return err
}
