package mergerequests

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestblock"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// Block is a merge request dependency as the caller sees it (GitLab's MergeRequestDependencies
// API): the merge requests on either side, each nil when the caller may not read it.
type Block struct {
	Row      *ent.MergeRequestBlock
	Blocking *ent.MergeRequest
	Blocked  *ent.MergeRequest
	// ProjectID is the blocking merge request's project (GitLab's block project_id).
	ProjectID int
}

// Blocks lists the blocks of the merge request iid of project ref (those that must merge before
// it: GET .../blocks), or with blockees the blocks it is the blocker of (GET .../blockees),
// oldest first; a merge request on the other side the caller may not read is left out of its
// block.
func (s *Service) Blocks(ctx context.Context, actor *authz.Actor, ref, iid string, blockees bool, page pagination.Offset) (pagination.Result[*Block], error) {
	res := pagination.Result[*Block]{Page: page}
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return res, err
	}
	q := db.ClientFrom(ctx, s.client).MergeRequestBlock.Query()
	if blockees {
		q.Where(mergerequestblock.BlockingMergeRequestID(mr.ID))
	} else {
		q.Where(mergerequestblock.BlockedMergeRequestID(mr.ID))
	}
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	rows, err := q.Order(mergerequestblock.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, err = s.blocksFor(ctx, actor, rows)
	return res, err
}

// Block returns the block id of the merge request iid of project ref (GET .../blocks/:block_id):
// 404 Not found for one it does not have.
func (s *Service) Block(ctx context.Context, actor *authz.Actor, ref, iid, id string) (*Block, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	row, err := s.blockOf(ctx, mr, id)
	if err != nil {
		return nil, err
	}
	out, err := s.blocksFor(ctx, actor, []*ent.MergeRequestBlock{row})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// AddBlock makes the merge request whose global id is blockingID block the merge request iid
// of project ref (POST .../blocks): the caller updates the blocked merge request (a reader who
// may not is 403, one who cannot read it 404 Not found) and reads the blocking one (403
// "Lacking permissions to the blocking merge request"); an existing block is 409 "Block already
// exists"; a self-reference or a chain is 400, as GitLab's MergeRequestBlock validations.
func (s *Service) AddBlock(ctx context.Context, actor *authz.Actor, ref, iid string, blockingID int) (*Block, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.UpdateMergeRequest)
	if apperr.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, err
	}
	blocking, err := s.readable(ctx, actor, blockingID)
	if err != nil {
		return nil, err
	}
	if blocking == nil {
		return nil, apperr.ForbiddenMessage("Lacking permissions to the blocking merge request")
	}
	var id int
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		exists, err := c.MergeRequestBlock.Query().Where(mergerequestblock.BlockingMergeRequestID(blocking.ID),
			mergerequestblock.BlockedMergeRequestID(mr.ID)).Exist(ctx)
		if err != nil {
			return err
		}
		if exists {
			return apperr.Conflict("Block already exists")
		}
		if blocking.ID == mr.ID {
			return apperr.Refused("This block is self-referential")
		}
		// No chains: the blocker is blocked by nothing, and the blocked merge request blocks
		// nothing.
		chained, err := c.MergeRequestBlock.Query().Where(mergerequestblock.Or(
			mergerequestblock.BlockedMergeRequestID(blocking.ID), mergerequestblock.BlockingMergeRequestID(mr.ID))).Exist(ctx)
		if err != nil {
			return err
		}
		if chained {
			return apperr.Refused("Dependency chains are not supported")
		}
		row, err := c.MergeRequestBlock.Create().SetBlockingMergeRequestID(blocking.ID).SetBlockedMergeRequestID(mr.ID).Save(ctx)
		if ent.IsConstraintError(err) {
			return apperr.Conflict("Block already exists")
		}
		if err != nil {
			return err
		}
		id = row.ID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Block(ctx, actor, ref, iid, strconv.Itoa(id))
}

// RemoveBlock deletes the block id of the merge request iid of project ref (DELETE
// .../blocks/:block_id): the caller updates the merge request and reads the blocking one (403
// otherwise); 404 for a block the merge request does not have.
func (s *Service) RemoveBlock(ctx context.Context, actor *authz.Actor, ref, iid, id string) error {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return err
	}
	row, err := s.blockOf(ctx, mr, id)
	if err != nil {
		return err
	}
	if _, _, err := s.Find(ctx, actor, ref, iid, authz.UpdateMergeRequest); err != nil {
		return err
	}
	blocking, err := s.readable(ctx, actor, row.BlockingMergeRequestID)
	if err != nil {
		return err
	}
	if blocking == nil {
		return apperr.Forbidden("")
	}
	return db.ClientFrom(ctx, s.client).MergeRequestBlock.DeleteOneID(row.ID).Exec(ctx)
}

// blockOf reads the block id of mr (blocked by it): 404 Not found otherwise.
func (s *Service) blockOf(ctx context.Context, mr *ent.MergeRequest, id string) (*ent.MergeRequestBlock, error) {
	n, err := strconv.Atoi(id)
	if err != nil {
		return nil, apperr.RecordNotFound()
	}
	row, err := db.ClientFrom(ctx, s.client).MergeRequestBlock.Query().
		Where(mergerequestblock.ID(n), mergerequestblock.BlockedMergeRequestID(mr.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return row, err
}

// blocksFor reads both sides of rows, keeping those the actor reads.
func (s *Service) blocksFor(ctx context.Context, actor *authz.Actor, rows []*ent.MergeRequestBlock) ([]*Block, error) {
	var ids []int
	for _, r := range rows {
		ids = append(ids, r.BlockingMergeRequestID, r.BlockedMergeRequestID)
	}
	mrs, err := Load(db.ClientFrom(ctx, s.client).MergeRequest.Query().Where(mergerequest.IDIn(ids...))).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int]*ent.MergeRequest{}
	levels := map[int]authz.Level{}
	for _, mr := range mrs {
		proj := mr.Edges.Project
		level, ok := levels[proj.ID]
		if !ok {
			var readable bool
			if level, readable, err = s.policy.ProjectLevel(ctx, actor, proj); err != nil {
				return nil, err
			}
			if !readable {
				level = authz.NoAccess
			}
			levels[proj.ID] = level
		}
		if level != authz.NoAccess && authz.CanProject(actor, proj, level, authz.ReadMergeRequest) || actor.IsAdmin() {
			byID[mr.ID] = mr
		}
	}
	out := make([]*Block, 0, len(rows))
	for _, r := range rows {
		b := &Block{Row: r, Blocking: byID[r.BlockingMergeRequestID], Blocked: byID[r.BlockedMergeRequestID]}
		for _, mr := range mrs {
			if mr.ID == r.BlockingMergeRequestID {
				b.ProjectID = mr.ProjectID
			}
		}
		out = append(out, b)
	}
	return out, nil
}

// readable reads the merge request id (loaded) if the actor may read it, nil otherwise.
func (s *Service) readable(ctx context.Context, actor *authz.Actor, id int) (*ent.MergeRequest, error) {
	mr, err := Load(db.ClientFrom(ctx, s.client).MergeRequest.Query().Where(mergerequest.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out, err := s.blocksFor(ctx, actor, []*ent.MergeRequestBlock{{BlockingMergeRequestID: mr.ID, BlockedMergeRequestID: mr.ID}})
	if err != nil {
		return nil, err
	}
	return out[0].Blocking, nil
}
