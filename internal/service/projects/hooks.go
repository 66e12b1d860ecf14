package projects

import (
	"context"

	"anvil/ent"
)

// RepositoryHooks is where the git layer plugs into the project lifecycle. Create runs after
// the project row is committed; if it fails the row is removed again and the create answers
// 400 "Failed to create repository", so no half-made project remains. Delete runs after the
// row is gone (its failure is logged, the deletion stands). A nil RepositoryHooks means no
// repositories are managed.
type RepositoryHooks interface {
	// Create creates the project's repository; initReadme asks for a first commit with a
	// README.md on defaultBranch (empty means the instance default, "main").
	Create(ctx context.Context, p *ent.Project, initReadme bool, defaultBranch string) error
	// Delete removes the project's repository (and its wiki) from disk.
	Delete(ctx context.Context, p *ent.Project) error
}

// DefaultBranchSetter is implemented by repository hooks that can move HEAD. When the hooks
// implement it, changing default_branch goes through it, so that a branch that does not exist
// is refused; otherwise the new name is stored as given.
type DefaultBranchSetter interface {
	SetDefaultBranch(ctx context.Context, p *ent.Project, branch string) error
}

// RepositoryInspector is implemented by repository hooks that know whether a repository has
// commits (empty_repo); without it every project is presented as an empty repository.
type RepositoryInspector interface {
	Empty(ctx context.Context, p *ent.Project) bool
}

// RepositoryBatchInspector answers empty_repo for a whole page of projects at once. Listings
// of up to 100 projects use it when the hooks implement it, so an implementation should not
// start a process per repository; without it they ask RepositoryInspector per project, a few
// at a time.
type RepositoryBatchInspector interface {
	EmptyRepos(ctx context.Context, ps []*ent.Project) map[int]bool
}

// ReadmeFinder is implemented by repository hooks that can find the README at the root of a
// project's default branch (readme_url). Only single-project reads ask it: a listing would read
// a tree per repository.
type ReadmeFinder interface {
	ReadmePath(ctx context.Context, p *ent.Project) string
}

// DeleteHook removes rows of another domain that reference a project, inside the deletion's
// transaction (merge requests, pipelines, ...), so that deleting a project never trips a
// foreign key.
type DeleteHook func(ctx context.Context, client *ent.Client, p *ent.Project) error
