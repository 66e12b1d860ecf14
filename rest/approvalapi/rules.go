package approvalapi

import (
	"anvil/internal/service/mergerequests"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

const (
	projectRules = "/projects/:id/approval_rules"
	mrRules      = mrPath + "/approval_rules"
)

// bindRule reads the body of a rule's creation or update. create requires name and
// approvals_required; project allows the project rule's fields, else the merge request rule's.
func bindRule(b *params.Binder, create, project bool) mergerequests.ApprovalRuleInput {
	if create {
		b.Require("name", "approvals_required")
	}
	in := mergerequests.ApprovalRuleInput{Name: b.String("name"), ApprovalsRequired: b.Int("approvals_required")}
	ints := func(names ...string) *[]int {
		for _, n := range names {
			if b.Has(n) {
				v := b.Ints(n)
				if v == nil {
					v = []int{}
				}
				return &v
			}
		}
		return nil
	}
	in.UserIDs = ints("user_ids", "users")
	in.GroupIDs = ints("group_ids", "groups")
	if b.Has("usernames") {
		v := b.Strings("usernames")
		if v == nil {
			v = []string{}
		}
		in.Usernames = &v
	}
	if !create {
		in.RemoveHiddenGroups = b.BoolDefault("remove_hidden_groups", false)
	}
	if project {
		if create {
			in.RuleType = b.String("rule_type")
			in.ReportType = b.String("report_type")
		}
		in.ProtectedBranchIDs = ints("protected_branch_ids")
		in.AppliesToAllProtectedBranches = b.Bool("applies_to_all_protected_branches")
	} else if create {
		in.ApprovalProjectRuleID = b.Int("approval_project_rule_id")
	}
	return in
}

// listProjectRules handles GET /projects/:id/approval_rules (page, per_page).
func (h *handlers) listProjectRules(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.approvals.ProjectRules(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).ProjectApprovalRules(r.Items))
}

// getProjectRule handles GET /projects/:id/approval_rules/:approval_rule_id.
func (h *handlers) getProjectRule(c *gin.Context) error {
	v, err := h.approvals.ProjectRule(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "approval_rule_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ProjectApprovalRule(v))
}

// createProjectRule handles POST /projects/:id/approval_rules: 201 with the rule.
func (h *handlers) createProjectRule(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindRule(b, true, true)
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.approvals.CreateProjectRule(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).ProjectApprovalRule(v))
}

// updateProjectRule handles PUT /projects/:id/approval_rules/:approval_rule_id.
func (h *handlers) updateProjectRule(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindRule(b, false, true)
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.approvals.UpdateProjectRule(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "approval_rule_id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ProjectApprovalRule(v))
}

// deleteProjectRule handles DELETE /projects/:id/approval_rules/:approval_rule_id: 204.
func (h *handlers) deleteProjectRule(c *gin.Context) error {
	if err := h.approvals.DeleteProjectRule(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "approval_rule_id")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// listMergeRequestRules handles GET .../merge_requests/:iid/approval_rules (page, per_page).
func (h *handlers) listMergeRequestRules(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	ref, iid := mr(c)
	r, err := h.approvals.MergeRequestRules(c.Request.Context(), httpx.Actor(c), ref, iid, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequestApprovalRules(r.Items))
}

// getMergeRequestRule handles GET .../merge_requests/:iid/approval_rules/:approval_rule_id.
func (h *handlers) getMergeRequestRule(c *gin.Context) error {
	ref, iid := mr(c)
	v, err := h.approvals.MergeRequestRule(c.Request.Context(), httpx.Actor(c), ref, iid, httpx.PathParam(c, "approval_rule_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeRequestApprovalRule(v))
}

// createMergeRequestRule handles POST .../merge_requests/:iid/approval_rules: 201.
func (h *handlers) createMergeRequestRule(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindRule(b, true, false)
	if err := b.Err(); err != nil {
		return err
	}
	ref, iid := mr(c)
	v, err := h.approvals.CreateMergeRequestRule(c.Request.Context(), httpx.Actor(c), ref, iid, in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).MergeRequestApprovalRule(v))
}

// updateMergeRequestRule handles PUT .../merge_requests/:iid/approval_rules/:approval_rule_id.
func (h *handlers) updateMergeRequestRule(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindRule(b, false, false)
	if err := b.Err(); err != nil {
		return err
	}
	ref, iid := mr(c)
	v, err := h.approvals.UpdateMergeRequestRule(c.Request.Context(), httpx.Actor(c), ref, iid,
		httpx.PathParam(c, "approval_rule_id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeRequestApprovalRule(v))
}

// deleteMergeRequestRule handles DELETE .../merge_requests/:iid/approval_rules/:approval_rule_id: 204.
func (h *handlers) deleteMergeRequestRule(c *gin.Context) error {
	ref, iid := mr(c)
	if err := h.approvals.DeleteMergeRequestRule(c.Request.Context(), httpx.Actor(c), ref, iid,
		httpx.PathParam(c, "approval_rule_id")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
