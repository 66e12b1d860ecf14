package namespaces

import (
	"anvil/ent"
)

// ListParams are the filters of GET /namespaces, in GitLab's spelling; zero values filter
// nothing.
type ListParams struct {
	// Search (search) matches the path or the name (words of three or more characters as
	// substrings, shorter input whole); with FullPathSearch (full_path_search) the full path
	// instead of the path.
	Search         string
	FullPathSearch bool
	// OwnedOnly (owned_only) keeps the personal namespace and the groups the user owns directly.
	OwnedOnly bool
	// TopLevelOnly (top_level_only) keeps namespaces without a parent.
	TopLevelOnly bool
}

// Load names what a presentation of namespaces needs beyond the rows.
type Load struct {
	// Details computes the fields of GitLab's Namespace entity that need more than the row:
	// member and project counts, the repository size of top-level groups and the billable
	// member count, each for the namespaces where the actor may see it.
	Details bool
}

// LoadNamespace is the Namespace shape of GET /namespaces and GET /namespaces/:id.
var LoadNamespace = Load{Details: true}

// Entry is a namespace with what the Namespace shape shows beyond its row.
type Entry struct {
	// Namespace is the row, with its owner loaded for personal namespaces.
	Namespace *ent.Namespace
	// Admin is admin_group on a group, or admin_namespace on a personal namespace (its owner
	// and administrators): it shows the counts, plan and trial.
	Admin bool
	// ReadBilling shows billable_members_count (the same people as Admin).
	ReadBilling bool
	// InstanceAdmin shows the subscription limits, which only administrators manage.
	InstanceAdmin bool
	// MembersCountWithDescendants is the number of distinct active users with a membership of
	// the group or one of its descendants (groups shown to their admins only).
	MembersCountWithDescendants int
	// ProjectsCount is the number of projects in the group and its descendants.
	ProjectsCount int
	// RootRepositorySize is the repository size of every project in a top-level group's
	// hierarchy; nil for subgroups.
	RootRepositorySize *int64
	// BillableMembersCount is the number of users taking a seat; nil when hidden.
	BillableMembersCount *int
}
