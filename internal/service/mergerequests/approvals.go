package mergerequests

import (
	"context"
	"sort"

	"anvil/ent"
	"anvil/ent/approvalrule"
	"anvil/ent/member"
	"anvil/ent/mergerequestapproval"
	"anvil/ent/namespace"
	"anvil/ent/protectedbranch"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/wire"
)

// ApprovalNoter writes a merge request's approval system notes ("approved this merge
// request"); the notes domain implements it (it builds on this package, so it cannot be
// called directly).
type ApprovalNoter interface {
	MergeRequestSystemNote(ctx context.Context, actor *authz.Actor, level authz.Level, mr *ent.MergeRequest, body string) error
	// MergeRequestSystemNoteBy writes a note of authorID (nil: none) outside a request (a push).
	MergeRequestSystemNoteBy(ctx context.Context, authorID *int, mr *ent.MergeRequest, body string) error
}

// Approvals is GitLab Premium's merge request approvals: the project's approval settings and
// rules, each merge request's own rules, approving and unapproving, and the approval state
// the API and mergeability read (ApprovalsLeft, Approved).
type Approvals struct {
	mrs   *Service
	notes ApprovalNoter
	// approved are told of each approval in its transaction (OnApproved).
	approved []func(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest) error
}

// OnApproved registers f, called with each approval in its transaction (the approver's
// to-dos on the merge request are done).
func (a *Approvals) OnApproved(f func(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest) error) {
	a.approved = append(a.approved, f)
}

// ApproverIDs are the users GitLab's overall_approvers names for mr (loaded with Load), in
// ctx's transaction: the eligible approvers of the rules that apply to it (its own, or the
// project's for its target branch), without the author unless authors may approve; any_approver
// rules name nobody. Ids ascending.
func (a *Approvals) ApproverIDs(ctx context.Context, mr *ent.MergeRequest) ([]int, error) {
	st, err := a.State(ctx, mr)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	var ids []int
	for _, r := range st.Rules {
		for _, u := range r.Eligible {
			if !seen[u.ID] {
				seen[u.ID] = true
				ids = append(ids, u.ID)
			}
		}
	}
	sort.Ints(ids)
	return ids, nil
}

// NewApprovals returns the approvals service over the merge request service.
func NewApprovals(mrs *Service, notes ApprovalNoter) *Approvals {
	wire.Require("approvals", wire.D("mergerequests", mrs), wire.D("notes", notes))
	return &Approvals{mrs: mrs, notes: notes}
}

// ApprovalRuleState is one rule as it applies to a merge request: its eligible approvers and
// who of them approved.
type ApprovalRuleState struct {
	Rule *ent.ApprovalRule // users, groups, protected branches and source rule loaded
	// Eligible are the users who may approve for the rule (its users and its groups' members,
	// less the author unless authors may approve); empty for any_approver.
	Eligible []*ent.User
	// ApprovedBy are the approvers who count for the rule.
	ApprovedBy []*ent.User
	// Left is how many approvals the rule still needs.
	Left int
	// Groups are the rule's groups shown (all of them, or those an actor may see when
	// ApprovalStateOf computed the state for one); HiddenGroups tells whether it has others.
	Groups       []*ent.Namespace
	HiddenGroups bool
}

// View is the rule as the rules API shows it (its source rule for overridden).
func (r *ApprovalRuleState) View() *RuleView {
	return &RuleView{Rule: r.Rule, Eligible: r.Eligible, Groups: r.Groups, HiddenGroups: r.HiddenGroups,
		SourceRule: r.Rule.Edges.SourceRule}
}

// Approved reports whether the rule has its approvals.
func (r *ApprovalRuleState) Approved() bool { return r.Left == 0 }

// ApprovalState is a merge request's approvals as GitLab's ApprovalState computes them.
type ApprovalState struct {
	MR      *ent.MergeRequest
	Project *ent.Project
	// Overwritten: the merge request has rules of its own (approval_rules_overwritten);
	// otherwise the project's rules for its target branch apply.
	Overwritten bool
	Rules       []*ApprovalRuleState
	// Approvals are the merge request's approvals, oldest first, with their users.
	Approvals []*ent.MergeRequestApproval
}

// Required is the sum of the rules' required approvals (approvals_required).
func (st *ApprovalState) Required() int {
	n := 0
	for _, r := range st.Rules {
		n += r.Rule.ApprovalsRequired
	}
	return n
}

// Left is the sum of the approvals the rules still need (approvals_left).
func (st *ApprovalState) Left() int {
	n := 0
	for _, r := range st.Rules {
		n += r.Left
	}
	return n
}

// Approved reports whether every rule has its approvals (true without rules).
func (st *ApprovalState) Approved() bool { return st.Left() == 0 }

// ApprovedBy reports whether the user approved the merge request.
func (st *ApprovalState) ApprovedBy(userID int) bool {
	for _, a := range st.Approvals {
		if a.UserID == userID {
			return true
		}
	}
	return false
}

// State computes the approval state of mr (loaded with Load, its project edge set) in ctx's
// transaction if any.
func (a *Approvals) State(ctx context.Context, mr *ent.MergeRequest) (*ApprovalState, error) {
	c := db.ClientFrom(ctx, a.mrs.client)
	proj := mr.Edges.Project
	if proj == nil {
		var err error
		if proj, err = c.Project.Get(ctx, mr.ProjectID); err != nil {
			return nil, err
		}
	}
	st := &ApprovalState{MR: mr, Project: proj}
	var err error
	st.Approvals, err = c.MergeRequestApproval.Query().Where(mergerequestapproval.MergeRequestID(mr.ID)).
		WithUser().Order(mergerequestapproval.ByCreatedAt(), mergerequestapproval.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	rules, err := loadRules(c.ApprovalRule.Query().Where(approvalrule.MergeRequestID(mr.ID))).All(ctx)
	if err != nil {
		return nil, err
	}
	st.Overwritten = len(rules) > 0 && !proj.DisableOverridingApproversPerMergeRequest
	if !st.Overwritten {
		if rules, err = a.projectRulesFor(ctx, c, proj.ID, mr.TargetBranch); err != nil {
			return nil, err
		}
	}
	for _, r := range rules {
		rs, err := a.ruleState(ctx, c, st, r)
		if err != nil {
			return nil, err
		}
		st.Rules = append(st.Rules, rs)
	}
	return st, nil
}

// loadRules asks for a rule's approvers, groups, protected branches and source rule.
func loadRules(q *ent.ApprovalRuleQuery) *ent.ApprovalRuleQuery {
	return q.WithUsers(func(q *ent.UserQuery) { q.Order(user.ByID()) }).
		WithGroups(func(q *ent.NamespaceQuery) { q.Order(namespace.ByID()) }).
		WithProtectedBranches(func(q *ent.ProtectedBranchQuery) { q.Order(protectedbranch.ByID()) }).
		WithSourceRule(func(q *ent.ApprovalRuleQuery) { q.WithUsers().WithGroups() }).Order(approvalrule.ByID())
}

// projectRulesFor are the project's rules that apply to a target branch: unscoped rules, rules
// for all protected branches when it is protected, and rules scoped to its protection.
func (a *Approvals) projectRulesFor(ctx context.Context, c *ent.Client, projectID int, branch string) ([]*ent.ApprovalRule, error) {
	rules, err := loadRules(c.ApprovalRule.Query().Where(approvalrule.ProjectID(projectID), approvalrule.MergeRequestIDIsNil())).All(ctx)
	if err != nil {
		return nil, err
	}
	protected, err := c.ProtectedBranch.Query().Where(protectedbranch.ProjectID(projectID)).All(ctx)
	if err != nil {
		return nil, err
	}
	matches := func(pb *ent.ProtectedBranch) bool { return branchMatches(pb.Name, branch) }
	isProtected := false
	for _, pb := range protected {
		isProtected = isProtected || matches(pb)
	}
	var out []*ent.ApprovalRule
	for _, r := range rules {
		switch {
		case r.AppliesToAllProtectedBranches:
			if isProtected {
				out = append(out, r)
			}
		case len(r.Edges.ProtectedBranches) == 0:
			out = append(out, r)
		default:
			for _, pb := range r.Edges.ProtectedBranches {
				if matches(pb) {
					out = append(out, r)
					break
				}
			}
		}
	}
	return out, nil
}

// branchMatches reports whether a protected branch name (with * wildcards) covers branch.
func branchMatches(pattern, branch string) bool {
	if pattern == branch {
		return true
	}
	// A wildcard pattern: each * matches any run of characters.
	var match func(p, s string) bool
	match = func(p, s string) bool {
		for len(p) > 0 {
			if p[0] == '*' {
				for i := 0; i <= len(s); i++ {
					if match(p[1:], s[i:]) {
						return true
					}
				}
				return false
			}
			if len(s) == 0 || p[0] != s[0] {
				return false
			}
			p, s = p[1:], s[1:]
		}
		return len(s) == 0
	}
	return match(pattern, branch)
}

// ruleState computes one rule's eligible approvers and approvals.
func (a *Approvals) ruleState(ctx context.Context, c *ent.Client, st *ApprovalState, r *ent.ApprovalRule) (*ApprovalRuleState, error) {
	rs := &ApprovalRuleState{Rule: r, Groups: r.Edges.Groups}
	if r.RuleType != approvalrule.RuleTypeAnyApprover {
		eligible, err := eligibleApprovers(ctx, c, r)
		if err != nil {
			return nil, err
		}
		for _, u := range eligible {
			if st.MR.AuthorID != nil && *st.MR.AuthorID == u.ID && !st.Project.MergeRequestsAuthorApproval {
				continue
			}
			rs.Eligible = append(rs.Eligible, u)
		}
	}
	for _, ap := range st.Approvals {
		if r.RuleType == approvalrule.RuleTypeAnyApprover || containsUser(rs.Eligible, ap.UserID) {
			rs.ApprovedBy = append(rs.ApprovedBy, ap.Edges.User)
		}
	}
	rs.Left = max(r.ApprovalsRequired-len(rs.ApprovedBy), 0)
	return rs, nil
}

// eligibleApprovers are a rule's users and its groups' active members, each once, by id.
func eligibleApprovers(ctx context.Context, c *ent.Client, r *ent.ApprovalRule) ([]*ent.User, error) {
	byID := map[int]*ent.User{}
	for _, u := range r.Edges.Users {
		byID[u.ID] = u
	}
	if len(r.Edges.Groups) > 0 {
		ids := make([]int, 0, len(r.Edges.Groups))
		for _, g := range r.Edges.Groups {
			ids = append(ids, g.ID)
		}
		ms, err := c.Member.Query().Where(member.NamespaceIDIn(ids...), member.State("active")).WithUser().All(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if m.Edges.User != nil {
				byID[m.UserID] = m.Edges.User
			}
		}
	}
	out := make([]*ent.User, 0, len(byID))
	for _, u := range byID {
		if u.State == "active" {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func containsUser(us []*ent.User, id int) bool {
	for _, u := range us {
		if u.ID == id {
			return true
		}
	}
	return false
}

// ApprovalsLeft is how many approvals mr (loaded with Load) still needs; mergeability's
// detailed_merge_status is not_approved while it is above 0.
func (a *Approvals) ApprovalsLeft(ctx context.Context, mr *ent.MergeRequest) (int, error) {
	st, err := a.State(ctx, mr)
	if err != nil {
		return 0, err
	}
	return st.Left(), nil
}

// Approved reports whether mr has every approval its rules require.
func (a *Approvals) Approved(ctx context.Context, mr *ent.MergeRequest) (bool, error) {
	left, err := a.ApprovalsLeft(ctx, mr)
	return left == 0, err
}
