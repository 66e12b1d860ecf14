package repofiles

import (
	"context"
	"io"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// ArchiveParams are the parameters of GET /projects/:id/repository/archive[.format].
type ArchiveParams struct {
	// SHA is a commit, branch or tag (sha); "" means the default branch.
	SHA string
	// Path restricts the archive to a subdirectory or file (path).
	Path string
	// Format is the suffix of the route or the format parameter ("" and unknown formats mean
	// tar.gz).
	Format string
}

// Archive is an archive ready to stream: the commit is resolved and the path checked.
type Archive struct {
	// FileName is what GitLab names the download: <project>-<ref>-<sha>[-<path>].<extension>.
	FileName string
	Format   git.ArchiveFormat
	opts     git.ArchiveOptions
	repo     *git.Repository
}

// WriteTo streams the archive into w as git writes it, never holding it whole.
func (a *Archive) WriteTo(ctx context.Context, w io.Writer) error {
	return a.repo.Archive(ctx, w, a.opts)
}

// PrepareArchive checks an archive request and names the file (as GitLab's archive_prefix
// does: the project path, the ref with "/" turned into "-", the commit id, and the path with
// "/" turned into "-"); the same name less the extension prefixes every entry. Anything that
// does not resolve is 404 File Not Found, as GitLab answers.
func (s *Service) PrepareArchive(ctx context.Context, actor *authz.Actor, projectRef string, p ArchiveParams) (*Archive, error) {
	format, err := git.ParseArchiveFormat(strings.ToLower(p.Format))
	if err != nil {
		format = git.ArchiveTarGz // GitLab falls back to tar.gz for any other format
	}
	proj, repo, err := s.open(ctx, actor, projectRef, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	ref := p.SHA
	if ref == "" {
		if ref, err = repo.Head(ctx); err != nil {
			return nil, err
		}
	}
	commit, err := repo.ResolveCommit(ctx, ref)
	if err != nil {
		return nil, notFound(err, "File")
	}
	path, err := git.CleanPath(p.Path)
	if err != nil {
		return nil, apperr.NotFound("File")
	}
	if path != "" {
		if _, err := repo.TreeEntryAt(ctx, string(commit), path); err != nil {
			return nil, notFound(err, "File")
		}
	}
	segments := []string{proj.Path, strings.ReplaceAll(ref, "/", "-"), string(commit)}
	if p.Path != "" {
		segments = append(segments, strings.ReplaceAll(p.Path, "/", "-"))
	}
	name := strings.Join(segments, "-")
	return &Archive{
		FileName: name + "." + string(format),
		Format:   format,
		opts:     git.ArchiveOptions{Revision: string(commit), Format: format, Prefix: name + "/", Path: path},
		repo:     repo,
	}, nil
}
