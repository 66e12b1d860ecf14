package mergerequestapi

import (
	"net/http"

	"anvil/internal/service/mergerequests"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// registerMerge adds the routes that merge a merge request, rebase it, read its merge ref and
// cancel its auto-merge.
func (h *handlers) registerMerge(t *route.Table) {
	t.PUT("/projects/:id/merge_requests/:merge_request_iid/merge", h.merge, route.SignedIn)
	t.PUT("/projects/:id/merge_requests/:merge_request_iid/rebase", h.rebase, route.SignedIn)
	t.GET("/projects/:id/merge_requests/:merge_request_iid/merge_ref", h.mergeRef)
	t.POST("/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds", h.cancelAutoMerge, route.SignedIn)
}

// merge handles PUT /projects/:id/merge_requests/:merge_request_iid/merge.
func (h *handlers) merge(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := mergerequests.MergeInput{
		MergeCommitMessage: b.String("merge_commit_message"), SquashCommitMessage: b.String("squash_commit_message"),
		Squash: b.Bool("squash"), ShouldRemoveSourceBranch: b.Bool("should_remove_source_branch"),
		MergeWhenPipelineSucceeds: b.Bool("merge_when_pipeline_succeeds"), AutoMerge: b.Bool("auto_merge"),
		SHA: b.String("sha"),
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	mr, level, err := h.mrs.Merge(ctx, actor, httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), in)
	if err != nil {
		return err
	}
	o, err := h.single(c, b, mr, level, false)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeRequest(mr, o))
}

// rebase handles PUT /projects/:id/merge_requests/:merge_request_iid/rebase: 202
// {"rebase_in_progress": true}, as GitLab answers once the rebase is queued.
func (h *handlers) rebase(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	skipCI := b.BoolDefault("skip_ci", false)
	if err := b.Err(); err != nil {
		return err
	}
	if err := h.mrs.Rebase(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), skipCI); err != nil {
		return err
	}
	httpx.JSON(c, http.StatusAccepted, gin.H{"rebase_in_progress": true})
	return nil
}

// mergeRef handles GET /projects/:id/merge_requests/:merge_request_iid/merge_ref.
func (h *handlers) mergeRef(c *gin.Context) error {
	id, err := h.mrs.MergeRef(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"))
	if err != nil {
		return err
	}
	return httpx.OK(c, gin.H{"commit_id": id})
}

// cancelAutoMerge handles POST
// /projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds.
func (h *handlers) cancelAutoMerge(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	mr, level, err := h.mrs.CancelAutoMerge(ctx, actor, httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"))
	if err != nil {
		return err
	}
	o, err := h.single(c, b, mr, level, false)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).MergeRequest(mr, o))
}
