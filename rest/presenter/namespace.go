package presenter

import (
	"anvil/ent/namespace"
	"anvil/internal/service/namespaces"
)

// Namespace is GitLab's Namespace entity with its Enterprise Edition fields as a self-managed
// instance shows them (GET /namespaces, GET /namespaces/:id). Fields tagged omitempty are absent
// where GitLab leaves them out: the counts unless the viewer administers the group, the plan
// and trial unless it administers the namespace, the subscription limits unless it is an
// administrator. A self-managed namespace has no subscription, so seats_in_use,
// max_seats_used, max_seats_used_changed_at and end_date never appear.
type Namespace struct {
	NamespaceBasic
	MembersCountWithDescendants      *int             `json:"members_count_with_descendants,omitempty"`
	RootRepositorySize               *Optional[int64] `json:"root_repository_size,omitempty"`
	ProjectsCount                    *int             `json:"projects_count,omitempty"`
	SharedRunnersMinutesLimit        *Optional[int]   `json:"shared_runners_minutes_limit,omitempty"`
	ExtraSharedRunnersMinutesLimit   *Optional[int]   `json:"extra_shared_runners_minutes_limit,omitempty"`
	AdditionalPurchasedStorageSize   *int             `json:"additional_purchased_storage_size,omitempty"`
	AdditionalPurchasedStorageEndsOn *Optional[Date]  `json:"additional_purchased_storage_ends_on,omitempty"`
	BillableMembersCount             *int             `json:"billable_members_count"`
	Plan                             *string          `json:"plan,omitempty"`
	TrialEndsOn                      *Optional[Date]  `json:"trial_ends_on,omitempty"`
	Trial                            *bool            `json:"trial,omitempty"`
}

// NamespaceExistence is GET /namespaces/:id/exists.
type NamespaceExistence struct {
	Exists   bool     `json:"exists"`
	Suggests []string `json:"suggests"`
}

// selfManagedPlan is the plan every namespace of a self-managed instance has.
const selfManagedPlan = "default"

// NamespaceEntry renders one namespace in the Namespace shape.
func (p *Presenter) NamespaceEntry(e *namespaces.Entry) *Namespace {
	out := &Namespace{NamespaceBasic: p.Namespace(e.Namespace), BillableMembersCount: e.BillableMembersCount}
	if e.Admin && e.Namespace.Kind == namespace.KindGroup {
		members, projects := e.MembersCountWithDescendants, e.ProjectsCount
		out.MembersCountWithDescendants, out.ProjectsCount = &members, &projects
		out.RootRepositorySize = &Optional[int64]{V: e.RootRepositorySize}
	}
	if e.InstanceAdmin {
		zero := 0
		out.SharedRunnersMinutesLimit, out.ExtraSharedRunnersMinutesLimit = &Optional[int]{}, &Optional[int]{}
		out.AdditionalPurchasedStorageSize, out.AdditionalPurchasedStorageEndsOn = &zero, &Optional[Date]{}
	}
	if e.Admin {
		plan, trial := selfManagedPlan, false
		out.Plan, out.TrialEndsOn, out.Trial = &plan, &Optional[Date]{}, &trial
	}
	return out
}

// NamespaceEntries renders a page of namespaces.
func (p *Presenter) NamespaceEntries(es []*namespaces.Entry) []*Namespace {
	out := make([]*Namespace, len(es))
	for i, e := range es {
		out[i] = p.NamespaceEntry(e)
	}
	return out
}

// NamespaceExistence renders GET /namespaces/:id/exists.
func (p *Presenter) NamespaceExistence(exists bool, suggests []string) *NamespaceExistence {
	if suggests == nil {
		suggests = []string{}
	}
	return &NamespaceExistence{Exists: exists, Suggests: suggests}
}
