package presenter

import "anvil/internal/service/mergerequests"

// MergeRequestBlock is GitLab's merge request dependency entity: each side in the merge
// request list shape, absent when the caller may not read it.
type MergeRequestBlock struct {
	ID                   int                `json:"id"`
	BlockingMergeRequest *MergeRequestBasic `json:"blocking_merge_request,omitempty"`
	BlockedMergeRequest  *MergeRequestBasic `json:"blocked_merge_request,omitempty"`
	ProjectID            int                `json:"project_id"`
}

// MergeRequestBlock renders a block as the caller sees it.
func (p *Presenter) MergeRequestBlock(b *mergerequests.Block) *MergeRequestBlock {
	out := &MergeRequestBlock{ID: b.Row.ID, ProjectID: b.ProjectID}
	if b.Blocking != nil {
		out.BlockingMergeRequest = p.MergeRequestBasic(b.Blocking, MergeRequestOptions{})
	}
	if b.Blocked != nil {
		out.BlockedMergeRequest = p.MergeRequestBasic(b.Blocked, MergeRequestOptions{})
	}
	return out
}

// MergeRequestBlocks renders a page of blocks.
func (p *Presenter) MergeRequestBlocks(list []*mergerequests.Block) []*MergeRequestBlock {
	out := make([]*MergeRequestBlock, 0, len(list))
	for _, b := range list {
		out = append(out, p.MergeRequestBlock(b))
	}
	return out
}

// MergeRequestPipeline is a merge request pipeline in the list form.
type MergeRequestPipeline struct {
	ID     int    `json:"id"`
	SHA    string `json:"sha"`
	Ref    string `json:"ref"`
	Status string `json:"status"`
}

// MergeRequestPipelines renders a page of merge request pipelines.
func (p *Presenter) MergeRequestPipelines(list []*mergerequests.Pipeline) []*MergeRequestPipeline {
	out := make([]*MergeRequestPipeline, 0, len(list))
	for _, pl := range list {
		out = append(out, &MergeRequestPipeline{ID: pl.ID, SHA: pl.SHA, Ref: pl.Ref, Status: pl.Status})
	}
	return out
}
