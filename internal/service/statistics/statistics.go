// Package statistics computes the storage statistics of projects and groups (GitLab's
// project_statistics: repository size, commit count, storage size) from their repositories.
// Every change to a repository marks its project's statistics stale and counts up their
// version (repos.RecordPush, in the transaction that records the push); the next read that
// shows them computes them again, so a push costs one small write and a read never shows
// numbers older than the last push.
package statistics

import (
	"context"
	stdsql "database/sql"
	"errors"
	"sync"
	"time"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/projectstatistics"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/repos"
	"anvil/internal/service/wire"
)

// Service is the statistics service.
type Service struct {
	client *ent.Client
	repos  *repos.Service
}

// New returns the statistics service.
func New(client *ent.Client, r *repos.Service) *Service {
	wire.Require("statistics", wire.D("client", client), wire.D("repos", r))
	return &Service{client: client, repos: r}
}

// parallel bounds the repositories measured at once for one request.
const parallel = 4

// ForProjects returns the statistics of the projects by project id, computing first those that
// are stale or were never computed. The projects are ones the caller already found for its
// actor; who may see the numbers is the presenter's read_statistics decision.
func (s *Service) ForProjects(ctx context.Context, ps []*ent.Project) (map[int]*ent.ProjectStatistics, error) {
	if len(ps) == 0 {
		return map[int]*ent.ProjectStatistics{}, nil
	}
	ids := make([]int, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	out, err := s.stored(ctx, ids)
	if err != nil {
		return nil, err
	}
	var todo []*ent.Project
	for _, p := range ps {
		if st, ok := out[p.ID]; !ok || st.Stale {
			todo = append(todo, p)
		}
	}
	fresh, err := s.refresh(ctx, todo, out)
	for id, st := range fresh {
		out[id] = st
	}
	return out, err
}

// Totals are the statistics of a group: the sums over the projects in it.
type Totals struct {
	StorageSize, RepositorySize, WikiSize, LFSObjectsSize, BuildArtifactsSize int64
	PipelineArtifactsSize, PackagesSize, SnippetsSize, UploadsSize            int64
}

// ForGroups returns the statistics of the groups by group id: the sums over the projects
// directly in each group, as GitLab's group listing sums them, with stale project statistics
// computed first.
func (s *Service) ForGroups(ctx context.Context, groupIDs []int) (map[int]*Totals, error) {
	out := make(map[int]*Totals, len(groupIDs))
	for _, id := range groupIDs {
		out[id] = &Totals{}
	}
	if len(groupIDs) == 0 {
		return out, nil
	}
	c := db.ClientFrom(ctx, s.client)
	ps, err := c.Project.Query().Where(project.NamespaceIDIn(groupIDs...), project.PendingDelete(false)).All(ctx)
	if err != nil {
		return nil, err
	}
	stats, err := s.ForProjects(ctx, ps)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		st, ok := stats[p.ID]
		if !ok {
			continue
		}
		t := out[p.NamespaceID]
		t.StorageSize += st.StorageSize
		t.RepositorySize += st.RepositorySize
		t.WikiSize += st.WikiSize
		t.LFSObjectsSize += st.LfsObjectsSize
		t.BuildArtifactsSize += st.BuildArtifactsSize
		t.PipelineArtifactsSize += st.PipelineArtifactsSize
		t.PackagesSize += st.PackagesSize
		t.SnippetsSize += st.SnippetsSize
		t.UploadsSize += st.UploadsSize
	}
	return out, nil
}

// stored reads the statistics rows of the projects.
func (s *Service) stored(ctx context.Context, ids []int) (map[int]*ent.ProjectStatistics, error) {
	rows, err := db.ClientFrom(ctx, s.client).ProjectStatistics.Query().
		Where(projectstatistics.ProjectIDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int]*ent.ProjectStatistics, len(rows))
	for _, r := range rows {
		out[r.ProjectID] = r
	}
	return out, nil
}

// refresh measures the projects' repositories, a few at a time, and stores the results; seen
// holds the rows read before measuring (their versions guard the writes).
func (s *Service) refresh(ctx context.Context, ps []*ent.Project, seen map[int]*ent.ProjectStatistics) (map[int]*ent.ProjectStatistics, error) {
	out := make(map[int]*ent.ProjectStatistics, len(ps))
	if len(ps) == 0 {
		return out, nil
	}
	measured := make([]*ent.ProjectStatistics, len(ps))
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	sem := make(chan struct{}, parallel)
	for i, p := range ps {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			measured[i], errs[i] = s.measure(ctx, p)
		}()
	}
	wg.Wait()
	for i, st := range measured {
		if errs[i] != nil {
			return out, errs[i]
		}
		saved, err := s.save(ctx, st, seen[st.ProjectID])
		if err != nil {
			return out, err
		}
		out[saved.ProjectID] = saved
	}
	return out, nil
}

// measure computes a project's statistics from its repository. Anvil stores no wiki, LFS
// objects, artifacts, packages, snippets or uploads yet, so those sizes are zero and the
// storage size is the repository's.
func (s *Service) measure(ctx context.Context, p *ent.Project) (*ent.ProjectStatistics, error) {
	st := &ent.ProjectStatistics{ProjectID: p.ID}
	repo, err := s.repos.Repository(p)
	if err != nil || !repo.Exists() {
		return st, nil
	}
	if st.RepositorySize, err = repo.ObjectsSize(ctx); err != nil {
		return nil, err
	}
	if has, err := repo.HasBranches(ctx); err != nil {
		return nil, err
	} else if has {
		n, err := repo.CountCommits(ctx, git.LogOptions{})
		if err != nil {
			return nil, err
		}
		st.CommitCount = int64(n)
	}
	st.StorageSize = st.RepositorySize + st.WikiSize + st.LfsObjectsSize + st.BuildArtifactsSize +
		st.PipelineArtifactsSize + st.PackagesSize + st.SnippetsSize + st.UploadsSize
	return st, nil
}

// save stores measured statistics as fresh, unless the repository changed while they were
// measured: a row that was read is only updated at the version it was read with, and a row
// that did not exist is only created if no push created it meanwhile. Values that lost the
// race are returned all the same (they are at most one push old) and stay stale for the next
// read.
func (s *Service) save(ctx context.Context, st, seen *ent.ProjectStatistics) (*ent.ProjectStatistics, error) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	c := db.ClientFrom(ctx, s.client)
	if seen != nil {
		n, err := c.ProjectStatistics.Update().
			Where(projectstatistics.ProjectID(st.ProjectID), projectstatistics.Version(seen.Version)).
			SetCommitCount(st.CommitCount).SetRepositorySize(st.RepositorySize).SetStorageSize(st.StorageSize).
			SetStale(false).SetRefreshedAt(now).Save(ctx)
		if err != nil {
			return nil, err
		}
		st.Stale = n == 0
		st.Version = seen.Version
	} else {
		err := c.ProjectStatistics.Create().SetProjectID(st.ProjectID).
			SetCommitCount(st.CommitCount).SetRepositorySize(st.RepositorySize).SetStorageSize(st.StorageSize).
			SetStale(false).SetRefreshedAt(now).
			OnConflictColumns(projectstatistics.FieldProjectID).DoNothing().Exec(ctx)
		if err != nil && !ent.IsConstraintError(err) && !errors.Is(err, stdsql.ErrNoRows) {
			return nil, err
		}
	}
	st.RefreshedAt = &now
	return st, nil
}
