package protectedbranches

import (
	"slices"

	"anvil/ent"
	"anvil/ent/schema"
	"anvil/internal/authz"
)

// AccessInput is one entry of allowed_to_push, allowed_to_merge or allowed_to_unprotect: a role
// (AccessLevel), a user (UserID), a group (GroupID) or a deploy key (DeployKeyID, push only). On
// update, ID names an existing entry to change, or to remove when Destroy is set.
type AccessInput struct {
	ID          *int
	AccessLevel *int
	UserID      *int
	GroupID     *int
	DeployKeyID *int
	Destroy     bool
}

// CreateInput protects a branch name (POST /projects/:id/protected_branches). A nil
// *AccessLevel defaults to Maintainer (40) unless allowed_to_* entries are given for that kind.
type CreateInput struct {
	Name                      string
	PushAccessLevel           *int
	MergeAccessLevel          *int
	UnprotectAccessLevel      *int
	AllowForcePush            bool
	CodeOwnerApprovalRequired bool
	AllowedToPush             []AccessInput
	AllowedToMerge            []AccessInput
	AllowedToUnprotect        []AccessInput
}

// UpdateInput changes a rule (PATCH /projects/:id/protected_branches/:name); nil leaves a field
// as it is, and allowed_to_* entries add, change or remove single entries.
type UpdateInput struct {
	AllowForcePush            *bool
	CodeOwnerApprovalRequired *bool
	AllowedToPush             []AccessInput
	AllowedToMerge            []AccessInput
	AllowedToUnprotect        []AccessInput
}

// kind is one of a rule's three access lists.
type kind struct {
	// label starts GitLab's full error messages ("Push access levels user is not a member ...").
	label  string
	levels []int
}

var (
	pushKind      = kind{"Push access levels", PushLevels}
	mergeKind     = kind{"Merge access levels", MergeLevels}
	unprotectKind = kind{"Unprotect access levels", UnprotectLevels}
)

// The access levels each list accepts (GitLab's allowed_access_levels, self-managed): No one,
// Developers + Maintainers, Maintainers, Instance admins; unprotecting cannot be "No one".
var (
	PushLevels      = []int{int(authz.NoAccess), int(authz.Developer), int(authz.Maintainer), int(authz.Admin)}
	MergeLevels     = PushLevels
	UnprotectLevels = []int{int(authz.Developer), int(authz.Maintainer), int(authz.Admin)}
)

// idSeq numbers the entries of one rule: ids are unique within the rule, across its lists.
type idSeq struct{ last int }

func (s *idSeq) next() int { s.last++; return s.last }

// seqAfter continues the numbering of pb's entries.
func seqAfter(pb *ent.ProtectedBranch) idSeq {
	var s idSeq
	for _, l := range [][]schema.AccessRule{pb.PushAccessLevels, pb.MergeAccessLevels, pb.UnprotectAccessLevels} {
		for _, r := range l {
			s.last = max(s.last, r.ID)
		}
	}
	return s
}

// newRule turns an input entry into a stored rule; an entry naming nothing is a Maintainer
// role rule (GitLab's column default).
func newRule(in AccessInput, ids *idSeq) schema.AccessRule {
	r := schema.AccessRule{ID: ids.next(), AccessLevel: int(authz.Maintainer)}
	applyInput(&r, in)
	return r
}

// applyInput copies the given fields of in onto r.
func applyInput(r *schema.AccessRule, in AccessInput) {
	if in.AccessLevel != nil {
		r.AccessLevel = *in.AccessLevel
	}
	if in.UserID != nil {
		r.UserID = in.UserID
	}
	if in.GroupID != nil {
		r.GroupID = in.GroupID
	}
	if in.DeployKeyID != nil {
		r.DeployKeyID = in.DeployKeyID
	}
}

// buildLevels is a new rule's list of one kind: the role level (given, or Maintainer by
// default when no entry is given), then the entries.
func buildLevels(level *int, entries []AccessInput, ids *idSeq) []schema.AccessRule {
	out := []schema.AccessRule{}
	if level == nil && len(entries) == 0 {
		m := int(authz.Maintainer)
		level = &m
	}
	if level != nil {
		out = append(out, schema.AccessRule{ID: ids.next(), AccessLevel: *level})
	}
	for _, e := range entries {
		out = append(out, newRule(e, ids))
	}
	return out
}

// validLevel reports whether l is accepted by k.
func (k kind) validLevel(l int) bool { return slices.Contains(k.levels, l) }
