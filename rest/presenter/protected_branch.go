package presenter

import (
	"anvil/ent"
	"anvil/ent/schema"
)

// ProtectedBranch is GitLab's ProtectedBranch entity (EE fields included, as Anvil enables
// every tier): the rule's name (possibly a wildcard) and who may push, merge and unprotect.
type ProtectedBranch struct {
	ID                        int                  `json:"id"`
	Name                      string               `json:"name"`
	PushAccessLevels          []ProtectedRefAccess `json:"push_access_levels"`
	MergeAccessLevels         []ProtectedRefAccess `json:"merge_access_levels"`
	AllowForcePush            bool                 `json:"allow_force_push"`
	UnprotectAccessLevels     []ProtectedRefAccess `json:"unprotect_access_levels"`
	CodeOwnerApprovalRequired bool                 `json:"code_owner_approval_required"`
	// Inherited is true for rules set on a parent group; project rules never are.
	Inherited bool `json:"inherited"`
}

// ProtectedRefAccess is one access entry: a role, a user or a group. deploy_key_id exists
// only on push entries (only that table has the column in GitLab), null unless set.
type ProtectedRefAccess struct {
	ID                     int            `json:"id"`
	AccessLevel            int            `json:"access_level"`
	AccessLevelDescription string         `json:"access_level_description"`
	DeployKeyID            *Optional[int] `json:"deploy_key_id,omitempty"`
	UserID                 *int           `json:"user_id"`
	GroupID                *int           `json:"group_id"`
}

// ProtectedBranch renders a rule whose descriptions the service filled in.
func (p *Presenter) ProtectedBranch(pb *ent.ProtectedBranch) ProtectedBranch {
	return ProtectedBranch{
		ID: pb.ID, Name: pb.Name,
		PushAccessLevels:          refAccesses(pb.PushAccessLevels, true),
		MergeAccessLevels:         refAccesses(pb.MergeAccessLevels, false),
		AllowForcePush:            pb.AllowForcePush,
		UnprotectAccessLevels:     refAccesses(pb.UnprotectAccessLevels, false),
		CodeOwnerApprovalRequired: pb.CodeOwnerApprovalRequired,
	}
}

// ProtectedBranches renders a list.
func (p *Presenter) ProtectedBranches(rows []*ent.ProtectedBranch) []ProtectedBranch {
	out := make([]ProtectedBranch, 0, len(rows))
	for _, pb := range rows {
		out = append(out, p.ProtectedBranch(pb))
	}
	return out
}

// refAccesses renders one access list; push lists carry deploy_key_id.
func refAccesses(rules []schema.AccessRule, push bool) []ProtectedRefAccess {
	out := make([]ProtectedRefAccess, 0, len(rules))
	for _, r := range rules {
		a := ProtectedRefAccess{ID: r.ID, AccessLevel: r.AccessLevel, AccessLevelDescription: r.Description,
			UserID: r.UserID, GroupID: r.GroupID}
		if push {
			a.DeployKeyID = &Optional[int]{V: r.DeployKeyID}
		}
		out = append(out, a)
	}
	return out
}
