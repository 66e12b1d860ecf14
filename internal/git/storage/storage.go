// Package storage places bare repositories on disk: hashed paths under one of several storage
// roots chosen by weight (GitLab's repository_storages_weighted), atomic creation, durable
// removal.
package storage

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"anvil/internal/git"
)

// Errors of the storage layer.
var (
	// ErrUnknownStorage: the storage name is not configured.
	ErrUnknownStorage = errors.New("unknown repository storage")
	// ErrNoStorage: no storage has a positive weight.
	ErrNoStorage = errors.New("no repository storage available")
	// ErrRepositoryExists: something is already at the repository's path.
	ErrRepositoryExists = errors.New("repository already exists")
	// ErrRepositoryNotFound: no repository at the path.
	ErrRepositoryNotFound = errors.New("repository not found")
	// ErrInvalidPath: a relative path is not a clean path under the storage root.
	ErrInvalidPath = errors.New("invalid repository path")
)

// deletedSuffix marks a repository moved aside for removal.
const deletedSuffix = "+deleted.git"

// creatingMarker marks a repository being initialised.
const creatingMarker = "+creating+"

// HashedPath returns the relative path of a project's repository: "@hashed/ab/cd/<h>.git"
// with h the hex SHA-256 of the decimal project id, as GitLab lays out repositories.
func HashedPath(projectID int64) string {
	sum := sha256.Sum256([]byte(strconv.FormatInt(projectID, 10)))
	h := hex.EncodeToString(sum[:])
	return "@hashed/" + h[0:2] + "/" + h[2:4] + "/" + h + ".git"
}

// SnippetHashedPath returns the relative path of a snippet's repository:
// "@snippets/ab/cd/<h>.git" with h the hex SHA-256 of the decimal snippet id, as GitLab lays out
// snippet repositories (apart from projects', so the project sweep never sees them).
func SnippetHashedPath(snippetID int64) string {
	sum := sha256.Sum256([]byte(strconv.FormatInt(snippetID, 10)))
	h := hex.EncodeToString(sum[:])
	return "@snippets/" + h[0:2] + "/" + h[2:4] + "/" + h + ".git"
}

// WikiHashedPath is the relative path of a project's wiki repository.
func WikiHashedPath(projectID int64) string {
	return strings.TrimSuffix(HashedPath(projectID), ".git") + ".wiki.git"
}

// Config lists the storages.
type Config struct {
	// Roots maps storage names to absolute directories, created if missing.
	Roots map[string]string
	// Weights chooses the storage of new repositories (GitLab's repository_storages_weighted):
	// a storage is picked with probability weight/sum; 0 or absent never gets new ones.
	Weights map[string]int
}

// Storage places repositories. It is safe for concurrent use.
type Storage struct {
	git     *git.Client
	roots   map[string]string
	weights map[string]int
	names   []string // sorted, for a stable pick
}

// New checks cfg and creates missing root directories.
func New(client *git.Client, cfg Config) (*Storage, error) {
	if len(cfg.Roots) == 0 {
		return nil, fmt.Errorf("%w: none configured", ErrNoStorage)
	}
	s := &Storage{git: client, roots: map[string]string{}, weights: map[string]int{}}
	for name, root := range cfg.Roots {
		if name == "" || !filepath.IsAbs(root) {
			return nil, fmt.Errorf("storage %q: root %q must be an absolute path", name, root)
		}
		if err := os.MkdirAll(root, 0o750); err != nil {
			return nil, fmt.Errorf("storage %q: %w", name, err)
		}
		s.roots[name] = filepath.Clean(root)
		s.names = append(s.names, name)
	}
	sort.Strings(s.names)
	if err := s.SetWeights(cfg.Weights); err != nil {
		return nil, err
	}
	return s, nil
}

// SetWeights replaces the weights (the instance setting changed). Not safe to call
// concurrently with Pick.
func (s *Storage) SetWeights(weights map[string]int) error {
	w := map[string]int{}
	for name, v := range weights {
		if _, ok := s.roots[name]; !ok {
			return fmt.Errorf("%w: %q", ErrUnknownStorage, name)
		}
		if v < 0 {
			return fmt.Errorf("storage %q: negative weight", name)
		}
		w[name] = v
	}
	s.weights = w
	return nil
}

// Names lists the configured storages, sorted.
func (s *Storage) Names() []string { return append([]string(nil), s.names...) }

// Pick chooses the storage of a new repository by weight.
func (s *Storage) Pick() (string, error) {
	total := 0
	for _, name := range s.names {
		total += s.weights[name]
	}
	if total == 0 {
		return "", ErrNoStorage
	}
	n, err := rand.Int(rand.Reader, big.NewInt(int64(total)))
	if err != nil {
		return "", fmt.Errorf("pick storage: %w", err)
	}
	left := int(n.Int64())
	for _, name := range s.names {
		if left < s.weights[name] {
			return name, nil
		}
		left -= s.weights[name]
	}
	return "", ErrNoStorage
}

// Path returns the absolute path of relPath in storage.
func (s *Storage) Path(storage, relPath string) (string, error) {
	root, ok := s.roots[storage]
	if !ok {
		return "", fmt.Errorf("%w: %q", ErrUnknownStorage, storage)
	}
	if relPath == "" || filepath.IsAbs(relPath) || filepath.Clean(relPath) != relPath ||
		strings.HasPrefix(relPath, "..") || !strings.HasSuffix(relPath, ".git") ||
		strings.Contains(relPath, creatingMarker) || strings.HasSuffix(relPath, deletedSuffix) {
		return "", fmt.Errorf("%w: %q", ErrInvalidPath, relPath)
	}
	return filepath.Join(root, relPath), nil
}

// Repository returns the repository at relPath in storage (it may not exist).
func (s *Storage) Repository(storage, relPath string) (*git.Repository, error) {
	p, err := s.Path(storage, relPath)
	if err != nil {
		return nil, err
	}
	return s.git.Repository(p), nil
}

// Exists reports whether a repository is at relPath in storage.
func (s *Storage) Exists(storage, relPath string) (bool, error) {
	repo, err := s.Repository(storage, relPath)
	if err != nil {
		return false, err
	}
	return repo.Exists(), nil
}

// Create initialises an empty bare repository at relPath in storage with HEAD naming
// defaultBranch. It is built beside its final path and renamed into place, so the path never
// holds a half-initialised repository; if something is there already it fails with
// ErrRepositoryExists.
func (s *Storage) Create(ctx context.Context, storage, relPath, defaultBranch string) (*git.Repository, error) {
	final, err := s.Path(storage, relPath)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(final); err == nil {
		return nil, fmt.Errorf("%w: %s", ErrRepositoryExists, relPath)
	}
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o750); err != nil {
		return nil, fmt.Errorf("create repository: %w", err)
	}
	tmp := strings.TrimSuffix(final, ".git") + creatingMarker + randomSuffix() + ".git"
	if err := s.git.InitBare(ctx, tmp, defaultBranch); err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, final); err != nil {
		_ = os.RemoveAll(tmp)
		if isNotEmpty(err) {
			return nil, fmt.Errorf("%w: %s", ErrRepositoryExists, relPath)
		}
		return nil, fmt.Errorf("create repository: %w", err)
	}
	if err := syncDir(parent); err != nil {
		return nil, fmt.Errorf("create repository: %w", err)
	}
	return s.git.Repository(final), nil
}

// Remove deletes the repository at relPath in storage. It is first renamed to a "+deleted"
// path and the rename is synced to disk, so the repository is gone from its path even if the
// process dies during the deletion itself; leftovers are cleared by SweepDeleted.
func (s *Storage) Remove(ctx context.Context, storage, relPath string) error {
	final, err := s.Path(storage, relPath)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(final); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrRepositoryNotFound, relPath)
	}
	s.git.Evict(final)
	moved := strings.TrimSuffix(final, ".git") + "+" + randomSuffix() + deletedSuffix
	if err := os.Rename(final, moved); err != nil {
		return fmt.Errorf("remove repository: %w", err)
	}
	if err := syncDir(filepath.Dir(final)); err != nil {
		return fmt.Errorf("remove repository: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil // the repository is gone; SweepDeleted finishes the job
	}
	if err := os.RemoveAll(moved); err != nil {
		return fmt.Errorf("remove repository files (swept later): %w", err)
	}
	return nil
}

// SweepDeleted removes what interrupted removals and creations left behind ("+deleted"
// directories, and "+creating+" ones older than creatingGrace: younger ones may be creations
// still running) under every storage root, and returns how many it removed. The repository
// sweep job runs it at start and every hour.
func (s *Storage) SweepDeleted(ctx context.Context, creatingGrace time.Duration) (int, error) {
	n := 0
	for _, name := range s.names {
		root := s.roots[name]
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if !d.IsDir() || p == root {
				return nil
			}
			base := d.Name()
			stale := strings.HasSuffix(base, deletedSuffix)
			if strings.Contains(base, creatingMarker) {
				// A creation still running must not be swept: only old ones are abandoned.
				if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > creatingGrace {
					stale = true
				}
			}
			if stale {
				if err := os.RemoveAll(p); err != nil {
					return err
				}
				n++
				return filepath.SkipDir
			}
			if strings.HasSuffix(base, ".git") {
				return filepath.SkipDir // a repository: nothing inside to sweep
			}
			return nil
		})
		if err != nil {
			return n, fmt.Errorf("sweep storage %q: %w", name, err)
		}
	}
	return n, nil
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(time.Now().Unix(), 10) + "-" + hex.EncodeToString(b[:])
}

func isNotEmpty(err error) bool {
	return errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
