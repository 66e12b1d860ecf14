package presenter

import (
	"anvil/ent"
	"anvil/ent/approvalrule"
	"anvil/internal/service/mergerequests"
)

// Approval is one approval in approved_by: {"user": ...}.
type Approval struct {
	User *UserBasic `json:"user"`
}

// ApprovalRuleShort is a rule as approval_rules_left lists it (EE's Entities::ApprovalRuleShort).
type ApprovalRuleShort struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	RuleType string `json:"rule_type"`
}

// MergeRequestApprovals is GitLab's approval state of a merge request for the caller (EE's
// Entities::ApprovalState): GET .../approvals, and the answers of approve and unapprove.
type MergeRequestApprovals struct {
	ID                             int                 `json:"id"`
	IID                            int                 `json:"iid"`
	ProjectID                      int                 `json:"project_id"`
	Title                          string              `json:"title"`
	Description                    *string             `json:"description"`
	State                          string              `json:"state"`
	CreatedAt                      Time                `json:"created_at"`
	UpdatedAt                      Time                `json:"updated_at"`
	MergeStatus                    string              `json:"merge_status"`
	Approved                       bool                `json:"approved"`
	ApprovalsRequired              int                 `json:"approvals_required"`
	ApprovalsLeft                  int                 `json:"approvals_left"`
	RequirePasswordToApprove       bool                `json:"require_password_to_approve"`
	ApprovedBy                     []Approval          `json:"approved_by"`
	SuggestedApprovers             []*UserBasic        `json:"suggested_approvers"`
	Approvers                      []any               `json:"approvers"`
	ApproverGroups                 []any               `json:"approver_groups"`
	UserHasApproved                bool                `json:"user_has_approved"`
	UserCanApprove                 bool                `json:"user_can_approve"`
	ApprovalRulesLeft              []ApprovalRuleShort `json:"approval_rules_left"`
	HasApprovalRules               bool                `json:"has_approval_rules"`
	MergeRequestApproversAvailable bool                `json:"merge_request_approvers_available"`
	MultipleApprovalRulesAvailable bool                `json:"multiple_approval_rules_available"`
	InvalidApproversRules          []ApprovalRuleShort `json:"invalid_approvers_rules"`
}

// MergeRequestApprovals renders a merge request's approval state for the caller.
func (p *Presenter) MergeRequestApprovals(v *mergerequests.ApprovalView) *MergeRequestApprovals {
	mr := v.MR
	out := &MergeRequestApprovals{
		ID: mr.ID, IID: mr.Iid, ProjectID: mr.ProjectID, Title: mr.Title, Description: mr.Description,
		State: string(mr.State), CreatedAt: Time(mr.CreatedAt), UpdatedAt: Time(mr.UpdatedAt),
		MergeStatus: mergerequests.PublicMergeStatus(mr), Approved: v.Approved(),
		ApprovalsRequired: v.Required(), ApprovalsLeft: v.Left(),
		RequirePasswordToApprove: v.Project.RequirePasswordToApprove,
		ApprovedBy:               []Approval{}, SuggestedApprovers: []*UserBasic{}, Approvers: []any{}, ApproverGroups: []any{},
		UserHasApproved: v.HasApproved, UserCanApprove: v.CanApprove,
		ApprovalRulesLeft: []ApprovalRuleShort{}, MergeRequestApproversAvailable: true,
		MultipleApprovalRulesAvailable: true, InvalidApproversRules: []ApprovalRuleShort{},
	}
	for _, a := range v.Approvals {
		out.ApprovedBy = append(out.ApprovedBy, Approval{User: p.UserBasic(a.Edges.User)})
	}
	seen := map[int]bool{}
	for _, r := range v.Rules {
		if r.Rule.RuleType == approvalrule.RuleTypeRegular || r.Rule.RuleType == approvalrule.RuleTypeAnyApprover {
			out.HasApprovalRules = true
		}
		if r.Approved() {
			continue
		}
		out.ApprovalRulesLeft = append(out.ApprovalRulesLeft, approvalRuleShort(r.Rule))
		for _, u := range r.Eligible {
			if !seen[u.ID] && !v.ApprovedBy(u.ID) {
				seen[u.ID] = true
				out.SuggestedApprovers = append(out.SuggestedApprovers, p.UserBasic(u))
			}
		}
	}
	return out
}

func approvalRuleShort(r *ent.ApprovalRule) ApprovalRuleShort {
	return ApprovalRuleShort{ID: r.ID, Name: r.Name, RuleType: string(r.RuleType)}
}

// ApprovalRule is a rule's common fields (EE's Entities::ApprovalRule): its eligible
// approvers, users, the groups the caller may see and whether others are hidden.
type ApprovalRule struct {
	ApprovalRuleShort
	EligibleApprovers    []*UserBasic `json:"eligible_approvers"`
	ApprovalsRequired    int          `json:"approvals_required"`
	Users                []*UserBasic `json:"users"`
	Groups               []*Group     `json:"groups"`
	ContainsHiddenGroups bool         `json:"contains_hidden_groups"`
	ReportType           *string      `json:"report_type"`
}

// ProjectApprovalRule is a project's rule (EE's Entities::ProjectApprovalRule): GET, POST and
// PUT /projects/:id/approval_rules.
type ProjectApprovalRule struct {
	ApprovalRule
	ProtectedBranches             []ProtectedBranch `json:"protected_branches"`
	AppliesToAllProtectedBranches bool              `json:"applies_to_all_protected_branches"`
}

// SourceRule is the project rule a merge request rule was made from.
type SourceRule struct {
	ApprovalsRequired int `json:"approvals_required"`
}

// MergeRequestApprovalRule is a merge request's rule (EE's Entities::MergeRequestApprovalRule):
// .../merge_requests/:iid/approval_rules.
type MergeRequestApprovalRule struct {
	ApprovalRule
	Section    *string     `json:"section"`
	SourceRule *SourceRule `json:"source_rule"`
	Overridden bool        `json:"overridden"`
}

// ApprovalStateRule is a rule as GET .../approval_state shows it (EE's
// MergeRequestApprovalStateRule).
type ApprovalStateRule struct {
	MergeRequestApprovalRule
	CodeOwner  bool         `json:"code_owner"`
	ApprovedBy []*UserBasic `json:"approved_by"`
	Approved   bool         `json:"approved"`
}

// ApprovalStateResponse is GET .../approval_state.
type ApprovalStateResponse struct {
	ApprovalRulesOverwritten bool                 `json:"approval_rules_overwritten"`
	Rules                    []*ApprovalStateRule `json:"rules"`
}

// approvalRule renders a rule with its eligible approvers and the groups shown.
func (p *Presenter) approvalRule(r *ent.ApprovalRule, eligible []*ent.User, groups []*ent.Namespace, hidden bool) ApprovalRule {
	out := ApprovalRule{ApprovalRuleShort: approvalRuleShort(r), ApprovalsRequired: r.ApprovalsRequired,
		EligibleApprovers: p.UserBasics(eligible), Users: p.UserBasics(r.Edges.Users), Groups: []*Group{},
		ContainsHiddenGroups: hidden, ReportType: r.ReportType}
	if out.EligibleApprovers == nil {
		out.EligibleApprovers = []*UserBasic{}
	}
	if out.Users == nil {
		out.Users = []*UserBasic{}
	}
	for _, g := range groups {
		out.Groups = append(out.Groups, p.Group(g, GroupOptions{}))
	}
	return out
}

// ProjectApprovalRule renders a project's rule.
func (p *Presenter) ProjectApprovalRule(v *mergerequests.RuleView) *ProjectApprovalRule {
	return &ProjectApprovalRule{ApprovalRule: p.approvalRule(v.Rule, v.Eligible, v.Groups, v.HiddenGroups),
		ProtectedBranches:             p.ProtectedBranches(v.ProtectedBranches),
		AppliesToAllProtectedBranches: v.Rule.AppliesToAllProtectedBranches}
}

// ProjectApprovalRules renders a list of project rules.
func (p *Presenter) ProjectApprovalRules(vs []*mergerequests.RuleView) []*ProjectApprovalRule {
	out := make([]*ProjectApprovalRule, 0, len(vs))
	for _, v := range vs {
		out = append(out, p.ProjectApprovalRule(v))
	}
	return out
}

// MergeRequestApprovalRule renders a merge request's rule.
func (p *Presenter) MergeRequestApprovalRule(v *mergerequests.RuleView) *MergeRequestApprovalRule {
	return p.mergeRequestRule(v.Rule, p.approvalRule(v.Rule, v.Eligible, v.Groups, v.HiddenGroups), v)
}

// MergeRequestApprovalRules renders a list of merge request rules.
func (p *Presenter) MergeRequestApprovalRules(vs []*mergerequests.RuleView) []*MergeRequestApprovalRule {
	out := make([]*MergeRequestApprovalRule, 0, len(vs))
	for _, v := range vs {
		out = append(out, p.MergeRequestApprovalRule(v))
	}
	return out
}

// mergeRequestRule adds the merge request rule's fields: its section, source rule and whether
// it overrides it (a project rule has neither).
func (p *Presenter) mergeRequestRule(r *ent.ApprovalRule, base ApprovalRule, v *mergerequests.RuleView) *MergeRequestApprovalRule {
	out := &MergeRequestApprovalRule{ApprovalRule: base, Section: r.Section}
	if v != nil && v.SourceRule != nil && r.MergeRequestID != nil {
		out.SourceRule = &SourceRule{ApprovalsRequired: v.SourceRule.ApprovalsRequired}
		out.Overridden = v.Overridden()
	}
	return out
}

// ApprovalState renders a merge request's rules with their approvals.
func (p *Presenter) ApprovalState(st *mergerequests.ApprovalState) *ApprovalStateResponse {
	out := &ApprovalStateResponse{ApprovalRulesOverwritten: st.Overwritten, Rules: []*ApprovalStateRule{}}
	for _, rs := range st.Rules {
		r := rs.Rule
		sr := &ApprovalStateRule{
			MergeRequestApprovalRule: *p.mergeRequestRule(r, p.approvalRule(r, rs.Eligible, rs.Groups, rs.HiddenGroups), rs.View()),
			CodeOwner:                r.RuleType == approvalrule.RuleTypeCodeOwner, ApprovedBy: p.UserBasics(rs.ApprovedBy),
			Approved: rs.Approved()}
		if sr.ApprovedBy == nil {
			sr.ApprovedBy = []*UserBasic{}
		}
		out.Rules = append(out.Rules, sr)
	}
	return out
}

// ApprovalSettings is a project's approval configuration (GET/POST /projects/:id/approvals).
type ApprovalSettings struct {
	Approvers                                 []any `json:"approvers"`
	ApproverGroups                            []any `json:"approver_groups"`
	ApprovalsBeforeMerge                      int   `json:"approvals_before_merge"`
	ResetApprovalsOnPush                      bool  `json:"reset_approvals_on_push"`
	SelectiveCodeOwnerRemovals                bool  `json:"selective_code_owner_removals"`
	DisableOverridingApproversPerMergeRequest bool  `json:"disable_overriding_approvers_per_merge_request"`
	MergeRequestsAuthorApproval               bool  `json:"merge_requests_author_approval"`
	MergeRequestsDisableCommittersApproval    bool  `json:"merge_requests_disable_committers_approval"`
	RequirePasswordToApprove                  bool  `json:"require_password_to_approve"`
}

// ApprovalSettings renders a project's approval configuration; approvers and
// approver_groups are GitLab's deprecated fields, always empty.
func (p *Presenter) ApprovalSettings(proj *ent.Project) *ApprovalSettings {
	return &ApprovalSettings{Approvers: []any{}, ApproverGroups: []any{},
		ApprovalsBeforeMerge: proj.ApprovalsBeforeMerge, ResetApprovalsOnPush: proj.ResetApprovalsOnPush,
		SelectiveCodeOwnerRemovals:                proj.SelectiveCodeOwnerRemovals,
		DisableOverridingApproversPerMergeRequest: proj.DisableOverridingApproversPerMergeRequest,
		MergeRequestsAuthorApproval:               proj.MergeRequestsAuthorApproval,
		MergeRequestsDisableCommittersApproval:    proj.MergeRequestsDisableCommittersApproval,
		RequirePasswordToApprove:                  proj.RequirePasswordToApprove}
}
