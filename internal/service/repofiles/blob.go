package repofiles

import (
	"context"
	"io"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// Blob returns a blob with its whole content (GET /projects/:id/repository/blobs/:sha). sha is
// a blob id (abbreviations resolve as git resolves them); anything that does not name a blob is
// 404 Blob Not Found.
func (s *Service) Blob(ctx context.Context, actor *authz.Actor, projectRef, sha string) (*git.Blob, error) {
	_, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	b, err := repo.ReadBlob(ctx, sha, -1)
	if err != nil {
		return nil, notFound(err, "Blob")
	}
	return b, nil
}

// BlobReader streams one blob that has been found and authorized.
type BlobReader struct {
	// ID and Size describe the blob.
	ID   git.ObjectID
	Size int64
	repo *git.Repository
}

// WriteTo streams the blob's content into w without holding it in memory.
func (b *BlobReader) WriteTo(ctx context.Context, w io.Writer) error {
	_, err := b.repo.ReadBlobTo(ctx, b.ID, w)
	return err
}

// Peek returns the first n bytes of the blob (what decides its content type).
func (b *BlobReader) Peek(ctx context.Context, n int64) ([]byte, error) {
	blob, err := b.repo.ReadBlob(ctx, string(b.ID), n)
	if err != nil {
		return nil, err
	}
	return blob.Data, nil
}

// RawBlob finds a blob for streaming (GET /projects/:id/repository/blobs/:sha/raw); nothing is
// read until WriteTo.
func (s *Service) RawBlob(ctx context.Context, actor *authz.Actor, projectRef, sha string) (*BlobReader, error) {
	_, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	info, err := repo.ReadObjectInfo(ctx, sha)
	if err != nil {
		return nil, notFound(err, "Blob")
	}
	if info.Type != git.TypeBlob {
		return nil, apperr.NotFound("Blob")
	}
	return &BlobReader{ID: info.ID, Size: info.Size, repo: repo}, nil
}
