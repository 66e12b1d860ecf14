package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// ApprovalSettingsInput is POST /projects/:id/approvals; nil fields are left alone.
type ApprovalSettingsInput struct {
	ApprovalsBeforeMerge                      *int
	ResetApprovalsOnPush                      *bool
	SelectiveCodeOwnerRemovals                *bool
	DisableOverridingApproversPerMergeRequest *bool
	MergeRequestsAuthorApproval               *bool
	MergeRequestsDisableCommittersApproval    *bool
	RequirePasswordToApprove                  *bool
}

// ApprovalSettings returns a project's approval configuration (GET /projects/:id/approvals):
// those who may change approvers (admin_project) only.
func (a *Approvals) ApprovalSettings(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, error) {
	return a.mrs.projects.Find(ctx, actor, ref, authz.AdminProject)
}

// UpdateApprovalSettings changes a project's approval configuration (POST
// /projects/:id/approvals). selective_code_owner_removals needs reset_approvals_on_push off.
func (a *Approvals) UpdateApprovalSettings(ctx context.Context, actor *authz.Actor, ref string, in ApprovalSettingsInput) (*ent.Project, error) {
	proj, err := a.mrs.projects.Find(ctx, actor, ref, authz.AdminProject)
	if err != nil {
		return nil, err
	}
	if in.ApprovalsBeforeMerge != nil && *in.ApprovalsBeforeMerge < 0 {
		return nil, apperr.FieldError("approvals_before_merge", "must be greater than or equal to 0")
	}
	reset := proj.ResetApprovalsOnPush
	if in.ResetApprovalsOnPush != nil {
		reset = *in.ResetApprovalsOnPush
	}
	if in.SelectiveCodeOwnerRemovals != nil && *in.SelectiveCodeOwnerRemovals && reset {
		return nil, apperr.FieldError("selective_code_owner_removals", "can only be enabled when reset_approvals_on_push is disabled")
	}
	err = db.ClientFrom(ctx, a.mrs.client).Project.UpdateOneID(proj.ID).
		SetNillableApprovalsBeforeMerge(in.ApprovalsBeforeMerge).
		SetNillableResetApprovalsOnPush(in.ResetApprovalsOnPush).
		SetNillableSelectiveCodeOwnerRemovals(in.SelectiveCodeOwnerRemovals).
		SetNillableDisableOverridingApproversPerMergeRequest(in.DisableOverridingApproversPerMergeRequest).
		SetNillableMergeRequestsAuthorApproval(in.MergeRequestsAuthorApproval).
		SetNillableMergeRequestsDisableCommittersApproval(in.MergeRequestsDisableCommittersApproval).
		SetNillableRequirePasswordToApprove(in.RequirePasswordToApprove).Exec(ctx)
	if err != nil {
		return nil, err
	}
	return db.ClientFrom(ctx, a.mrs.client).Project.Get(ctx, proj.ID)
}

// ApprovalStateOf returns the approval state of a merge request the actor reads (GET
// .../approval_state).
func (a *Approvals) ApprovalStateOf(ctx context.Context, actor *authz.Actor, ref, iid string) (*ApprovalState, error) {
	_, _, st, err := a.find(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	for _, r := range st.Rules {
		var hidden []*ent.Namespace
		if r.Groups, hidden, err = a.splitGroups(ctx, actor, r.Rule.Edges.Groups); err != nil {
			return nil, err
		}
		r.HiddenGroups = len(hidden) > 0
		if r.HiddenGroups {
			show, err := a.showsApprovers(ctx, actor, st.Project)
			if err != nil {
				return nil, err
			}
			if !show {
				r.Eligible = nil // shown empty; the state was computed with them
			}
		}
	}
	return st, nil
}
