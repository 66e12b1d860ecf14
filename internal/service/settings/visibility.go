package settings

import (
	"context"
	"slices"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// CheckVisibility refuses a restricted visibility level to a non-administrator creating or
// changing a project, group or snippet, with GitLab's error:
// {"message":{"visibility_level":["Public has been restricted by your GitLab administrator"]}}.
// level is "private", "internal" or "public"; "" (unchanged) passes.
func (s *Service) CheckVisibility(ctx context.Context, actor *authz.Actor, level string) error {
	if level == "" || actor.IsAdmin() {
		return nil
	}
	restricted, err := s.RestrictedLevels(ctx)
	if err != nil {
		return err
	}
	if !slices.Contains(restricted, level) {
		return nil
	}
	return apperr.FieldError("visibility_level",
		strings.ToUpper(level[:1])+level[1:]+" has been restricted by your GitLab administrator")
}

// RestrictedLevels returns restricted_visibility_levels.
func (s *Service) RestrictedLevels(ctx context.Context) ([]string, error) {
	var restricted []string
	err := s.Get(ctx, RestrictedVisibilityLevels, &restricted)
	return restricted, err
}
