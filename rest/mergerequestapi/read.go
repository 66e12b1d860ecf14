package mergerequestapi

import (
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// get handles GET /projects/:id/merge_requests/:merge_request_iid.
func (h *handlers) get(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	labelDetails := b.BoolDefault("with_labels_details", false)
	diverged := b.BoolDefault("include_diverged_commits_count", false)
	rebase := b.BoolDefault("include_rebase_in_progress", false)
	renderHTML := b.BoolDefault("render_html", false)
	if err := b.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	mr, level, err := h.mrs.Find(ctx, actor, httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), authz.ReadMergeRequest)
	if err != nil {
		return err
	}
	o, err := h.single(c, b, mr, level, labelDetails)
	if err != nil {
		return err
	}
	o.RenderHTML = renderHTML
	if diverged {
		n, err := h.mrs.DivergedCommitsCount(ctx, mr)
		if err != nil {
			return err
		}
		o.DivergedCommitsCount = &n
	}
	if rebase {
		inProgress := false
		o.RebaseInProgress = &inProgress
	}
	return httpx.OK(c, httpx.P(c).MergeRequest(mr, o))
}

// single are the presenter options of the single shape for mr, read by the actor at level.
func (h *handlers) single(c *gin.Context, _ *params.Binder, mr *ent.MergeRequest, level authz.Level, labelDetails bool) (presenter.MergeRequestOptions, error) {
	d, err := h.mrs.Details(c.Request.Context(), httpx.Actor(c), mr, level)
	if err != nil {
		return presenter.MergeRequestOptions{}, err
	}
	// The single read checks mergeability live (lists show the stored columns, as GitLab's do);
	// it updates mr's merge_status in place and finishes a merge a crash interrupted.
	m, err := h.mrs.CheckMergeability(c.Request.Context(), mr)
	if err != nil {
		return presenter.MergeRequestOptions{}, err
	}
	first := d.FirstContribution
	subscribed := d.Subscribed
	return presenter.MergeRequestOptions{
		LabelDetails: labelDetails, Subscribed: &subscribed, BuildsAvailable: d.BuildsAvailable,
		ReadPipeline: d.ReadPipeline, CanMerge: d.CanMerge, FirstContribution: &first,
		DetailedMergeStatus: m.DetailedMergeStatus, UnresolvedBlockingDiscussions: !m.BlockingDiscussionsResolved,
	}, nil
}
