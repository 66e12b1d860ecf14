// Package service wires the domain services together. Each sub-package owns one domain's
// operations; rest/ and graph/ call them and nothing below them.
package service

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"anvil/internal/authz"
	"anvil/internal/config"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/git/storage"
	"anvil/internal/service/branches"
	"anvil/internal/service/commits"
	"anvil/internal/service/forks"
	"anvil/internal/service/groups"
	"anvil/internal/service/members"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/repofiles"
	"anvil/internal/service/repos"
	"anvil/internal/service/settings"
	"anvil/internal/service/tags"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
)

// Services is every domain service of one server.
type Services struct {
	Config   config.Config
	DB       *db.DB
	Log      *slog.Logger
	Policy   *authz.Policy
	Settings *settings.Service
	Users    *users.Service
	Tokens   *tokens.Service
	Groups   *groups.Service
	Projects *projects.Service
	Members  *members.Service
	Repos    *repos.Service
	Git      *git.Client
	// ProtectedBranches holds branch protection and the ref update checks.
	ProtectedBranches *protectedbranches.Service
	// Commits lists, reads and writes commits (REST and GraphQL share it).
	Commits *commits.Service
	// Branches, Tags and Forks manage a repository's refs and a project's forks.
	Branches *branches.Service
	Tags     *tags.Service
	Forks    *forks.Service
	// Files reads trees, blobs, archives, comparisons and files, and commits file changes.
	Files *repofiles.Service
}

// New builds the services over an open database and the git client.
func New(ctx context.Context, cfg config.Config, d *db.DB, log *slog.Logger) (*Services, error) {
	policy := authz.New(d.Client)
	st := settings.New(d.Client)
	home := filepath.Join(cfg.DataDir, "git-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("git home: %w", err)
	}
	gitClient, err := git.New(ctx, git.Config{HomeDir: home})
	if err != nil {
		return nil, fmt.Errorf("git: %w", err)
	}
	var weights map[string]int
	if err := st.Get(ctx, "repository_storages_weighted", &weights); err != nil {
		_ = gitClient.Close()
		return nil, err
	}
	if _, ok := weights["default"]; !ok || len(weights) == 0 {
		weights = map[string]int{}
		for name := range cfg.RepositoryStorages {
			weights[name] = 100
		}
	}
	stor, err := storage.New(gitClient, storage.Config{Roots: cfg.RepositoryStorages, Weights: weights})
	if err != nil {
		_ = gitClient.Close()
		return nil, fmt.Errorf("repository storage: %w", err)
	}

	// Every service gets its collaborators when it is built (each constructor panics on a
	// missing one). The one cycle: projects are found through the project service by the
	// domains its lifecycle calls back (repositories, branch protection), so the project
	// service is built first and completed once those exist.
	p := projects.New(d.Client, policy, st)
	pb := protectedbranches.New(d.Client, policy, p, st, cfg.ExternalURL)
	r := repos.New(repos.Deps{
		Client: d.Client, Policy: policy, Projects: p, Settings: st,
		Git: gitClient, Storage: stor, Log: log, Protected: pb,
	})
	p.Complete(projects.Later{Repos: r, OnDelete: []projects.DeleteHook{pb.OnProjectDelete}})
	// A group deletion removes its projects through the repository service, which deletes
	// their repositories only after the deletion commits.
	g := groups.New(d.Client, policy, st, r)
	u := users.New(d.Client, st, p) // a deleted user's projects go through the project domain
	return &Services{
		Config: cfg, DB: d, Log: log, Policy: policy, Settings: st,
		Users: u,
		Tokens: tokens.New(d.Client, st, tokens.Deps{
			Users: u, Policy: policy, Projects: p, Groups: g, ExternalURL: cfg.ExternalURL,
		}),
		Groups:   g,
		Projects: p,
		Members:  members.New(d.Client, policy, g, p),
		Repos:    r,
		Git:      gitClient,

		ProtectedBranches: pb,
		Commits:           commits.New(d.Client, policy, p, r, pb, cfg.ExternalURL), // commits honour branch protection
		Branches:          branches.New(d.Client, policy, p, r, pb),
		Tags:              tags.New(policy, p, r),
		Forks:             forks.New(d.Client, policy, p, r, pb),
		Files:             repofiles.New(p, r, pb), // file commits honour branch protection
	}, nil
}

// Close stops the git processes the services keep.
func (s *Services) Close() error { return s.Git.Close() }
