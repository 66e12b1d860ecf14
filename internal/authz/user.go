package authz

import (
	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
)

// User and instance abilities, in GitLab's global and user policy vocabulary.
const (
	// ReadUser is seeing that a user exists (GET /users/:id, lists).
	ReadUser Ability = "read_user"
	// ReadUserProfile is seeing a user's profile details (created_at, followers).
	ReadUserProfile Ability = "read_user_profile"
	// ReadUsersList is listing the instance's users.
	ReadUsersList Ability = "read_users_list"
	// AdminUsers is administering accounts: create, edit, delete, block, ban and the
	// administrator-only list filters and views (GitLab's admin_all_resources).
	AdminUsers Ability = "admin_all_resources"
	// ReadCustomAttribute is reading custom attributes.
	ReadCustomAttribute Ability = "read_custom_attribute"
	// UpdateCustomAttribute is setting and deleting custom attributes.
	UpdateCustomAttribute Ability = "update_custom_attribute"
)

// CanUser decides a user ability of a on target (target may be nil for instance-wide
// abilities). Users pending approval and banned users are hidden from everyone but
// administrators and themselves; a private profile shows its details only to them too.
func CanUser(a *Actor, target *ent.User, ability Ability) bool {
	self := target != nil && !a.IsAnonymous() && a.User.ID == target.ID
	switch ability {
	case ReadUsersList:
		return true
	case ReadUser:
		return target != nil && (a.IsAdmin() || self ||
			(target.State != user.StateBanned && target.State != user.StateBlockedPendingApproval))
	case ReadUserProfile:
		return CanUser(a, target, ReadUser) && (!target.PrivateProfile || a.IsAdmin() || self)
	case AdminUsers, ReadCustomAttribute, UpdateCustomAttribute:
		return a.IsAdmin()
	}
	return false
}

// UserAllowed checks an ability that needs no visibility decision (administration): 401 for
// anonymous callers, 403 for others without it.
func UserAllowed(a *Actor, target *ent.User, ability Ability) error {
	if CanUser(a, target, ability) {
		return nil
	}
	if a.IsAnonymous() {
		return apperr.Unauthorized()
	}
	return apperr.Forbidden("")
}

// CheckAdmin answers GitLab's authenticated_as_admin!: 401 for anonymous callers, 403 for
// everyone but administrators.
func CheckAdmin(a *Actor) error {
	switch {
	case a.IsAnonymous():
		return apperr.Unauthorized()
	case !a.IsAdmin():
		return apperr.Forbidden("")
	}
	return nil
}
