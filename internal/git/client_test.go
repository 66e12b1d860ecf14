package git_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestClient_new(t *testing.T) {
	t.Parallel()
	c, err := git.New(ctx, git.Config{})
	require.NoError(t, err)
	require.True(t, c.Version().AtLeast(git.MinimumVersion))
	require.NotNil(t, c.Runner())
	require.NoError(t, c.Close())

	_, err = git.New(ctx, git.Config{Binary: "/nonexistent/git"})
	require.Error(t, err)
	_, err = git.New(ctx, git.Config{HomeDir: filepath.Join(t.TempDir(), "missing")})
	require.Error(t, err)
}

func TestClient_ignoresTheServiceEnvironment(t *testing.T) {
	// The server's own environment and home directory must not reach git: a global config
	// with a template directory (hooks), a replace ref, a GIT_DIR.
	home := t.TempDir()
	tmpl := filepath.Join(home, "template")
	require.NoError(t, os.MkdirAll(filepath.Join(tmpl, "hooks"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(tmpl, "hooks", "pre-receive"), []byte("#!/bin/sh\nexit 1\n"), 0o755))
	cfg := "[init]\n\ttemplateDir = " + tmpl + "\n[user]\n\tname = Evil\n"
	require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o644))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_DIR", t.TempDir())
	t.Setenv("GIT_TEMPLATE_DIR", tmpl)

	c := gittest.NewClient(t)
	path := filepath.Join(t.TempDir(), "r.git")
	require.NoError(t, c.InitBare(ctx, path, "main"))
	_, err := os.Stat(filepath.Join(path, "hooks", "pre-receive"))
	require.True(t, os.IsNotExist(err), "template applied")
	require.ErrorIs(t, c.InitBare(ctx, filepath.Join(t.TempDir(), "x.git"), "-bad"), git.ErrInvalidRefName)
}

func TestClient_replaceRefsIgnored(t *testing.T) {
	t.Parallel()
	repo := history(t)
	// refs/replace/<init> → readme: git would show readme's content when asked for init.
	gittest.Git(t, repo.Path(), nil, "update-ref", "refs/replace/"+string(repo.Commit("init")), string(repo.Commit("readme")))
	// A fresh client: git reads replace refs once per process.
	fresh := gittest.NewClient(t).Repository(repo.Path())
	c, err := fresh.ReadCommit(ctx, string(repo.Commit("init")))
	require.NoError(t, err)
	require.Equal(t, "init\n", c.Message)
	commits, err := fresh.Log(ctx, git.LogOptions{Revisions: []string{"v1.0"}})
	require.NoError(t, err)
	require.Len(t, commits, 1)
	require.Equal(t, repo.Commit("init"), commits[0].ID)
}

func TestClient_closeStopsReads(t *testing.T) {
	t.Parallel()
	cctx, cancel := context.WithCancel(context.Background())
	c, err := git.New(cctx, git.Config{HomeDir: t.TempDir()})
	require.NoError(t, err)
	repo := gittest.Build(t, c, filepath.Join(t.TempDir(), "r.git"), gittest.Spec{
		Commits: []gittest.CommitSpec{{Label: "c", Files: map[string]string{"a": "a"}}}})
	_, err = repo.ReadCommit(ctx, "main")
	require.NoError(t, err)
	cancel()
	require.NoError(t, c.Close())
	_, err = repo.ReadCommit(ctx, "main")
	require.Error(t, err)
}

func TestRepository_missing(t *testing.T) {
	t.Parallel()
	repo := gittest.NewClient(t).Repository(filepath.Join(t.TempDir(), "missing.git"))
	_, err := repo.ReadCommit(ctx, "main")
	require.ErrorIs(t, err, git.ErrRepositoryNotFound)
	_, err = repo.Log(ctx, git.LogOptions{})
	require.ErrorIs(t, err, git.ErrRepositoryNotFound)
	_, err = repo.ListRefs(ctx, git.ListRefsOptions{})
	require.ErrorIs(t, err, git.ErrRepositoryNotFound)
	_, err = repo.Diff(ctx, "", "main", git.DiffOptions{})
	require.ErrorIs(t, err, git.ErrRepositoryNotFound)
	err = repo.UploadPack(ctx, git.PackOptions{Stdout: io.Discard, AdvertiseRefs: true})
	require.ErrorIs(t, err, git.ErrRepositoryNotFound)
	_, err = repo.ListTree(ctx, "main", "", git.ListTreeOptions{})
	require.ErrorIs(t, err, git.ErrRepositoryNotFound)
}
