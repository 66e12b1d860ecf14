// Package repos ties projects to their git repositories: it creates and removes them with the
// project (the projects service's Repositories), and opens a project's repository for an
// actor after the authorization check every repository endpoint needs.
package repos

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/git/storage"
	"anvil/internal/jobs"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Service is the repository service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	settings *settings.Service
	Git      *git.Client
	Storage  *storage.Storage
	log      *slog.Logger
	// lastCommits caches the last commit of a path (LastCommitForPath).
	lastCommits *lastCommitCache
	// protected protects a project's default branch when it is first created.
	protected *protectedbranches.Service
	// jobs queues repository removal and housekeeping (jobs.go).
	jobs jobs.Enqueuer
	// pushes observes recorded pushes (webhooks).
	pushes PushObserver
	// sweepGrace is how old a leftover must be for the sweep to repair it (SweepJob).
	sweepGrace time.Duration
}

// Deps are the repository service's collaborators; every one is required.
type Deps struct {
	Client   *ent.Client
	Policy   *authz.Policy
	Projects *projects.Service
	Settings *settings.Service
	Git      *git.Client
	Storage  *storage.Storage
	Log      *slog.Logger
	// Protected protects a project's default branch when it is first created or pushed.
	Protected *protectedbranches.Service
	// Jobs queues repository removal and housekeeping in the transaction that causes them.
	Jobs jobs.Enqueuer
	// Pushes is told of every recorded push inside its transaction (webhooks queue their
	// deliveries there).
	Pushes PushObserver
}

// PushObserver is told of each recorded push in the push's transaction; an error rolls it back.
type PushObserver interface {
	PushRecorded(ctx context.Context, actor *authz.Actor, p *ent.Project, pushes []*ent.PushEvent) error
}

// PushObservers tells each observer of a push in turn; the first error rolls the push back.
type PushObservers []PushObserver

// PushRecorded implements PushObserver.
func (o PushObservers) PushRecorded(ctx context.Context, actor *authz.Actor, p *ent.Project, pushes []*ent.PushEvent) error {
	for _, x := range o {
		if err := x.PushRecorded(ctx, actor, p, pushes); err != nil {
			return err
		}
	}
	return nil
}

// New returns the repository service over an opened git client and storage.
func New(d Deps) *Service {
	wire.Require("repos", wire.D("client", d.Client), wire.D("policy", d.Policy), wire.D("projects", d.Projects),
		wire.D("settings", d.Settings), wire.D("git client", d.Git), wire.D("storage", d.Storage),
		wire.D("logger", d.Log), wire.D("protected branches", d.Protected), wire.D("jobs", d.Jobs),
		wire.D("push observer", d.Pushes))
	return &Service{client: d.Client, policy: d.Policy, projects: d.Projects, settings: d.Settings,
		Git: d.Git, Storage: d.Storage, log: d.Log, protected: d.Protected, jobs: d.Jobs, pushes: d.Pushes,
		lastCommits: newLastCommitCache(d.Client)}
}

// Open finds the project ref names, checks ability (authz.DownloadCode to read, authz.PushCode
// to write) and returns the project with its repository, answering as authz.CheckRepository:
// 404 Project Not Found, 404 Repository Not Found when the repository feature is not available
// to the actor, then 401/403.
func (s *Service) Open(ctx context.Context, actor *authz.Actor, ref string, ability authz.Ability) (*ent.Project, *git.Repository, error) {
	// One access-level computation answers every question (see the project, its repository,
	// then ability).
	p, level, readable, err := s.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	if err := authz.CheckRepository(actor, p, level, readable, ability); err != nil {
		return nil, nil, err
	}
	repo, err := s.Repository(p)
	if err != nil {
		return nil, nil, err
	}
	return p, repo, nil
}

// Repository returns a project's repository without permission checks.
func (s *Service) Repository(p *ent.Project) (*git.Repository, error) {
	if p.DiskPath == "" {
		return nil, apperr.NotFound("Repository")
	}
	repo, err := s.Storage.Repository(p.RepositoryStorage, p.DiskPath)
	if err != nil {
		if errors.Is(err, storage.ErrUnknownStorage) {
			return nil, fmt.Errorf("project %d: %w", p.ID, err)
		}
		return nil, err
	}
	return repo, nil
}

// Create implements projects.Repositories: it places a new bare repository on the storage
// named (or one picked by weight), records where, and optionally makes the first commit with a
// README.
func (s *Service) Create(ctx context.Context, p *ent.Project, initReadme bool, defaultBranch, name string) error {
	if name == "" {
		weights, err := s.settings.StorageWeights(ctx)
		if err != nil {
			return err
		}
		picked, err := s.Storage.PickBy(weights)
		if err != nil {
			return err
		}
		name = picked
	}
	rel := storage.HashedPath(int64(p.ID))
	if defaultBranch == "" {
		defaultBranch = "main"
	}
	repo, err := s.Storage.Create(ctx, name, rel, defaultBranch)
	if err != nil {
		return err
	}
	if err := db.ClientFrom(ctx, s.client).Project.UpdateOneID(p.ID).
		SetRepositoryStorage(name).SetDiskPath(rel).Exec(ctx); err != nil {
		_ = s.Storage.Remove(ctx, name, rel)
		return err
	}
	p.RepositoryStorage, p.DiskPath = name, rel
	if initReadme {
		return s.initReadme(ctx, p, repo, defaultBranch)
	}
	return nil
}

// Delete implements projects.Repositories: it queues the removal of p's repository in the
// deletion's transaction (RemoveRepositoryJob), so the repository goes once the rows are gone,
// never when the deletion rolls back, and is retried until it is gone whatever crashes.
func (s *Service) Delete(ctx context.Context, p *ent.Project) error {
	c := db.ClientFrom(ctx, s.client)
	if err := s.lastCommits.forget(ctx, c, p.ID); err != nil {
		return err
	}
	return s.queueRemoval(ctx, p)
}

// SetDefaultBranch implements projects.Repositories: HEAD moves only to an existing
// branch, and not while the repository moves between storages (an empty repository accepts any valid name, which the first push will create).
func (s *Service) SetDefaultBranch(ctx context.Context, p *ent.Project, branch string) error {
	if err := s.CheckWritable(ctx, p); err != nil {
		return err
	}
	repo, err := s.Repository(p)
	if err != nil {
		return err
	}
	if err := git.ValidateBranchName(branch); err != nil {
		return apperr.FieldError("default_branch", "is invalid")
	}
	if has, err := repo.HasBranches(ctx); err != nil {
		return err
	} else if has {
		if _, err := repo.Branch(ctx, branch); err != nil {
			if errors.Is(err, git.ErrReferenceNotFound) {
				return apperr.FieldError("base", "Could not change HEAD: branch '"+branch+"' does not exist")
			}
			return err
		}
	}
	return repo.SetHead(ctx, branch)
}

// Exists reports whether p's repository exists on disk (GraphQL's Repository.exists; callers
// have authorized the reader).
func (s *Service) Exists(p *ent.Project) bool {
	repo, err := s.Repository(p)
	return err == nil && repo.Exists()
}

// RootRef is p's default branch as its repository's HEAD names it; ok is false when the
// repository does not exist (callers have authorized the reader).
func (s *Service) RootRef(ctx context.Context, p *ent.Project) (branch string, ok bool, err error) {
	repo, err := s.Repository(p)
	if err != nil || !repo.Exists() {
		return "", false, nil
	}
	head, err := repo.Head(ctx)
	if err != nil {
		return "", false, err
	}
	return head, true, nil
}

// Empty implements projects.Repositories.
func (s *Service) Empty(ctx context.Context, p *ent.Project) bool {
	repo, err := s.Repository(p)
	if err != nil {
		return true
	}
	has, err := repo.HasBranchesOnDisk()
	return err != nil || !has
}

// ReadmePath implements projects.Repositories: the README at the root of the default branch,
// "" for an empty repository or when there is none.
func (s *Service) ReadmePath(ctx context.Context, p *ent.Project) string {
	repo, err := s.Repository(p)
	if err != nil {
		return ""
	}
	if has, err := repo.HasBranchesOnDisk(); err != nil || !has {
		return ""
	}
	branch, err := repo.Head(ctx)
	if err != nil {
		return ""
	}
	path, err := repo.ReadmePath(ctx, branch)
	if err != nil {
		return ""
	}
	return path
}

// EmptyRepos implements projects.Repositories from the ref storage on disk, so a
// page of 100 projects starts no git process.
func (s *Service) EmptyRepos(_ context.Context, ps []*ent.Project) map[int]bool {
	out := make(map[int]bool, len(ps))
	for _, p := range ps {
		out[p.ID] = true
		repo, err := s.Repository(p)
		if err != nil {
			continue
		}
		if has, err := repo.HasBranchesOnDisk(); err == nil {
			out[p.ID] = !has
		}
	}
	return out
}
