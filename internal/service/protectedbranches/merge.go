package protectedbranches

import (
	"context"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// CanMerge checks that actor may merge into branch of p (GitLab's can_update_branch?: push
// access, or for a protected branch a push or merge rule that admits the actor). Refusal: 403
// "You are not allowed to push into this branch"; the merge API answers 401 instead, as
// GitLab's does.
func (s *Service) CanMerge(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) error {
	acc, err := s.access(ctx, actor, p, branch)
	if err != nil {
		return err
	}
	if !acc.push && !acc.merge {
		return apperr.Forbidden(MsgPushIntoBranch)
	}
	return nil
}
