package commits

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
)

// ListParams are the filters of GET /projects/:id/repository/commits, in GitLab's names. Zero
// values do not filter.
type ListParams struct {
	// RefName is a branch, tag, commit or range ("a..b", "a...b") (ref_name); "" means the
	// default branch. Ignored with All.
	RefName string
	// Since and Until bound the commit date, inclusively (since, until).
	Since, Until *time.Time
	// Path keeps commits touching this file or directory (path).
	Path string
	// Author keeps commits whose author name or email contains this text (author).
	Author string
	// All lists the commits of every ref (all).
	All bool
	// WithStats adds each commit's line counts (with_stats).
	WithStats bool
	// FirstParent follows only the first parent of merges (first_parent).
	FirstParent bool
	// Order is "default" (reverse chronological) or "topo" (order).
	Order string
	// Trailers parses the commits' trailers into the response (trailers).
	Trailers bool
}

// Page is one page of commits of a project. Its Total is -1: GitLab does not count commits,
// it only tells whether a next page may exist.
type Page struct {
	Project *ent.Project
	Result  pagination.Result[*git.Commit]
}

// List returns one page of the project's commits matching p, newest first (or in topological
// order). An unknown ref, or an empty repository, gives an empty page.
func (s *Service) List(ctx context.Context, actor *authz.Actor, projectRef string, p ListParams, page pagination.Offset) (*Page, error) {
	proj, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	if p.Order != "" && p.Order != "default" && p.Order != "topo" {
		return nil, apperr.NotAllowedValue("order")
	}
	if p.RefName != "" && !validRefName(p.RefName) {
		return nil, apperr.Refused("ref_name is invalid")
	}
	opts := git.LogOptions{
		All: p.All, Author: literalPattern(p.Author), FirstParent: p.FirstParent,
		Skip: page.Skip(), Limit: page.Limit(), WithStats: p.WithStats,
	}
	if p.Order == "topo" {
		opts.Order = git.OrderTopo
	}
	if p.Since != nil {
		opts.Since = *p.Since
	}
	if p.Until != nil {
		opts.Until = *p.Until
	}
	if p.Path != "" {
		opts.Paths = []string{p.Path}
	}
	if !p.All {
		ref := p.RefName
		if ref == "" {
			if ref, err = repo.Head(ctx); err != nil {
				return nil, err
			}
		}
		opts.Revisions = []string{ref}
	}
	out := &Page{Project: proj, Result: pagination.Result[*git.Commit]{Items: []*git.Commit{}, Total: -1, Page: page}}
	commits, err := repo.Log(ctx, opts)
	switch {
	case err == nil:
		if commits != nil {
			out.Result.Items = commits
		}
	case isMissing(err), errors.Is(err, git.ErrPathNotFound):
		// GitLab answers an unknown ref (or an empty repository) with an empty list.
	case errors.Is(err, git.ErrInvalidPath):
		return nil, apperr.Invalid("path")
	default:
		return nil, err
	}
	return out, nil
}

// validRefName refuses what GitLab refuses as "ref_name is invalid" before git runs: a leading
// "-" (it would read as an option), whitespace and control characters.
func validRefName(ref string) bool {
	if strings.HasPrefix(ref, "-") {
		return false
	}
	for _, r := range ref {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return git.ValidateRevision(ref) == nil
}

// literalPattern escapes the characters git's basic regular expressions treat specially, so
// the author filter matches the text as given and a stray "[" cannot fail the command.
func literalPattern(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.[]*^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
