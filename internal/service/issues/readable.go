package issues

import (
	"context"

	"anvil/ent/issue"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/authz"
)

// Readable selects every issue the actor may read (the finder's visibility rule alone), for
// the domains that list things about issues: to-dos, and the like.
func (s *Service) Readable(ctx context.Context, actor *authz.Actor) (predicate.Issue, error) {
	preds, err := s.visibleIn(ctx, actor, project.IDGT(0))
	if err != nil {
		return nil, err
	}
	return issue.And(preds...), nil
}
