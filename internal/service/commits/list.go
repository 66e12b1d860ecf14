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
// values but Project do not filter.
type ListParams struct {
	// Project is the id or full path of the project (:id).
	Project string
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
	// Trailers parses the commits' trailers into the response (trailers).
	Trailers bool
}

// Order is a commit listing's order (order): "default" (reverse chronological, also for "")
// or "topo".
type Order struct {
	By string
}

// List returns one page of the commits of p.Project matching p, newest first (or in
// topological order), and the project. Pages are offset pages (GitLab has no keyset pages of
// commits; a keyset request is read as the first offset page) and never counted: Total is -1,
// the next page is offered while pages are full. An unknown ref, or an empty repository, gives
// an empty page.
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Page) (pagination.Result[*git.Commit], *ent.Project, error) {
	out := pagination.Result[*git.Commit]{Items: []*git.Commit{}, Total: -1, Page: page.Offset}
	proj, repo, err := s.open(ctx, actor, p.Project)
	if err != nil {
		return out, nil, err
	}
	if o.By != "" && o.By != "default" && o.By != "topo" {
		return out, nil, apperr.NotAllowedValue("order")
	}
	if p.RefName != "" && !validRefName(p.RefName) {
		return out, nil, apperr.Refused("ref_name is invalid")
	}
	opts := git.LogOptions{
		All: p.All, Author: literalPattern(p.Author), FirstParent: p.FirstParent,
		Skip: page.Skip(), Limit: page.Limit(), WithStats: p.WithStats,
	}
	if o.By == "topo" {
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
				return out, nil, err
			}
		}
		opts.Revisions = []string{ref}
	}
	commits, err := repo.Log(ctx, opts)
	switch {
	case err == nil:
		if commits != nil {
			out.Items = commits
		}
	case isMissing(err), errors.Is(err, git.ErrPathNotFound):
		// GitLab answers an unknown ref (or an empty repository) with an empty list.
	case errors.Is(err, git.ErrInvalidPath):
		return out, nil, apperr.Invalid("path")
	default:
		return out, nil, err
	}
	return out, proj, nil
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
