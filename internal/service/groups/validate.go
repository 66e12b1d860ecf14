package groups

import (
	"regexp"
	"slices"
	"unicode/utf8"

	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/service/users"
)

// GitLab's validation messages for group attributes.
const (
	msgBlank       = "can't be blank"
	msgTaken       = "has already been taken"
	msgNameFormat  = "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."
	msgPathFormat  = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
	msgPathShort   = "is too short (minimum is 2 characters)"
	msgTooLong255  = "is too long (maximum is 255 characters)"
	msgDescTooLong = "is too long (maximum is 500 characters)"
	msgGraceNeg    = "must be greater than or equal to 0"
	msgLockByOwner = `cannot be disabled when the parent group "Share with group lock" is enabled, except by the owner of the parent group`
	msgRunnersOn   = "cannot be enabled because parent group has shared Runners disabled"
	msgOverrideOn  = "cannot be enabled because parent group does not allow it"
)

// nameRe is GitLab's group name rule: letters (with marks), digits, emoji, '_', '.', dashes,
// spaces and parentheses, starting with a letter, digit, emoji or '_'.
var nameRe = regexp.MustCompile(`^[\p{L}\p{M}\p{Nd}\x{00A9}-\x{1F9FF}_][\p{L}\p{M}\p{Nd}\p{Pd}\x{00A9}-\x{1F9FF}_()\. ]*$`)

// Setting values GitLab accepts, as Grape's `values:` lists them.
var (
	// ProjectCreationLevels are the values of project_creation_level.
	ProjectCreationLevels = []string{"noone", "owner", "maintainer", "developer", "administrator"}
	// SubgroupCreationLevels are the values of subgroup_creation_level.
	SubgroupCreationLevels = []string{"owner", "maintainer"}
	// SharedRunnersSettings are the values of shared_runners_setting; disabled_with_override is
	// the deprecated spelling of disabled_and_overridable.
	SharedRunnersSettings = []string{"enabled", "disabled_and_overridable", "disabled_and_unoverridable", "disabled_with_override"}
	// Visibilities are the values of visibility.
	Visibilities = []string{"private", "internal", "public"}
)

// fieldErrors collects model validation messages attribute by attribute.
type fieldErrors map[string][]string

func (e fieldErrors) add(field, msg string) { e[field] = append(e[field], msg) }

func (e fieldErrors) err() error {
	if len(e) == 0 {
		return nil
	}
	return apperr.Validation(e)
}

func validateName(e fieldErrors, name string) {
	switch {
	case name == "":
		e.add("name", msgBlank)
	case utf8.RuneCountInString(name) > 255:
		e.add("name", msgTooLong255)
	case !nameRe.MatchString(name):
		e.add("name", msgNameFormat)
	}
}

// validatePath checks a group's path; topLevel tells which reserved words apply.
func validatePath(e fieldErrors, path string, topLevel bool) {
	switch {
	case path == "":
		e.add("path", msgBlank)
	case len(path) > 255:
		e.add("path", msgTooLong255)
	case !users.ValidPath(path):
		e.add("path", msgPathFormat)
	case users.ReservedPath(path, topLevel):
		e.add("path", users.ReservedMessage(path))
	case len(path) < 2:
		e.add("path", msgPathShort)
	}
}

func validateDescription(e fieldErrors, d *string) {
	if d != nil && utf8.RuneCountInString(*d) > 500 {
		e.add("description", msgDescTooLong)
	}
}

// checkEnums rejects setting values outside GitLab's lists, as Grape would, for callers that
// did not go through REST parameter validation (GraphQL).
func checkEnums(visibility *string, s *Settings) error {
	check := func(name string, v *string, allowed []string) error {
		if v != nil && !slices.Contains(allowed, *v) {
			return apperr.NotAllowedValue(name)
		}
		return nil
	}
	if err := check("visibility", visibility, Visibilities); err != nil {
		return err
	}
	if err := check("project_creation_level", s.ProjectCreationLevel, ProjectCreationLevels); err != nil {
		return err
	}
	if err := check("subgroup_creation_level", s.SubgroupCreationLevel, SubgroupCreationLevels); err != nil {
		return err
	}
	return check("shared_runners_setting", s.SharedRunnersSetting, SharedRunnersSettings)
}

// visibilityRank orders visibilities from least to most visible, as GitLab's levels 0/10/20.
func visibilityRank(v namespace.Visibility) int {
	switch v {
	case namespace.VisibilityPublic:
		return 20
	case namespace.VisibilityInternal:
		return 10
	}
	return 0
}

// msgParentVisibility is GitLab's message for a group more visible than its parent.
func msgParentVisibility(v, parent namespace.Visibility) string {
	return string(v) + " is not allowed since the parent group has a " + string(parent) + " visibility."
}

// msgProjectsVisibility is GitLab's message for a group less visible than one of its projects.
func msgProjectsVisibility(v namespace.Visibility) string {
	return string(v) + " is not allowed since this group contains projects with higher visibility."
}

// msgSubgroupsVisibility is GitLab's message for a group less visible than one of its subgroups.
func msgSubgroupsVisibility(v namespace.Visibility) string {
	return string(v) + " is not allowed since there are sub-groups with higher visibility."
}

// normalizeRunnersSetting maps the deprecated disabled_with_override to its current name.
func normalizeRunnersSetting(s string) string {
	if s == "disabled_with_override" {
		return "disabled_and_overridable"
	}
	return s
}

// checkRunnersSetting applies GitLab's rule that a group whose parent disables shared runners
// without override can neither enable them nor allow descendants to override.
func checkRunnersSetting(e fieldErrors, setting, parentSetting string) {
	if parentSetting != "disabled_and_unoverridable" {
		return
	}
	switch setting {
	case "enabled":
		e.add("shared_runners_enabled", msgRunnersOn)
	case "disabled_and_overridable":
		e.add("allow_descendants_override_disabled_shared_runners", msgOverrideOn)
	}
}
