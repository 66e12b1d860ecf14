package repofiles

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
)

// Tree pagination methods (GitLab's pagination parameter of GET .../repository/tree).
const (
	TreeLegacy = "legacy" // offset pages with totals (the default)
	TreeKeyset = "keyset" // page_token continuation, Link rel="next" only
	TreeNone   = "none"   // everything at once; only with recursive
)

// TreeParams are the parameters of GET /projects/:id/repository/tree.
type TreeParams struct {
	// Ref is a branch, tag or commit (ref); "" means the default branch.
	Ref string
	// Path is the directory to list (path); "" is the root.
	Path string
	// Recursive lists the whole subtree (recursive).
	Recursive bool
	// Pagination is TreeLegacy (also for ""), TreeKeyset or TreeNone (pagination).
	Pagination string
	// Page is the offset page (page, per_page); keyset pages use only PerPage.
	Page pagination.Offset
	// PageToken continues a keyset listing after the entry it names (page_token): the token of
	// a previous Link rel="next", an entry's path, or an entry id (GitLab's "tree record ID").
	PageToken string
}

// Tree lists a directory of the repository in GitLab's order: directories first, then files,
// then submodules, each group in git's order. Result.Total is -1 for keyset and unpaginated
// listings; Result.Next continues a keyset listing.
func (s *Service) Tree(ctx context.Context, actor *authz.Actor, projectRef string, p TreeParams) (pagination.Result[git.TreeEntry], error) {
	var res pagination.Result[git.TreeEntry]
	if p.Pagination == TreeNone && !p.Recursive {
		return res, apperr.BadParam(`pagination cannot be "none" unless "recursive" is true`)
	}
	_, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return res, err
	}
	rev := p.Ref
	if rev == "" {
		if rev, err = repo.Head(ctx); err != nil {
			return res, err
		}
	}
	commit, err := repo.ResolveCommit(ctx, rev)
	if err != nil {
		return res, notFound(err, "Tree")
	}
	path, err := treePath(p.Path)
	if err != nil {
		return res, err
	}
	l, err := s.listTree(ctx, repo, commit, path, p.Recursive)
	if err != nil {
		return res, err
	}
	switch p.Pagination {
	case TreeNone:
		return pagination.Result[git.TreeEntry]{Items: l.slice(0, l.len()), Total: -1}, nil
	case TreeKeyset:
		return keysetTree(l, p)
	}
	return offsetTree(l, p.Page), nil
}

// listTree returns a listing in GitLab's order, from the cache when a recent request listed
// the same tree.
func (s *Service) listTree(ctx context.Context, repo *git.Repository, commit git.ObjectID, path string, recursive bool) (listing, error) {
	key := treeKey{repo: repo.Path(), commit: commit, path: path, recursive: recursive}
	if l, ok := s.trees.get(key); ok {
		return l, nil
	}
	entries, err := repo.ListTree(ctx, string(commit), path, git.ListTreeOptions{Recursive: recursive})
	if err != nil {
		if err = treeErr(ctx, repo, commit, path, err); err != errEmptyTree {
			return listing{}, err
		}
	}
	l := treesFirst(entries)
	s.trees.put(key, l)
	return l, nil
}

// treePath checks a directory path: surrounding slashes are dropped; traversal is refused with
// Gitaly's wording, which GitLab answers as 404 "<message> Not Found".
func treePath(p string) (string, error) {
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", apperr.NotFound("Path cannot include traversal syntax")
		}
	}
	clean, err := git.CleanPath(p)
	if err != nil {
		return "", apperr.NotFound("invalid revision or path")
	}
	return clean, nil
}

// treeErr maps a listing failure: a missing path is 404 "invalid revision or path"; a path
// naming a file (or submodule) lists nothing, as Gitaly answers.
func treeErr(ctx context.Context, repo *git.Repository, commit git.ObjectID, path string, err error) error {
	if !errors.Is(err, git.ErrPathNotFound) {
		return notFound(err, "invalid revision or path")
	}
	if e, lookErr := repo.TreeEntryAt(ctx, string(commit), path); lookErr == nil && e.Type != git.TypeTree {
		return errEmptyTree
	}
	return apperr.NotFound("invalid revision or path")
}

// errEmptyTree is not an error for the caller: Tree turns it into an empty listing.
var errEmptyTree = errors.New("not a directory")

// listing is a tree listing in GitLab's order (Tree#sorted_entries): trees, then blobs, then
// submodules, keeping git's order inside each group. The order is kept as indexes into git's
// entries, so a listing of a large tree is not copied; only pages are.
type listing struct {
	entries []git.TreeEntry
	order   []int32
}

// treesFirst puts entries in GitLab's order.
func treesFirst(entries []git.TreeEntry) listing {
	l := listing{entries: entries, order: make([]int32, 0, len(entries))}
	for _, pass := range []func(git.ObjectType) bool{
		func(t git.ObjectType) bool { return t == git.TypeTree },
		func(t git.ObjectType) bool { return t == git.TypeBlob },
		func(t git.ObjectType) bool { return t != git.TypeTree && t != git.TypeBlob },
	} {
		for i := range entries {
			if pass(entries[i].Type) {
				l.order = append(l.order, int32(i))
			}
		}
	}
	return l
}

func (l listing) len() int { return len(l.order) }

func (l listing) at(i int) *git.TreeEntry { return &l.entries[l.order[i]] }

// slice copies the entries at positions [start, end).
func (l listing) slice(start, end int) []git.TreeEntry {
	out := make([]git.TreeEntry, 0, end-start)
	for i := start; i < end; i++ {
		out = append(out, *l.at(i))
	}
	return out
}

// offsetTree cuts one offset page out of the listing.
func offsetTree(l listing, page pagination.Offset) pagination.Result[git.TreeEntry] {
	start := min(page.Skip(), l.len())
	end := min(start+page.PerPage, l.len())
	return pagination.Result[git.TreeEntry]{Items: l.slice(start, end), Total: l.len(), Page: page}
}

// keysetTree returns the page after p.PageToken.
func keysetTree(l listing, p TreeParams) (pagination.Result[git.TreeEntry], error) {
	k := pagination.KeysetAt(nil, p.Page.PerPage)
	start := 0
	if p.PageToken != "" {
		i := tokenIndex(l, p.PageToken)
		if i < 0 {
			return pagination.Result[git.TreeEntry]{}, apperr.Invalid("page_token")
		}
		start = i + 1
	}
	rows := l.slice(start, min(start+k.KeysetLimit(), l.len()))
	return pagination.KeysetPage(k, rows, "page_token", entryToken), nil
}

// pageToken is the continuation token Gitaly hands out: the last entry's path, in base64 JSON.
type pageToken struct {
	FileName string `json:"file_name"`
}

// entryToken encodes the continuation after e. A path, unlike an id, is unique in a listing
// (identical files share their blob id).
func entryToken(e git.TreeEntry) string {
	b, _ := json.Marshal(pageToken{FileName: e.Path})
	return base64.StdEncoding.EncodeToString(b)
}

// tokenIndex finds the position of the entry a page token names: an encoded path
// (entryToken), an entry id (the first entry with it, as Gitaly does), or a plain path or name.
// -1 when none matches.
func tokenIndex(l listing, token string) int {
	if b, err := base64.StdEncoding.DecodeString(token); err == nil {
		var t pageToken
		if json.Unmarshal(b, &t) == nil && t.FileName != "" {
			return l.indexWhere(func(e *git.TreeEntry) bool { return e.Path == t.FileName })
		}
	}
	if git.IsFullObjectID(token) {
		if i := l.indexWhere(func(e *git.TreeEntry) bool { return string(e.ID) == token }); i >= 0 {
			return i
		}
	}
	if i := l.indexWhere(func(e *git.TreeEntry) bool { return e.Path == token }); i >= 0 {
		return i
	}
	return l.indexWhere(func(e *git.TreeEntry) bool { return e.Name == token })
}

func (l listing) indexWhere(match func(*git.TreeEntry) bool) int {
	for i := range l.order {
		if match(l.at(i)) {
			return i
		}
	}
	return -1
}
