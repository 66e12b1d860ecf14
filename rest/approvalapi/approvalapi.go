// Package approvalapi serves merge request approvals (GitLab Premium): a project's approval
// settings (/projects/:id/approvals) and approval rules, a merge request's approvals, approval
// state and approval rules, and approving, unapproving and resetting approvals.
package approvalapi

import (
	"net/http"

	"anvil/internal/service/mergerequests"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ approvals *mergerequests.Approvals }

const mrPath = "/projects/:id/merge_requests/:merge_request_iid"

// Register adds the approval routes.
func Register(t *route.Table) {
	h := &handlers{approvals: t.S.Approvals}
	t.GET("/projects/:id/approvals", h.settings, route.SignedIn)
	t.POST("/projects/:id/approvals", h.updateSettings, route.SignedIn)
	t.GET(mrPath+"/approvals", h.view)
	t.GET(mrPath+"/approval_state", h.state)
	t.POST(mrPath+"/approve", h.approve, route.SignedIn)
	t.POST(mrPath+"/unapprove", h.unapprove, route.SignedIn)
	t.PUT(mrPath+"/reset_approvals", h.reset, route.SignedIn)
	// Approval rules: a project's (signed in, as GitLab's authenticate!) and a merge
	// request's (reads open to its readers, as authenticate_non_get!).
	t.GET(projectRules, h.listProjectRules, route.SignedIn)
	t.POST(projectRules, h.createProjectRule, route.SignedIn)
	t.GET(projectRules+"/:approval_rule_id", h.getProjectRule, route.SignedIn)
	t.PUT(projectRules+"/:approval_rule_id", h.updateProjectRule, route.SignedIn)
	t.DELETE(projectRules+"/:approval_rule_id", h.deleteProjectRule, route.SignedIn)
	t.GET(mrRules, h.listMergeRequestRules)
	t.POST(mrRules, h.createMergeRequestRule, route.SignedIn)
	t.GET(mrRules+"/:approval_rule_id", h.getMergeRequestRule)
	t.PUT(mrRules+"/:approval_rule_id", h.updateMergeRequestRule, route.SignedIn)
	t.DELETE(mrRules+"/:approval_rule_id", h.deleteMergeRequestRule, route.SignedIn)
}

func mr(c *gin.Context) (string, string) {
	return httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid")
}

// settings handles GET /projects/:id/approvals.
func (h *handlers) settings(c *gin.Context) error {
	p, err := h.approvals.ApprovalSettings(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ApprovalSettings(p))
}

// updateSettings handles POST /projects/:id/approvals: 201 with the settings.
func (h *handlers) updateSettings(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := mergerequests.ApprovalSettingsInput{
		ApprovalsBeforeMerge: b.Int("approvals_before_merge"), ResetApprovalsOnPush: b.Bool("reset_approvals_on_push"),
		SelectiveCodeOwnerRemovals:                b.Bool("selective_code_owner_removals"),
		DisableOverridingApproversPerMergeRequest: b.Bool("disable_overriding_approvers_per_merge_request"),
		MergeRequestsAuthorApproval:               b.Bool("merge_requests_author_approval"),
		MergeRequestsDisableCommittersApproval:    b.Bool("merge_requests_disable_committers_approval"),
		RequirePasswordToApprove:                  b.Bool("require_password_to_approve"),
	}
	if err := b.Err(); err != nil {
		return err
	}
	p, err := h.approvals.UpdateApprovalSettings(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).ApprovalSettings(p))
}

// view handles GET .../approvals.
func (h *handlers) view(c *gin.Context) error {
	ref, iid := mr(c)
	v, err := h.approvals.View(c.Request.Context(), httpx.Actor(c), ref, iid)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeRequestApprovals(v))
}

// state handles GET .../approval_state.
func (h *handlers) state(c *gin.Context) error {
	ref, iid := mr(c)
	st, err := h.approvals.ApprovalStateOf(c.Request.Context(), httpx.Actor(c), ref, iid)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ApprovalState(st))
}

// approve handles POST .../approve (sha, approval_password): 201.
func (h *handlers) approve(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := mergerequests.ApproveInput{SHA: b.String("sha"), Password: b.String("approval_password")}
	if err := b.Err(); err != nil {
		return err
	}
	ref, iid := mr(c)
	v, err := h.approvals.Approve(c.Request.Context(), httpx.Actor(c), ref, iid, in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).MergeRequestApprovals(v))
}

// unapprove handles POST .../unapprove: 201.
func (h *handlers) unapprove(c *gin.Context) error {
	ref, iid := mr(c)
	v, err := h.approvals.Unapprove(c.Request.Context(), httpx.Actor(c), ref, iid)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).MergeRequestApprovals(v))
}

// reset handles PUT .../reset_approvals: 202 Accepted, no body.
func (h *handlers) reset(c *gin.Context) error {
	ref, iid := mr(c)
	if err := h.approvals.ResetApprovals(c.Request.Context(), httpx.Actor(c), ref, iid); err != nil {
		return err
	}
	c.Status(http.StatusAccepted)
	c.Writer.WriteHeaderNow()
	return nil
}
