package users

import (
	"context"
	"regexp"
)

// withInstanceDefaults fills the attributes a new human account takes from the instance
// settings when the request left them out, as GitLab's user builder does: projects_limit
// (default_projects_limit), external (user_default_external, unless the email matches
// user_default_internal_regex), private_profile (user_defaults_to_private_profile) and
// can_create_group (can_create_group).
func (s *Service) withInstanceDefaults(ctx context.Context, in CreateInput) CreateInput {
	if in.ProjectsLimit == nil {
		limit := s.settings.Int(ctx, "default_projects_limit")
		in.ProjectsLimit = &limit
	}
	if in.External == nil {
		external := s.settings.Bool(ctx, "user_default_external")
		if external {
			if re := s.settings.String(ctx, "user_default_internal_regex"); re != "" {
				if m, err := regexp.Compile("(?i)" + re); err == nil && m.MatchString(in.Email) {
					external = false
				}
			}
		}
		in.External = &external
	}
	if in.PrivateProfile == nil {
		private := s.settings.Bool(ctx, "user_defaults_to_private_profile")
		in.PrivateProfile = &private
	}
	if in.CanCreateGroup == nil {
		can := s.settings.Bool(ctx, "can_create_group")
		in.CanCreateGroup = &can
	}
	return in
}
