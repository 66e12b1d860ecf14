package repofiles

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"

	"golang.org/x/sync/errgroup"
)

// CompareParams are the parameters of GET /projects/:id/repository/compare.
type CompareParams struct {
	// From and To are commits, branches or tags (from, to); From is looked up in FromProject.
	From, To string
	// FromProjectID names another project of the same fork network to take From from
	// (from_project_id); nil means this project.
	FromProjectID *int
	// Straight compares From..To directly (straight); otherwise the diff starts at their merge
	// base (From...To). The commit list is From..To either way.
	Straight bool
}

// Diff limits (GitLab's Commit.max_diff_options and DiffCollection limits): past the maximum
// the diff stops (compare_timeout); past the safe limits the remaining patches are collapsed
// (empty diff, collapsed true); a single patch over MaxPatchBytes is dropped (too_large).
const (
	DiffMaxFiles      = 1000
	DiffMaxLines      = 50000
	DiffMaxBytes      = DiffMaxFiles * 5 << 10
	DiffSafeMaxFiles  = DiffMaxFiles / 10
	DiffSafeMaxLines  = DiffMaxLines / 10
	DiffSafeMaxBytes  = DiffSafeMaxFiles * 5 << 10
	DiffMaxPatchBytes = 200 << 10
)

// Diff is one changed file of a comparison.
type Diff struct {
	git.DiffFile
	// Collapsed: the safe limits were passed before this file, so its patch is not shown.
	Collapsed bool
}

// Comparison is the result of a compare.
type Comparison struct {
	// Project is the project compared in (its web_url is the comparison's).
	Project *ent.Project
	// Commits are From..To, oldest first.
	Commits []*git.Commit
	Diffs   []Diff
	// Overflow: the diff hit its limits and stops early (compare_timeout).
	Overflow bool
	// SameRef: From and To name the same commit (compare_same_ref).
	SameRef bool
	// Base and Head are the ends of the diff (the web_url's from...to).
	Base, Head git.ObjectID
}

// Compare compares two commits. Unknown refs are 404 Ref Not Found.
func (s *Service) Compare(ctx context.Context, actor *authz.Actor, projectRef string, p CompareParams) (*Comparison, error) {
	proj, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	fromRepo, err := s.fromRepository(ctx, actor, proj, repo, projectRef, p.FromProjectID)
	if err != nil {
		return nil, err
	}
	from, err := fromRepo.ResolveCommit(ctx, p.From)
	if err != nil {
		return nil, notFound(err, "Ref")
	}
	if fromRepo != repo {
		// The comparison runs here: bring the other project's commit over when it is missing
		// (a fork has its parent's history up to the fork, not what came after), as GitLab
		// fetches it.
		if err := repo.FetchFrom(ctx, fromRepo, git.FetchOptions{Objects: []git.ObjectID{from}}); err != nil {
			return nil, err
		}
	}
	to, err := repo.ResolveCommit(ctx, p.To)
	if err != nil {
		return nil, notFound(err, "Ref")
	}
	c := &Comparison{Project: proj, SameRef: from == to, Base: from, Head: to}
	if c.SameRef {
		return c, nil
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		commits, err := repo.Log(gctx, git.LogOptions{Revisions: []string{string(to), "^" + string(from)}})
		slices.Reverse(commits)
		c.Commits = commits
		return err
	})
	g.Go(func() error {
		base := from
		if !p.Straight {
			mb, err := repo.MergeBase(gctx, string(from), string(to))
			switch {
			case errors.Is(err, git.ErrUnrelatedHistories):
				base = "" // unrelated histories: everything in To is new
			case err != nil:
				return err
			default:
				base, c.Base = mb, mb
			}
		}
		res, err := repo.Diff(gctx, string(base), string(to), git.DiffOptions{
			MaxFiles: DiffMaxFiles, MaxLines: DiffMaxLines, MaxBytes: DiffMaxBytes, MaxPatchBytes: DiffMaxPatchBytes,
		})
		if err != nil {
			return err
		}
		c.Diffs, c.Overflow = collapse(res.Files), res.Overflow
		return nil
	})
	if err := g.Wait(); err != nil {
		return nil, notFound(err, "Ref")
	}
	return c, nil
}

// collapse empties the patches after the safe limits, as GitLab's collapsed diffs.
func collapse(files []git.DiffFile) []Diff {
	out := make([]Diff, len(files))
	lines, bytes := 0, 0
	for i, f := range files {
		out[i].DiffFile = f
		lines += f.Additions + f.Deletions
		bytes += len(f.Patch)
		if i >= DiffSafeMaxFiles || lines > DiffSafeMaxLines || bytes > DiffSafeMaxBytes {
			out[i].Patch, out[i].Collapsed = "", true
		}
	}
	return out
}

// fromRepository returns the repository from is read in: this one, or that of from_project_id,
// which must be a readable project of the same fork network whose code the caller may read
// (GitLab's refusals otherwise).
func (s *Service) fromRepository(ctx context.Context, actor *authz.Actor, proj *ent.Project, repo *git.Repository, projectRef string, id *int) (*git.Repository, error) {
	if id == nil || *id == proj.ID {
		return repo, nil
	}
	notFork := apperr.Refused("Target project id:" + strconv.Itoa(*id) + " is not a fork of project id:" + projectRef)
	other, level, readable, err := s.projects.LookupLevel(ctx, actor, strconv.Itoa(*id))
	if apperr.IsNotFound(err) || (err == nil && !readable) {
		return nil, notFork
	}
	if err != nil {
		return nil, err
	}
	same, err := s.sameForkNetwork(ctx, proj, other)
	if err != nil {
		return nil, err
	}
	// GitLab looks the project up among those of the fork network whose repository feature is
	// available to the caller, then asks for read_code.
	if !same || !authz.FeatureAvailable(actor, other, level, authz.FeatureRepository) {
		return nil, notFork
	}
	if !authz.CanProject(actor, other, level, authz.ReadCode) {
		return nil, apperr.Forbidden("You don't have access to this fork's parent project")
	}
	return s.repos.Repository(other)
}

// sameForkNetwork reports whether a and b descend from the same root project.
func (s *Service) sameForkNetwork(ctx context.Context, a, b *ent.Project) (bool, error) {
	ra, err := s.forkRoot(ctx, a)
	if err != nil {
		return false, err
	}
	rb, err := s.forkRoot(ctx, b)
	if err != nil {
		return false, err
	}
	return ra == rb, nil
}

// forkRoot follows forked_from_id to the first project of the network.
func (s *Service) forkRoot(ctx context.Context, p *ent.Project) (int, error) {
	id, parent := p.ID, p.ForkedFromID
	for hops := 0; parent != nil && hops < 100; hops++ {
		up, err := s.projects.Lookup(ctx, strconv.Itoa(*parent))
		if err != nil {
			if apperr.IsNotFound(err) {
				break
			}
			return 0, err
		}
		id, parent = up.ID, up.ForkedFromID
	}
	return id, nil
}
