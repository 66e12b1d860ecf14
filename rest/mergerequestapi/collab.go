package mergerequestapi

import (
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// registerCollab adds a merge request's dependencies (blocks, blockees) and pipelines.
func (h *handlers) registerCollab(t *route.Table) {
	const mr = "/projects/:id/merge_requests/:merge_request_iid"
	t.GET(mr+"/blocks", h.blocks(false))
	t.GET(mr+"/blockees", h.blocks(true))
	t.GET(mr+"/blocks/:block_id", h.block)
	t.POST(mr+"/blocks", h.addBlock, route.SignedIn)
	t.DELETE(mr+"/blocks/:block_id", h.removeBlock, route.SignedIn)
	t.GET(mr+"/pipelines", h.pipelines)
	t.POST(mr+"/pipelines", h.createPipeline, route.SignedIn)
}

// blocks handles GET .../blocks (the merge requests blocking this one) and GET .../blockees
// (those it blocks).
func (h *handlers) blocks(blockees bool) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		page := httpx.Offset(b)
		if err := b.Err(); err != nil {
			return err
		}
		r, err := h.mrs.Blocks(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), blockees, page)
		if err != nil {
			return err
		}
		return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequestBlocks(r.Items))
	}
}

// block handles GET .../blocks/:block_id.
func (h *handlers) block(c *gin.Context) error {
	bl, err := h.mrs.Block(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), httpx.PathParam(c, "block_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeRequestBlock(bl))
}

// addBlock handles POST .../blocks (blocking_merge_request_id: the blocker's global id).
func (h *handlers) addBlock(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("blocking_merge_request_id")
	id := b.Int("blocking_merge_request_id")
	if err := b.Err(); err != nil {
		return err
	}
	bl, err := h.mrs.AddBlock(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), *id)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).MergeRequestBlock(bl))
}

// removeBlock handles DELETE .../blocks/:block_id: 204.
func (h *handlers) removeBlock(c *gin.Context) error {
	if err := h.mrs.RemoveBlock(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), httpx.PathParam(c, "block_id")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// pipelines handles GET .../pipelines: paginated, empty until CI exists.
func (h *handlers) pipelines(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.mrs.Pipelines(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequestPipelines(r.Items))
}

// createPipeline handles POST .../pipelines: refused while no CI configuration can exist.
func (h *handlers) createPipeline(c *gin.Context) error {
	_, err := h.mrs.CreatePipeline(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"))
	return err
}
