package commits

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
)

// Detail is one commit of a project, with its line counts when asked for.
type Detail struct {
	Project *ent.Project
	Commit  *git.Commit
	// Stats is nil unless requested.
	Stats *git.CommitStats
}

// Get returns the commit sha names (an id, branch or tag), with its stats when stats is true
// (GET /projects/:id/repository/commits/:sha). An unknown one is 404 Commit Not Found.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, projectRef, sha string, stats bool) (*Detail, error) {
	p, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	c, err := resolveCommit(ctx, repo, sha)
	if err != nil {
		return nil, err
	}
	return s.detail(ctx, p, repo, c, stats)
}

func (s *Service) detail(ctx context.Context, p *ent.Project, repo *git.Repository, c *git.Commit, stats bool) (*Detail, error) {
	d := &Detail{Project: p, Commit: c}
	if stats {
		// A commit's line counts depend on its content alone (its tree and its first parent's),
		// so they are kept by commit id.
		if st, ok := s.stats.Get(c.ID); ok {
			d.Stats = &st
			return d, nil
		}
		st, err := repo.CommitStatsOf(ctx, c)
		if err != nil {
			return nil, err
		}
		s.stats.Add(c.ID, st)
		d.Stats = &st
	}
	return d, nil
}

// Ref is a branch or tag that contains a commit.
type Ref struct {
	// Type is "branch" or "tag".
	Type string
	Name string
}

// RefsPage is one page of the refs containing a commit. Result.Total is -1 (GitLab does not
// count them); HasNext tells whether more follow.
type RefsPage struct {
	Result  pagination.Result[Ref]
	HasNext bool
}

// Refs lists the branches, then the tags, that contain the commit sha names; refType is
// "branch", "tag" or "all" (GET .../commits/:sha/refs).
func (s *Service) Refs(ctx context.Context, actor *authz.Actor, projectRef, sha, refType string, page pagination.Offset) (*RefsPage, error) {
	_, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	switch refType {
	case "", "all", "branch", "tag":
	default:
		return nil, apperr.NotAllowedValue("type")
	}
	c, err := resolveCommit(ctx, repo, sha)
	if err != nil {
		return nil, err
	}
	var refs []Ref
	if refType != "tag" {
		rs, err := repo.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix}, Contains: c.ID})
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			refs = append(refs, Ref{Type: "branch", Name: r.ShortName()})
		}
	}
	if refType != "branch" {
		rs, err := repo.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.TagPrefix}, Contains: c.ID})
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			refs = append(refs, Ref{Type: "tag", Name: r.ShortName()})
		}
	}
	items := pageOf(refs, page)
	return &RefsPage{
		Result:  pagination.Result[Ref]{Items: items, Total: -1, Page: page},
		HasNext: page.Skip()+len(items) < len(refs),
	}, nil
}

// pageOf cuts one offset page out of all.
func pageOf[T any](all []T, page pagination.Offset) []T {
	start := min(page.Skip(), len(all))
	end := min(start+page.Limit(), len(all))
	out := make([]T, end-start)
	copy(out, all[start:end])
	return out
}

// Sequence counts the commits reachable from the commit sha names, itself included, following
// only first parents when firstParent (GET .../commits/:sha/sequence).
func (s *Service) Sequence(ctx context.Context, actor *authz.Actor, projectRef, sha string, firstParent bool) (int, error) {
	_, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return 0, err
	}
	c, err := resolveCommit(ctx, repo, sha)
	if err != nil {
		return 0, err
	}
	return repo.CountCommits(ctx, git.LogOptions{Revisions: []string{string(c.ID)}, FirstParent: firstParent})
}

// Diff limits of a commit diff: GitLab's default diff_max_files, diff_max_lines and
// diff_max_patch_bytes. A file over the patch limit is listed with an empty diff.
const (
	diffMaxFiles      = 1000
	diffMaxLines      = 50000
	diffMaxPatchBytes = 200 * 1024
)

// Diff returns one page of the files the commit sha names changed against its first parent
// (the empty tree for a root commit) (GET .../commits/:sha/diff).
func (s *Service) Diff(ctx context.Context, actor *authz.Actor, projectRef, sha string, page pagination.Offset) (pagination.Result[git.DiffFile], error) {
	var out pagination.Result[git.DiffFile]
	_, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return out, err
	}
	c, err := resolveCommit(ctx, repo, sha)
	if err != nil {
		return out, err
	}
	from := ""
	if len(c.Parents) > 0 {
		from = string(c.Parents[0])
	}
	d, err := repo.Diff(ctx, from, string(c.ID), git.DiffOptions{
		MaxFiles: diffMaxFiles, MaxLines: diffMaxLines, MaxPatchBytes: diffMaxPatchBytes,
	})
	if err != nil {
		return out, err
	}
	return pagination.Result[git.DiffFile]{Items: pageOf(d.Files, page), Total: len(d.Files), Page: page}, nil
}

// LastCommit returns the newest commit reachable from rev (a branch, tag or commit) that
// changed path, the commit itself for the root path: GraphQL's Tree.lastCommit. The answer is
// cached per commit and path (repos.LastCommitForPath). A path without history, or that git
// cannot take, has none (nil); an unknown rev is 404 Commit Not Found.
func (s *Service) LastCommit(ctx context.Context, actor *authz.Actor, projectRef, rev, path string) (*git.Commit, error) {
	p, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	c, err := resolveCommit(ctx, repo, rev)
	if err != nil {
		return nil, err
	}
	id, err := s.repos.LastCommitForPath(ctx, p, repo, c.ID, path)
	switch {
	case errors.Is(err, git.ErrPathNotFound), errors.Is(err, git.ErrInvalidPath):
		return nil, nil
	case err != nil:
		return nil, err
	case id == c.ID:
		return c, nil
	}
	return repo.ReadCommit(ctx, string(id))
}
