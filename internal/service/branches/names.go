package branches

import (
	"context"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/refs"
)

// Names returns the names of the branches of the project ref names that match a glob pattern
// (refs.Glob), in name order, from offset and at most limit of them: GitLab's branchNames. A
// pattern that cannot match (an unusable class) gives none.
func (s *Service) Names(ctx context.Context, actor *authz.Actor, projectRef, pattern string, offset, limit int) ([]string, error) {
	if offset < 0 || limit < 0 {
		return nil, apperr.BadParam("offset and limit must be non-negative")
	}
	_, repo, err := s.open.Read(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	out := []string{}
	re := refs.Glob(pattern)
	if re == nil {
		return out, nil
	}
	all, err := repo.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix}})
	if err != nil {
		return nil, err
	}
	for _, r := range all {
		if name := r.ShortName(); re.MatchString(name) {
			out = append(out, name)
		}
	}
	start := min(offset, len(out))
	return out[start:min(start+limit, len(out))], nil
}
