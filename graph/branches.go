package graph

import (
	"context"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/pagination"
	"anvil/internal/service/branches"
	"anvil/internal/service/refs"
)

// branchList is Repository.branches: the branch listing of GET .../repository/branches, paged
// by keyset. A cursor is the name of a page's last branch, so pages hold steady while branches
// come and go before them.
func (r *Resolver) branchList(ctx context.Context, repo *model.Repository, search string, first *int, after *ent.Cursor) (*model.BranchConnection, error) {
	if first != nil && *first < 0 {
		return nil, badInput("first must be non-negative")
	}
	size, _ := page(first, nil)
	pg := pagination.Page{Offset: pagination.Offset{Page: 1, PerPage: *size + 1}, Keyset: true}
	if after != nil {
		token, _ := after.Value.(string)
		pg.Cursor = map[string]string{refs.PageToken: token}
	}
	conn := &model.BranchConnection{Edges: []*model.BranchEdge{}, Nodes: []*model.Branch{}, PageInfo: &ent.PageInfo{HasPreviousPage: after != nil}}
	if !r.svc.Repos.Exists(repo.Project) {
		return conn, nil
	}
	res, _, err := r.svc.Branches.List(ctx, actor(ctx), branches.ListParams{Project: repoRef(repo), Search: search}, branches.Order{}, pg)
	if err != nil {
		return nil, err
	}
	items := res.Items
	if len(items) > *size {
		items, conn.PageInfo.HasNextPage = items[:*size], true
	}
	for i, b := range items {
		cursor := ent.Cursor{Value: b.Name}
		if i == 0 {
			conn.PageInfo.StartCursor = &cursor
		}
		conn.PageInfo.EndCursor = &cursor
		n := r.branchOf(repo, b)
		conn.Nodes = append(conn.Nodes, n)
		conn.Edges = append(conn.Edges, &model.BranchEdge{Cursor: cursor, Node: n})
	}
	return conn, nil
}

// branchOf presents a branch with its flags for the caller.
func (r *Resolver) branchOf(repo *model.Repository, b branches.Branch) *model.Branch {
	out := &model.Branch{
		Name: b.Name, Merged: b.Merged, Protected: b.Protected, Default: b.Default,
		DevelopersCanPush: b.DevelopersCanPush, DevelopersCanMerge: b.DevelopersCanMerge, CanPush: b.CanPush,
		WebURL: r.baseURL + webPath(repo, "tree", b.Name, ""),
	}
	if b.Commit != nil {
		out.Commit = r.commitOf(repo, b.Commit)
	}
	return out
}
