package graph

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/apperr"
	"anvil/internal/git"
	"anvil/internal/pagination"
	"anvil/internal/service/repofiles"
)

// wholeDirectory is a page size no directory reaches: the tree field lists a whole directory,
// as GitLab's does, and its connections page over it in memory.
const wholeDirectory = 1 << 30

// Global id model names of tree entries, as GitLab decorates them.
const (
	gidTreeEntry      = "Gitlab::Graphql::Representation::TreeEntry"
	gidSubmoduleEntry = "Gitlab::Graphql::Representation::SubmoduleTreeEntry"
)

// treeAt resolves the commit a tree is read at, without its entries: ref (qualified by
// refType), or HEAD's commit when no ref is given. It returns null when the repository does
// not exist or has no commit at HEAD (an empty repository), and a tree without commit, which
// lists nothing, when ref names no commit: GitLab's tree answers an unknown ref with an empty
// tree.
func (r *Resolver) treeAt(ctx context.Context, repo *model.Repository, dir string, ref *string, refType *model.RefType, recursive bool) (*model.Tree, error) {
	head, exists, err := r.svc.Repos.RootRef(ctx, repo.Project)
	if err != nil || !exists {
		return nil, err
	}
	t := &model.Tree{Repository: repo, Path: strings.Trim(dir, "/"), Recursive: recursive}
	rev := qualifiedRef(ref, refType)
	if rev == "" {
		rev = head
	} else {
		t.Ref = *ref
	}
	d, err := orNull(r.svc.Commits.Get(ctx, actor(ctx), repoRef(repo), rev, false))
	switch {
	case err != nil:
		return nil, err
	case d == nil && t.Ref == "":
		return nil, nil
	case d == nil:
		return t, nil
	}
	t.Commit = d.Commit.ID
	if t.Ref == "" {
		t.Ref = string(d.Commit.ID)
	}
	return t, nil
}

// tree is Repository.tree: the whole directory at the commit.
func (r *Resolver) tree(ctx context.Context, repo *model.Repository, dir string, ref *string, refType *model.RefType, recursive bool) (*model.Tree, error) {
	t, err := r.treeAt(ctx, repo, dir, ref, refType, recursive)
	if err != nil || t == nil || t.Commit == "" {
		return t, err
	}
	p := repofiles.TreeParams{Ref: string(t.Commit), Path: t.Path, Recursive: recursive,
		Pagination: repofiles.TreeLegacy, Page: pagination.Offset{Page: 1, PerPage: wholeDirectory}}
	if recursive {
		p.Pagination = repofiles.TreeNone
	}
	t.Entries, err = r.treeEntries(ctx, repo, p)
	return t, err
}

// treeEntries lists a directory through the repository contents service (GET
// .../repository/tree); a path that is not a directory lists nothing, as GitLab's tree does.
func (r *Resolver) treeEntries(ctx context.Context, repo *model.Repository, p repofiles.TreeParams) ([]git.TreeEntry, error) {
	res, err := r.files.Tree(ctx, actor(ctx), repoRef(repo), p)
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	return res.Items, err
}

// paginatedTree is Repository.paginatedTree: one tree per page, each holding up to first
// entries, continued by the page token of the listing (GET .../repository/tree with
// pagination=keyset). Only forward paging exists, as in GitLab.
func (r *Resolver) paginatedTree(ctx context.Context, repo *model.Repository, dir string, ref *string, refType *model.RefType, recursive bool, after *ent.Cursor, first *int) (*model.TreeConnection, error) {
	if first != nil && *first < 0 {
		return nil, badInput("first must be non-negative")
	}
	conn := &model.TreeConnection{Edges: []*model.TreeEdge{}, Nodes: []*model.Tree{}, PageInfo: &ent.PageInfo{}}
	size, _ := page(first, nil)
	if *size == 0 {
		return conn, nil
	}
	t, err := r.treeAt(ctx, repo, dir, ref, refType, recursive)
	if err != nil || t == nil {
		return conn, err
	}
	token := ""
	if after != nil {
		token, _ = after.Value.(string)
		conn.PageInfo.StartCursor, conn.PageInfo.HasPreviousPage = after, true
	}
	if t.Commit != "" {
		res, err := r.files.Tree(ctx, actor(ctx), repoRef(repo), repofiles.TreeParams{
			Ref: string(t.Commit), Path: t.Path, Recursive: recursive, Pagination: repofiles.TreeKeyset,
			Page: pagination.Offset{Page: 1, PerPage: *size}, PageToken: token,
		})
		if err != nil && !apperr.IsNotFound(err) {
			return nil, err
		}
		t.Entries = res.Items
		if next := res.Next["page_token"]; next != "" {
			end := ent.Cursor{Value: next}
			conn.PageInfo.EndCursor, conn.PageInfo.HasNextPage = &end, true
		}
	}
	cursor := ent.Cursor{Value: token}
	if conn.PageInfo.EndCursor != nil {
		cursor = *conn.PageInfo.EndCursor
	}
	conn.Nodes = append(conn.Nodes, t)
	conn.Edges = append(conn.Edges, &model.TreeEdge{Cursor: cursor, Node: t})
	return conn, nil
}

// lastCommit is Tree.lastCommit: the newest commit at the tree's commit that changed its path
// (the commit itself for the root), through the commit service (cached per commit and path).
func (r *Resolver) lastCommit(ctx context.Context, t *model.Tree) (*model.Commit, error) {
	if t.Commit == "" {
		return nil, nil
	}
	c, err := r.svc.Commits.LastCommit(ctx, actor(ctx), repoRef(t.Repository), string(t.Commit), t.Path)
	if isClientError(err) {
		return nil, nil
	}
	if err != nil || c == nil {
		return nil, err
	}
	return r.commitOf(t.Repository, c), nil
}

// entriesOf keeps a tree's entries of one type.
func entriesOf(t *model.Tree, typ git.ObjectType) []git.TreeEntry {
	var out []git.TreeEntry
	for _, e := range t.Entries {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// treeEntryConnection is Tree.trees.
func (r *Resolver) treeEntryConnection(ctx context.Context, t *model.Tree, after, before *ent.Cursor, first, last *int) (*model.TreeEntryConnection, error) {
	entries := entriesOf(t, git.TypeTree)
	w, err := arrayWindow(len(entries), after, before, first, last)
	if err != nil {
		return nil, err
	}
	flat := map[string]string{}
	if !t.Recursive && w.end > w.start && nodeSelects(ctx, "flatPath") {
		if flat, err = r.flatPaths(ctx, t); err != nil {
			return nil, err
		}
	}
	conn := &model.TreeEntryConnection{Edges: []*model.TreeEntryEdge{}, Nodes: []*model.TreeEntry{}, PageInfo: w.pageInfo()}
	for i := w.start; i < w.end; i++ {
		e := entries[i]
		url, webPath := r.entryURLs(t, "tree", e.Path)
		n := &model.TreeEntry{ID: formatEntryGID(gidTreeEntry, e.ID), Sha: string(e.ID), Name: e.Name, Type: model.EntryTypeTree,
			Path: e.Path, FlatPath: e.Path, WebURL: &url, WebPath: &webPath}
		if f := flat[e.Path]; f != "" {
			n.FlatPath = f
		}
		conn.Nodes = append(conn.Nodes, n)
		conn.Edges = append(conn.Edges, &model.TreeEntryEdge{Cursor: cursorAt(i), Node: n})
	}
	return conn, nil
}

// blobConnection is Tree.blobs.
func (r *Resolver) blobConnection(t *model.Tree, after, before *ent.Cursor, first, last *int) (*model.BlobConnection, error) {
	entries := entriesOf(t, git.TypeBlob)
	w, err := arrayWindow(len(entries), after, before, first, last)
	if err != nil {
		return nil, err
	}
	conn := &model.BlobConnection{Edges: []*model.BlobEdge{}, Nodes: []*model.Blob{}, PageInfo: w.pageInfo()}
	for i := w.start; i < w.end; i++ {
		e := entries[i]
		url, webPath := r.entryURLs(t, "blob", e.Path)
		mode := e.Mode
		n := &model.Blob{ID: formatEntryGID(gidTreeEntry, e.ID), Sha: string(e.ID), Name: e.Name, Type: model.EntryTypeBlob,
			Path: e.Path, FlatPath: e.Path, WebURL: &url, WebPath: &webPath, Mode: &mode}
		conn.Nodes = append(conn.Nodes, n)
		conn.Edges = append(conn.Edges, &model.BlobEdge{Cursor: cursorAt(i), Node: n})
	}
	return conn, nil
}

// submoduleConnection is Tree.submodules. Submodule URLs (from .gitmodules) are not resolved:
// webUrl and treeUrl are null.
func (r *Resolver) submoduleConnection(t *model.Tree, after, before *ent.Cursor, first, last *int) (*model.SubmoduleConnection, error) {
	entries := entriesOf(t, git.TypeCommit)
	w, err := arrayWindow(len(entries), after, before, first, last)
	if err != nil {
		return nil, err
	}
	conn := &model.SubmoduleConnection{Edges: []*model.SubmoduleEdge{}, Nodes: []*model.Submodule{}, PageInfo: w.pageInfo()}
	for i := w.start; i < w.end; i++ {
		e := entries[i]
		n := &model.Submodule{ID: formatEntryGID(gidSubmoduleEntry, e.ID), Sha: string(e.ID), Name: e.Name,
			Type: model.EntryTypeCommit, Path: e.Path, FlatPath: e.Path}
		conn.Nodes = append(conn.Nodes, n)
		conn.Edges = append(conn.Edges, &model.SubmoduleEdge{Cursor: cursorAt(i), Node: n})
	}
	return conn, nil
}

// entryURLs are the web URL and path of an entry of t: /<project>/-/<kind>/<ref>/<path>.
func (r *Resolver) entryURLs(t *model.Tree, kind, p string) (string, string) {
	wp := webPath(t.Repository, kind, t.Ref, p)
	return r.baseURL + wp, wp
}

// formatEntryGID is a tree entry's global id, named by its object id as GitLab's are.
func formatEntryGID(model string, id git.ObjectID) string {
	return "gid://gitlab/" + model + "/" + string(id)
}

// flatPaths is, for each directory directly in t, its flat path (repofiles.FlatPaths: the
// path reached by descending while a directory holds nothing but one directory).
func (r *Resolver) flatPaths(ctx context.Context, t *model.Tree) (map[string]string, error) {
	return r.files.FlatPaths(ctx, actor(ctx), repoRef(t.Repository), string(t.Commit), t.Path)
}
