package issues

import (
	"context"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Updated hands a write another domain made to an issue in ctx's transaction (time tracking's
// estimate and spent time) to the issue observers as "updated": before is the issue as that
// domain found it (loaded with Load); the issue is read again for After.
func (s *Service) Updated(ctx context.Context, actor *authz.Actor, before *ent.Issue) error {
	after, err := Load(db.ClientFrom(ctx, s.client).Issue.Query().Where(issue.ID(before.ID))).Only(ctx)
	if err != nil {
		return err
	}
	return s.observer.IssueChanged(ctx, actor, Change{Action: "updated", Before: before, After: after})
}
