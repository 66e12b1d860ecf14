package repofiles

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// File is a file of the repository at a commit: GitLab's blob_data of the files API, plus the
// content when it was asked for.
type File struct {
	Name string
	Path string
	Size int64
	// Ref is the ref as the caller gave it (or the default branch when it gave none).
	Ref          string
	BlobID       git.ObjectID
	CommitID     git.ObjectID
	LastCommitID git.ObjectID
	Executable   bool
	// SHA256 is the content's SHA-256, lower-case hexadecimal (content_sha256).
	SHA256 string
	// Content is the whole content when loaded (GET .../files/:file_path), else nil.
	Content []byte

	repo *git.Repository
}

// WriteTo streams the file's content into w: from memory when it is loaded, else from git.
func (f *File) WriteTo(ctx context.Context, w io.Writer) error {
	if f.Content != nil || f.Size == 0 {
		_, err := w.Write(f.Content)
		return err
	}
	_, err := f.repo.ReadBlobTo(ctx, f.BlobID, w)
	return err
}

// Peek returns the first n bytes of the content (what decides its content type).
func (f *File) Peek(ctx context.Context, n int64) ([]byte, error) {
	if f.Content != nil {
		return f.Content[:min(int64(len(f.Content)), n)], nil
	}
	b, err := f.repo.ReadBlob(ctx, string(f.BlobID), n)
	if err != nil {
		return nil, err
	}
	return b.Data, nil
}

// FileParams select a file.
type FileParams struct {
	// Path is the file_path parameter, percent-decoded once.
	Path string
	// Ref is a branch, tag or commit (ref); "" means the default branch (raw downloads only:
	// the handler requires ref elsewhere).
	Ref string
	// Content loads the whole content (else it is streamed by WriteTo).
	Content bool
	// Raw accepts one leading "/" in Path, as GitLab's raw endpoint does.
	Raw bool
	// LFS asks for the object an LFS pointer names (raw downloads' lfs parameter).
	LFS bool
}

// inMemoryLimit is the size up to which a raw file is read once into memory (hashed and sent
// from the same buffer); larger files are streamed twice, once through the hash.
const inMemoryLimit = 1 << 20

// GetFile returns a file's metadata and, with p.Content, its content (GET, HEAD and raw
// downloads of /projects/:id/repository/files/:file_path). An unknown ref is 404 Commit Not
// Found; a path that is not a file at that commit is 404 File Not Found.
func (s *Service) GetFile(ctx context.Context, actor *authz.Actor, projectRef string, p FileParams) (*File, error) {
	filePath, err := checkFilePath(p.Path, p.Raw)
	if err != nil {
		return nil, err
	}
	proj, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	f, err := s.findFile(ctx, proj, repo, p.Ref, filePath)
	if err != nil {
		return nil, err
	}
	if p.LFS && f.Size < lfsPointerMax {
		if err := s.loadContent(ctx, f); err != nil {
			return nil, err
		}
		if isLFSPointer(f.Content) {
			// Anvil keeps no LFS objects, so the object a pointer names is never available.
			return nil, apperr.NotFound("")
		}
	}
	if p.Content || f.Size <= inMemoryLimit {
		if err := s.loadContent(ctx, f); err != nil {
			return nil, err
		}
		return f, nil
	}
	if err := s.checksum(ctx, f); err != nil {
		return nil, err
	}
	return f, nil
}

// findFile resolves ref and path to a file with its last commit (cached: repos.LastCommitForPath).
func (s *Service) findFile(ctx context.Context, p *ent.Project, repo *git.Repository, ref, filePath string) (*File, error) {
	if ref == "" {
		head, err := repo.Head(ctx)
		if err != nil {
			return nil, err
		}
		ref = head
	}
	commit, err := repo.ResolveCommit(ctx, ref)
	if err != nil {
		return nil, notFound(err, "Commit")
	}
	entry, err := repo.TreeEntryAt(ctx, string(commit), filePath)
	if err != nil {
		return nil, notFound(err, "File")
	}
	f := &File{Name: path.Base(entry.Path), Path: filePath, Ref: ref, BlobID: entry.ID, CommitID: commit,
		Executable: entry.Mode == "100755", repo: repo}
	switch entry.Type {
	case git.TypeBlob:
		f.Size = entry.Size
	case git.TypeCommit:
		// GitLab presents a submodule as an empty file named after it.
		f.Content = []byte{}
	default:
		return nil, apperr.NotFound("File")
	}
	last, err := s.repos.LastCommitForPath(ctx, p, repo, commit, filePath)
	if err != nil {
		return nil, notFound(err, "File")
	}
	f.LastCommitID = last
	return f, nil
}

// loadContent reads the whole content of f and its SHA-256.
func (s *Service) loadContent(ctx context.Context, f *File) error {
	if f.Content == nil {
		b, err := f.repo.ReadBlob(ctx, string(f.BlobID), -1)
		if err != nil {
			return notFound(err, "File")
		}
		f.Content = b.Data
	}
	f.SHA256 = s.sums.sumOf(f.BlobID, f.Content)
	return nil
}

// checksum fills f.SHA256, hashing the loaded content or streaming the blob through the hash.
func (s *Service) checksum(ctx context.Context, f *File) error {
	if f.Content != nil {
		f.SHA256 = s.sums.sumOf(f.BlobID, f.Content)
		return nil
	}
	sum, err := s.sums.sumBlob(ctx, f.repo, f.BlobID)
	if err != nil {
		return notFound(err, "File")
	}
	f.SHA256 = sum
	return nil
}

// lfsPointerMax is the largest blob that can be an LFS pointer (GitLab's LFS_POINTER_MAX_SIZE).
const lfsPointerMax = 200

var lfsPointerPrefix = []byte("version https://git-lfs.github.com/spec/v1\n")

func isLFSPointer(data []byte) bool {
	return len(data) <= lfsPointerMax && bytes.HasPrefix(data, lfsPointerPrefix) &&
		bytes.Contains(data, []byte("\noid sha256:")) && bytes.Contains(data, []byte("\nsize "))
}

// BlameParams select a blame.
type BlameParams struct {
	Path string
	Ref  string
	// StartLine and EndLine restrict the blame (range[start], range[end]); zero means the whole
	// file.
	StartLine, EndLine int
}

// Blame returns the file's metadata and its lines grouped by the commit that last changed them
// (GET /projects/:id/repository/files/:file_path/blame).
func (s *Service) Blame(ctx context.Context, actor *authz.Actor, projectRef string, p BlameParams) (*File, []git.BlameRange, error) {
	filePath, err := checkFilePath(p.Path, false)
	if err != nil {
		return nil, nil, err
	}
	if p.StartLine > p.EndLine {
		return nil, nil, apperr.Refused("range[start] must be less than or equal to range[end]")
	}
	proj, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, nil, err
	}
	f, err := s.findFile(ctx, proj, repo, p.Ref, filePath)
	if err != nil {
		return nil, nil, err
	}
	if err := s.checksum(ctx, f); err != nil {
		return nil, nil, err
	}
	ranges, err := repo.Blame(ctx, string(f.CommitID), filePath, git.BlameOptions{StartLine: p.StartLine, EndLine: p.EndLine})
	if err != nil {
		if errors.Is(err, git.ErrInvalidArgument) {
			return nil, nil, apperr.BadRequest("range is outside of the file length")
		}
		return nil, nil, notFound(err, "File")
	}
	return f, ranges, nil
}
