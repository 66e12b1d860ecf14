package members

import (
	"time"

	"anvil/ent"
	"anvil/internal/nullable"
)

// ListParams are the filters of GET /groups/:id/members, /projects/:id/members and their /all
// forms, in GitLab's spelling. Zero values mean "no filter".
type ListParams struct {
	// Source is the group or project (the :id of the route).
	Source Ref
	// Query (query) matches the user's name or username (substring, any case) or public email.
	Query string
	// UserIDs (user_ids[]) keeps only these users.
	UserIDs []int
	// SkipUsers (skip_users[]) leaves these users out; direct listings only.
	SkipUsers []int
	// State (state) is "awaiting" or "active"; inherited listings only.
	State string
	// ShowSeatInfo (show_seat_info) computes Entry.UsingSeat.
	ShowSeatInfo bool
}

// Entry is one member as the API shows it.
type Entry struct {
	// Member is the membership row shown; for inherited listings, the row that gives the user
	// the highest access (a project's own row when the user has one).
	Member *ent.Member
	// User is the member.
	User *ent.User
	// AccessLevel is the level shown: the row's, or the effective one for inherited listings
	// (the highest, with invited groups' levels capped by their share).
	AccessLevel int
	// CreatedBy is who added the member; nil when unknown or hidden from the actor (members of
	// private invited groups the actor cannot see).
	CreatedBy *ent.User
	// UsingSeat tells whether the member takes a license seat; set when ShowSeatInfo is asked.
	UsingSeat *bool
}

// AddInput is POST /groups/:id/members and /projects/:id/members for one user.
type AddInput struct {
	// UserID (user_id) is the user's id; Username (username) is the alternative.
	UserID   string
	Username string
	// AccessLevel (access_level) is required.
	AccessLevel int
	// ExpiresAt (expires_at) is the last day of the membership; nil for none.
	ExpiresAt *time.Time
}

// AddManyInput is POST .../members with comma-separated user_id or username lists.
type AddManyInput struct {
	UserIDs     []string
	Usernames   []string
	AccessLevel int
	ExpiresAt   *time.Time
}

// AddManyResult is GitLab's answer to a bulk add: status "success", or "error" with a message
// listing each failure ("alice: Access level is not included in the list").
type AddManyResult struct {
	Status  string
	Message string
}

// UpdateInput is PUT .../members/:user_id.
type UpdateInput struct {
	// AccessLevel (access_level) is required.
	AccessLevel int
	// ExpiresAt (expires_at) changes the expiry; null clears it, absent keeps it.
	ExpiresAt nullable.Value[time.Time]
}

// RemoveOptions are the flags of DELETE .../members/:user_id.
type RemoveOptions struct {
	// SkipSubresources (skip_subresources) keeps the user's memberships of the group's
	// subgroups and projects, which are removed by default.
	SkipSubresources bool
	// UnassignIssuables (unassign_issuables) is accepted; Anvil has no issuables to unassign yet.
	UnassignIssuables bool
	// UnmodifiedSince (If-Unmodified-Since) refuses with 412 a membership changed after it.
	UnmodifiedSince *time.Time
}

// BillableParams are the parameters of GET /groups/:id/billable_members.
type BillableParams struct {
	// Search (search) matches name or username (substring) or public email.
	Search string
	// Sort (sort) is one of BillableSorts; empty is by id.
	Sort string
}

// BillableSorts are the sort values GET /groups/:id/billable_members accepts.
var BillableSorts = []string{
	"access_level_asc", "access_level_desc", "last_joined", "name_asc", "name_desc",
	"oldest_joined", "oldest_sign_in", "recent_sign_in", "last_activity_on_asc", "last_activity_on_desc",
}

// BillableMember is a user who takes a seat in a top-level group's hierarchy.
type BillableMember struct {
	User *ent.User
	// MembershipType is group_member, project_member, group_invite or project_invite: the
	// first way, in that order, the user belongs.
	MembershipType string
	// Removable is true for direct members of the hierarchy's groups or projects.
	Removable bool
	// IsLastOwner tells whether the user is the group's only owner.
	IsLastOwner bool
}

// Membership is a direct membership of a user within a group hierarchy, with its source.
type Membership struct {
	Member *ent.Member
	// SourceKind is GroupKind or ProjectKind.
	SourceKind Kind
	SourceID   int
	// SourceFullName is "Group / Sub" or "Group / Sub / Project".
	SourceFullName string
	// SourceFullPath is the group's or project's full path.
	SourceFullPath string
}
