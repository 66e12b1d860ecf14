package users

import (
	"time"

	"anvil/ent"
	"anvil/ent/member"
)

// ListParams are the filters of GET /users, in GitLab's spelling. A zero field is no filter.
// GitLab's booleans only filter when true: active=false, blocked=false and external=false are
// "no filter", as GitLab documents.
type ListParams struct {
	// Username (username) matches exactly, ignoring case; an empty non-nil value matches nobody.
	// Anonymous callers must give it.
	Username *string
	// Usernames (GraphQL's users(usernames:)) keeps users with any of these usernames, ignoring
	// case. Unlike Username it does not let anonymous callers list users.
	Usernames []string
	// IDs (GraphQL's users(ids:)) keeps users with these ids.
	IDs []int
	// Search (search) matches name or username (every word of three or more characters as a
	// substring, or the whole query exactly when shorter) or the full public email;
	// administrators also match the full private email.
	Search string
	// PublicEmail (public_email) matches the public email exactly.
	PublicEmail string
	// Active (active) keeps active non-internal users; ExcludeActive (exclude_active) the others.
	Active, ExcludeActive bool
	// External (external) keeps external users; ExcludeExternal (exclude_external) the others.
	External, ExcludeExternal bool
	// Blocked (blocked) keeps blocked and LDAP-blocked users.
	Blocked bool
	// Humans (humans) keeps human users; ExcludeHumans (exclude_humans) the others.
	Humans, ExcludeHumans bool
	// ExcludeInternal (exclude_internal) drops internal users (ghost, support bots, ...).
	ExcludeInternal bool
	// WithoutProjectBots (without_project_bots) drops the bots of project and group tokens.
	WithoutProjectBots bool
	// CreatedAfter (created_after) and CreatedBefore (created_before) bound created_at, inclusive.
	CreatedAfter, CreatedBefore *time.Time

	// The filters below are administrator-only and ignored for other callers, except
	// ExternUID with Provider, which other callers may not use at all (401/403).

	// ExternUID (extern_uid) with Provider (provider) finds the user of an external identity.
	ExternUID, Provider string
	// TwoFactor (two_factor) is "enabled" or "disabled"; other values are no filter.
	TwoFactor string
	// WithoutProjects (without_projects) keeps users with access to no project.
	WithoutProjects bool
	// Admins (admins) keeps administrators; Auditors (auditors) keeps auditors.
	Admins, Auditors bool
	// SAMLProviderID (saml_provider_id) keeps users with an identity of that SAML provider.
	SAMLProviderID *int
	// SkipLDAP (skip_ldap) drops users with an LDAP identity.
	SkipLDAP bool
	// CustomAttributes (custom_attributes[key]=value) keeps users carrying every pair.
	CustomAttributes map[string]string
}

// Order columns of GET /users (order_by).
const (
	OrderID        = "id"
	OrderName      = "name"
	OrderUsername  = "username"
	OrderCreatedAt = "created_at"
	OrderUpdatedAt = "updated_at"
)

// OrderColumns are the accepted order_by values, and SortValues the accepted sort values.
var (
	OrderColumns = []string{OrderID, OrderName, OrderUsername, OrderCreatedAt, OrderUpdatedAt}
	SortValues   = []string{"asc", "desc"}
)

// Order is GET /users' order_by and sort, honoured for administrators only. Empty fields were
// not given: the order is then id desc, or search relevance when searching.
type Order struct {
	By   string
	Sort string
}

// given reports whether the caller chose an order.
func (o Order) given() bool { return o.By != "" || o.Sort != "" }

// column is the column to order by: created_at orders by id as GitLab does (ids grow with
// creation time and are unique).
func (o Order) column() string {
	switch o.By {
	case "", OrderCreatedAt:
		return OrderID
	}
	return o.By
}

// desc reports descending order, GitLab's default.
func (o Order) desc() bool { return o.Sort != "asc" }

// Load names the edges a presentation of users reads. List and Find load them with the users,
// one query per edge, so presenters never query.
type Load struct {
	Identities       bool // identities (administrator and self views)
	Namespace        bool // personal namespace (namespace_id)
	CreatedBy        bool // the creating administrator (created_by)
	Memberships      bool // active memberships (highest_role)
	CustomAttributes bool // custom attributes, honoured for administrators only
}

// Load presets for the REST shapes.
var (
	// LoadBasic is UserBasic and the single-user public view.
	LoadBasic = Load{}
	// LoadPublic is what a user sees of itself (GET /user).
	LoadPublic = Load{Identities: true}
	// LoadAdmin is the administrator view (UserWithAdmin).
	LoadAdmin = Load{Identities: true, Namespace: true, CreatedBy: true}
	// LoadAdminDetails is the administrator's single-user view (UserDetailsWithAdmin).
	LoadAdminDetails = Load{Identities: true, Namespace: true, CreatedBy: true, Memberships: true}
)

// apply adds the eager loads to q.
func (l Load) apply(q *ent.UserQuery) *ent.UserQuery {
	if l.Identities {
		q = q.WithIdentities(func(q *ent.IdentityQuery) { q.Order(ent.Asc("id")) })
	}
	if l.Namespace {
		q = q.WithNamespace()
	}
	if l.CreatedBy {
		q = q.WithCreatedBy()
	}
	if l.Memberships {
		q = q.WithMemberships(func(q *ent.MemberQuery) { q.Where(member.State("active")) })
	}
	if l.CustomAttributes {
		q = q.WithCustomAttributes(func(q *ent.UserCustomAttributeQuery) { q.Order(ent.Asc("id")) })
	}
	return q
}
