package members

import (
	"strings"
	"time"

	"anvil/ent/member"
	"anvil/ent/predicate"
	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// HumanAccess is GitLab's name of an access level ("Developer"), as error messages and the
// billable memberships entity show it.
func HumanAccess(level int) string {
	switch authz.Level(level) {
	case authz.Minimal:
		return "Minimal Access"
	case authz.Guest:
		return "Guest"
	case authz.Planner:
		return "Planner"
	case authz.Reporter:
		return "Reporter"
	case authz.Developer:
		return "Developer"
	case authz.Maintainer:
		return "Maintainer"
	case authz.Owner:
		return "Owner"
	}
	return ""
}

// validLevel reports whether level may be given to a member of src: Minimal Access exists for
// top-level groups only (GitLab's minimal_access_role_allowed?).
func validLevel(src *Source, level int) bool {
	if !authz.ValidMemberLevel(level) {
		return false
	}
	return authz.Level(level) != authz.Minimal || minimalAllowed(src)
}

// minimalAllowed reports whether src takes Minimal Access members: a top-level group.
func minimalAllowed(src *Source) bool {
	return src.Kind == GroupKind && src.Group.ParentID == nil
}

// today is the current UTC date at midnight; a membership expires at the end of its expires_at day.
func today() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }

// notExpired keeps memberships that are still in force. GitLab purges expired rows with a
// background worker; Anvil treats them as gone.
func notExpired() predicate.Member {
	return member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGTE(today()))
}

// visible keeps the rows the members API shows: in force and above Minimal Access, which
// GitLab keeps out of member listings, except in a source's own members where the source takes
// Minimal Access members (GitLab lists a top-level group's all_group_members there, so that
// they can be read, changed and removed like any other).
func visible() predicate.Member {
	return member.And(notExpired(), member.AccessLevelGT(int(authz.Minimal)))
}

// visibleDirect keeps the rows of src's own members list.
func visibleDirect(src *Source) predicate.Member {
	if minimalAllowed(src) {
		return notExpired()
	}
	return visible()
}

// isDenied reports whether err is a 403 or 401 from the policy.
func isDenied(err error) bool {
	e, ok := apperr.As(err)
	return ok && (e.Kind == apperr.KindForbidden || e.Kind == apperr.KindUnauthorized)
}

// notFound is the body of an ActiveRecord find_by! miss, GitLab's answer for an unknown member.
func notFound() error { return apperr.RecordNotFound() }

// toSentence joins messages as Rails' Array#to_sentence does: "a", "a and b", "a, b, and c".
func toSentence(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	case 2:
		return parts[0] + " and " + parts[1]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + ", and " + parts[len(parts)-1]
}

// ShowEmail reports whether the actor sees members' emails: administrators only (GitLab also
// shows them to the owners of enterprise users, which Anvil does not have).
func ShowEmail(a *authz.Actor) bool { return a.IsAdmin() }
