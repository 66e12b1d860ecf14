package repofiles

import (
	"context"
	"errors"
	"path"

	"anvil/internal/authz"
	"anvil/internal/git"
)

// FilesParams select several files at one commit (GraphQL's repository blobs).
type FilesParams struct {
	// Paths are the files asked for; one that is not a file at Ref (or not a usable path) is
	// left out, as GitLab leaves it out.
	Paths []string
	// Ref is a branch, tag or commit; "" means the default branch.
	Ref string
	// Content loads each file's whole content.
	Content bool
}

// GetFiles returns the files at p.Paths of one commit, in the order asked, with their content
// when p.Content: one authorization, and a fixed number of cat-file round trips (one per
// directory level, one for the contents) however many paths are asked for. Unlike GetFile it
// does not look up each file's last commit (LastCommitID stays empty) nor hash contents.
// An unknown ref is 404 Commit Not Found.
func (s *Service) GetFiles(ctx context.Context, actor *authz.Actor, projectRef string, p FilesParams) ([]*File, error) {
	_, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	ref := p.Ref
	if ref == "" {
		if ref, err = repo.Head(ctx); err != nil {
			return nil, err
		}
	}
	commit, err := repo.ResolveCommit(ctx, ref)
	if err != nil {
		return nil, notFound(err, "Commit")
	}
	paths := make([]string, len(p.Paths))
	for i, fp := range p.Paths {
		if clean, err := checkFilePath(fp, false); err == nil {
			paths[i] = clean
		}
	}
	entries, err := repo.TreeEntriesAt(ctx, string(commit), paths)
	if err != nil {
		return nil, notFound(err, "Commit")
	}
	var out []*File
	var blobs []git.ObjectID
	var loaded []*File
	for i, e := range entries {
		if e == nil || (e.Type != git.TypeBlob && e.Type != git.TypeCommit) {
			continue
		}
		f := &File{Name: path.Base(e.Path), Path: paths[i], Ref: ref, BlobID: e.ID, CommitID: commit,
			Executable: e.Mode == "100755", repo: repo}
		if e.Type == git.TypeCommit {
			f.Content = []byte{} // a submodule shows as an empty file
		} else {
			f.Size = e.Size
			if p.Content {
				blobs = append(blobs, e.ID)
				loaded = append(loaded, f)
			}
		}
		out = append(out, f)
	}
	if len(blobs) > 0 {
		data, err := repo.ReadBlobs(ctx, blobs, -1)
		if err != nil {
			return nil, err
		}
		for i, b := range data {
			loaded[i].Content = b.Data
		}
	}
	return out, nil
}

// FlatPaths returns, for each directory directly in dir at commit (a branch, tag or commit),
// its flat path as Gitaly computes it for GitLab's tree entries: descending while a directory
// holds nothing but one directory, at most FlatPathDepth levels. A dir that is not a
// directory there has none.
func (s *Service) FlatPaths(ctx context.Context, actor *authz.Actor, projectRef, commit, dir string) (map[string]string, error) {
	_, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	out, err := repo.FlatPaths(ctx, commit, dir, FlatPathDepth)
	switch {
	case errors.Is(err, git.ErrPathNotFound), errors.Is(err, git.ErrInvalidPath):
		return map[string]string{}, nil
	case err != nil:
		return nil, notFound(err, "Commit")
	}
	return out, nil
}

// FlatPathDepth is how many single-directory levels a flat path descends at most (Gitaly's
// defaultFlatTreeRecursion less the entry itself).
const FlatPathDepth = 9
