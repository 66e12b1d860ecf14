package snippets

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/git"
)

// maxRawSize bounds the content read for a raw download (GitLab's snippet_size_limit is 50 MB).
const maxRawSize = 64 << 20

// RawFile is a file's content served raw.
type RawFile struct {
	Path string
	Data []byte
}

// Raw returns the first file of a snippet the caller found through a finder (GET .../raw),
// at its default branch.
func (s *Service) Raw(ctx context.Context, sn *ent.Snippet) (*RawFile, error) {
	path := sn.FileName
	if len(sn.Files) > 0 {
		path = sn.Files[0]
	}
	f, err := s.RawAt(ctx, sn, sn.DefaultBranch, path)
	if apperr.IsNotFound(err) {
		return &RawFile{Path: path, Data: []byte{}}, nil
	}
	return f, err
}

// RawAt returns file path at ref (a branch, tag or commit) of a snippet the caller found
// through a finder (GET .../files/:ref/:file_path/raw): 404 Reference Not Found for a ref that
// does not resolve, 404 File Not Found for a path that is not a file there.
func (s *Service) RawAt(ctx context.Context, sn *ent.Snippet, ref, path string) (*RawFile, error) {
	repo, err := s.repository(sn)
	if err != nil {
		return nil, err
	}
	if !repo.Exists() {
		return nil, apperr.NotFound("Snippet")
	}
	if git.ValidateRevision(ref) != nil {
		return nil, apperr.NotFound("Reference")
	}
	commit, err := repo.ResolveCommit(ctx, ref)
	if err != nil {
		if errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) {
			return nil, apperr.NotFound("Reference")
		}
		return nil, err
	}
	if git.ValidatePath(path) != nil {
		return nil, apperr.NotFound("File")
	}
	blob, err := repo.ReadBlobAt(ctx, string(commit), path, maxRawSize)
	if err != nil {
		// The commit exists, so anything not found is the path.
		if errors.Is(err, git.ErrObjectNotFound) || errors.Is(err, git.ErrReferenceNotFound) {
			return nil, apperr.NotFound("File")
		}
		return nil, err
	}
	return &RawFile{Path: path, Data: blob.Data}, nil
}
