package repofiles

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
)

// ContributorParams are the parameters of GET /projects/:id/repository/contributors.
type ContributorParams struct {
	// Ref is a branch or tag (ref); "" means the default branch.
	Ref string
	// OrderBy is name, email or commits (order_by); Sort is asc or desc (sort).
	OrderBy, Sort string
	Page          pagination.Offset
}

// Contributors lists the authors of the non-merge commits reachable from a ref, grouped by
// email, ordered as asked (name and email case-insensitively) and paged. An unknown ref is
// 404 Not Found; an empty repository has no contributors.
func (s *Service) Contributors(ctx context.Context, actor *authz.Actor, projectRef string, p ContributorParams) (pagination.Result[git.Contributor], error) {
	res := pagination.Result[git.Contributor]{Page: p.Page}
	_, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return res, err
	}
	rev := p.Ref
	if rev == "" {
		has, err := repo.HasBranches(ctx)
		if err != nil || !has {
			return res, err
		}
		if rev, err = repo.Head(ctx); err != nil {
			return res, err
		}
	}
	commit, err := repo.ResolveCommit(ctx, rev)
	if err != nil {
		return res, notFound(err, "")
	}
	all, err := repo.Contributors(ctx, git.ContributorsOptions{Revision: string(commit)})
	if err != nil {
		return res, notFound(err, "")
	}
	sortContributors(all, p.OrderBy, p.Sort)
	res.Total = len(all)
	start := min(p.Page.Skip(), len(all))
	res.Items = all[start:min(start+p.Page.PerPage, len(all))]
	return res, nil
}

// sortContributors orders contributors stably; the key defaults to commits, ascending.
func sortContributors(cs []git.Contributor, orderBy, sort string) {
	compare := func(a, b git.Contributor) int {
		switch orderBy {
		case "name":
			return cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		case "email":
			return cmp.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email))
		}
		return cmp.Compare(a.Commits, b.Commits)
	}
	slices.SortStableFunc(cs, func(a, b git.Contributor) int {
		if sort == "desc" {
			return compare(b, a)
		}
		return compare(a, b)
	})
}

// MergeBase returns the best common ancestor of two or more refs (GET
// /projects/:id/repository/merge_base) with the project it belongs to. Fewer than two refs and
// unknown refs are 400 with GitLab's messages; unrelated commits are 404 Merge Base Not Found.
func (s *Service) MergeBase(ctx context.Context, actor *authz.Actor, projectRef string, refs []string) (*ent.Project, *git.Commit, error) {
	if len(refs) < 2 {
		return nil, nil, apperr.Refused("Provide at least 2 refs")
	}
	proj, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(refs))
	var unknown []string
	for i, r := range refs {
		id, err := repo.ResolveCommit(ctx, r)
		if err != nil {
			if !isMissing(err) {
				return nil, nil, err
			}
			unknown = append(unknown, r)
			continue
		}
		ids[i] = string(id)
	}
	if len(unknown) > 0 {
		noun := "ref"
		if len(unknown) > 1 {
			noun = "refs"
		}
		return nil, nil, apperr.Refused("Could not find " + noun + ": " + strings.Join(unknown, ", "))
	}
	base, err := repo.MergeBase(ctx, ids...)
	if err != nil {
		if errors.Is(err, git.ErrUnrelatedHistories) || isMissing(err) {
			return nil, nil, apperr.NotFound("Merge Base")
		}
		return nil, nil, err
	}
	c, err := repo.ReadCommit(ctx, string(base))
	if err != nil {
		return nil, nil, err
	}
	return proj, c, nil
}
