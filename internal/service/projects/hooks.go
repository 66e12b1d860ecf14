package projects

import (
	"context"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/authz"
)

// Repositories is what the project domain needs of the git layer (the repos service). Create
// runs after the project row is committed; if it fails the row is removed again and the create
// answers "Failed to create repository", so no half-made project remains. Delete runs in the
// deletion's transaction and queues the repository's removal (a durable job).
type Repositories interface {
	// Create creates the project's repository; initReadme asks for a first commit with a
	// README.md on defaultBranch (empty means the instance default, "main"). storage names the
	// storage to place it on; empty picks one by weight.
	Create(ctx context.Context, p *ent.Project, initReadme bool, defaultBranch, storage string) error
	// Delete queues the removal of the project's repository in the transaction of ctx.
	Delete(ctx context.Context, p *ent.Project) error
	// SetDefaultBranch moves HEAD; a branch that does not exist is refused.
	SetDefaultBranch(ctx context.Context, p *ent.Project, branch string) error
	// Empty reports whether the project's repository has no commits (empty_repo).
	Empty(ctx context.Context, p *ent.Project) bool
	// EmptyRepos answers Empty for a page of up to 100 projects without a process per
	// repository.
	EmptyRepos(ctx context.Context, ps []*ent.Project) map[int]bool
	// ReadmePath finds the README at the root of the default branch (readme_url). Only
	// single-project reads ask it: a listing would read a tree per repository.
	ReadmePath(ctx context.Context, p *ent.Project) string
}

// DeleteHook removes rows of another domain that reference a project, inside the deletion's
// transaction (merge requests, pipelines, ...), so that deleting a project never trips a
// foreign key.
type DeleteHook func(ctx context.Context, client *ent.Client, p *ent.Project) error

// The actions a ChangeHook is told of: GitLab's project_update, project_rename and
// project_transfer.
const (
	Updated     = "updated"
	Renamed     = "renamed"
	Transferred = "transferred"
)

// ChangeHook is told, inside the transaction of the change, that actor updated a project's
// attributes (Updated), changed its path (Renamed) or moved it to another namespace
// (Transferred); before and after have their namespace edge loaded. An error rolls the change
// back.
type ChangeHook func(ctx context.Context, actor *authz.Actor, action string, before, after *ent.Project) error

// Later is what the project service needs from domains built after it, because they find
// projects through it: the git layer and the other domains' clean-up of a deleted project.
type Later struct {
	Repos    Repositories
	OnDelete []DeleteHook
	// OnChange are told of updates, renames and transfers.
	OnChange []ChangeHook
	// StorageMoves schedules the move a new repository_storage asks for.
	StorageMoves StorageMover
}

// StorageMover is what a project update needs of the storage moves: repository_storage is never
// written as a column, it schedules a move (GitLab's project repository storage moves).
type StorageMover interface {
	// KnownStorage reports whether name is a configured storage.
	KnownStorage(name string) bool
	// ScheduleMove schedules the move of p's repository to destination inside the transaction
	// in ctx, making the project read-only until the move switches it over or fails.
	ScheduleMove(ctx context.Context, p *ent.Project, destination string) error
}

// Complete finishes building the service with the domains built after it. The build is two
// steps only because of that cycle; Complete must be called exactly once, with a repository
// layer, before the service serves (service.New does), and panics otherwise.
func (s *Service) Complete(l Later) {
	if s.repos != nil {
		panic("projects: Complete called twice")
	}
	if l.Repos == nil {
		panic("projects: built without its repositories")
	}
	if l.StorageMoves == nil {
		panic("projects: built without its storage moves")
	}
	s.repos, s.onDelete, s.onChange, s.moves = l.Repos, l.OnDelete, l.OnChange, l.StorageMoves
}

// changed reloads project id in the transaction of ctx and tells the change hooks.
func (s *Service) changed(ctx context.Context, c *ent.Client, actor *authz.Actor, action string, before *ent.Project) error {
	if len(s.onChange) == 0 {
		return nil
	}
	after, err := c.Project.Query().Where(project.ID(before.ID)).WithNamespace().Only(ctx)
	if err != nil {
		return err
	}
	for _, hook := range s.onChange {
		if err := hook(ctx, actor, action, before, after); err != nil {
			return err
		}
	}
	return nil
}

// DeleteDependents removes the rows other domains keep for p (their DeleteHooks), inside the
// deletion's transaction that c belongs to.
func (s *Service) DeleteDependents(ctx context.Context, c *ent.Client, p *ent.Project) error {
	for _, hook := range s.onDelete {
		if err := hook(ctx, c, p); err != nil {
			return err
		}
	}
	return nil
}

// RemoveRepository queues the removal of the repository of a project deleted in the
// transaction of ctx.
func (s *Service) RemoveRepository(ctx context.Context, p *ent.Project) error {
	return s.repos.Delete(ctx, p)
}

// EmptyRepository reports whether p's repository has no commits.
func (s *Service) EmptyRepository(ctx context.Context, p *ent.Project) bool {
	return s.repos.Empty(ctx, p)
}
