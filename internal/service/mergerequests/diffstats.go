package mergerequests

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/git"
)

// DiffStats are the line counts of each file the merge request's latest diff version changes
// (GraphQL's diffStats and diffStatsSummary): from its merge base (start when unknown) to its
// head in the target repository, where the head ref keeps a fork's commits. Only the files at
// paths when given; nil before the first version is recorded or when its commits are gone.
// mr must be loaded with Load.
func (s *Service) DiffStats(ctx context.Context, mr *ent.MergeRequest, paths ...string) ([]git.FileStat, error) {
	d := LatestDiff(mr)
	if d == nil || d.HeadCommitSha == nil || mr.Edges.Project == nil {
		return nil, nil
	}
	from := d.BaseCommitSha
	if from == nil {
		from = d.StartCommitSha
	}
	if from == nil {
		return nil, nil
	}
	repo, err := s.repos.Repository(mr.Edges.Project)
	if err != nil || !repo.Exists() {
		return nil, err
	}
	stats, err := repo.DiffStats(ctx, *from, *d.HeadCommitSha, git.DiffOptions{Paths: paths})
	if errors.Is(err, git.ErrReferenceNotFound) {
		return nil, nil // the version's commits are no longer in the repository
	}
	return stats, err
}
