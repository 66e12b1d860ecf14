package git

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"

	"anvil/internal/git/gitcmd"
)

// ArchiveFormat is an archive format.
type ArchiveFormat string

// Archive formats. tar, tar.gz and zip are written by git archive itself (tar.gz with git's
// internal gzip); tar.bz2 pipes git's tar through the bzip2 program (Go's standard library can
// only decompress bzip2), so it needs bzip2 on the host and otherwise fails with ErrUnsupported.
const (
	ArchiveTar    ArchiveFormat = "tar"
	ArchiveTarGz  ArchiveFormat = "tar.gz"
	ArchiveZip    ArchiveFormat = "zip"
	ArchiveTarBz2 ArchiveFormat = "tar.bz2"
)

// ParseArchiveFormat maps GitLab's archive suffixes ("" means tar.gz; "tgz"; "bz2", "tb2",
// "tbz", "tbz2" mean tar.bz2) to a format.
func ParseArchiveFormat(suffix string) (ArchiveFormat, error) {
	switch strings.TrimPrefix(suffix, ".") {
	case "", "tar.gz", "tgz", "gz":
		return ArchiveTarGz, nil
	case "tar":
		return ArchiveTar, nil
	case "zip":
		return ArchiveZip, nil
	case "tar.bz2", "bz2", "tb2", "tbz", "tbz2":
		return ArchiveTarBz2, nil
	}
	return "", fmt.Errorf("%w: archive format %q", ErrUnsupported, suffix)
}

// ArchiveOptions describe an archive.
type ArchiveOptions struct {
	// Revision is the commit (or tree) to archive.
	Revision string
	Format   ArchiveFormat
	// Prefix is prepended to every path ("project-main-1a2b3c/"; end it with "/").
	Prefix string
	// Path restricts the archive to this file or directory (kept at its full path).
	Path string
}

// Archive streams an archive into w. The revision and path are checked first, so a bad one
// fails with ErrReferenceNotFound or ErrPathNotFound before anything is written.
func (r *Repository) Archive(ctx context.Context, w io.Writer, opts ArchiveOptions) error {
	path, err := CleanPath(opts.Path)
	if err != nil {
		return err
	}
	if strings.ContainsAny(opts.Prefix, "\x00\n") {
		return fmt.Errorf("%w: archive prefix", ErrInvalidArgument)
	}
	if _, err := r.TreeEntryAt(ctx, opts.Revision, path); err != nil {
		return err
	}
	info, err := r.ReadObjectInfo(ctx, opts.Revision)
	if err != nil {
		return err
	}
	// Archive the id, not the name, so the archive is exactly what was checked.
	target := string(info.ID)
	if info.Type == TypeTag {
		if target, err = r.peel(ctx, opts.Revision); err != nil {
			return err
		}
	}
	cmd := gitcmd.New("archive")
	switch opts.Format {
	case ArchiveTar, ArchiveTarBz2:
		cmd.Flag("--format=tar")
	case ArchiveTarGz:
		cmd.Flag("--format=tar.gz")
	case ArchiveZip:
		cmd.Flag("--format=zip")
	default:
		return fmt.Errorf("%w: archive format %q", ErrUnsupported, opts.Format)
	}
	cmd.Option("--prefix", opts.Prefix).Arg(target)
	if path != "" {
		cmd.Paths(path)
	}
	if opts.Format != ArchiveTarBz2 {
		if err := r.run(ctx, cmd, gitcmd.Stdout(w)); err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		return nil
	}
	return r.archiveBzip2(ctx, w, cmd)
}

// peel resolves a tag to the commit or tree it points at.
func (r *Repository) peel(ctx context.Context, rev string) (string, error) {
	info, err := r.ReadObjectInfo(ctx, rev+"^{}")
	if err != nil {
		return "", err
	}
	return string(info.ID), nil
}

// archiveBzip2 pipes git's tar output through bzip2 (run directly, no shell, empty
// environment so BZIP2/BZIP variables cannot change its options).
func (r *Repository) archiveBzip2(ctx context.Context, w io.Writer, cmd *gitcmd.Cmd) error {
	if r.c.bzip2 == "" {
		return fmt.Errorf("archive: %w: bzip2 is not installed", ErrUnsupported)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	bz := exec.CommandContext(ctx, r.c.bzip2, "-c")
	bz.Env = []string{}
	bz.Stdin, bz.Stdout = pr, w
	bz.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := bz.Start(); err != nil {
		return fmt.Errorf("archive: start bzip2: %w", err)
	}
	errc := make(chan error, 1)
	go func() {
		err := r.run(ctx, cmd, gitcmd.Stdout(pw))
		_ = pw.CloseWithError(err)
		errc <- err
	}()
	bzErr := bz.Wait()
	// If bzip2 stopped early (the client went away), unblock git's writes so it ends too.
	_ = pr.CloseWithError(io.ErrClosedPipe)
	if bzErr != nil {
		cancel()
	}
	gitErr := <-errc
	if gitErr != nil {
		return fmt.Errorf("archive: %w", gitErr)
	}
	if bzErr != nil {
		return fmt.Errorf("archive: bzip2: %w", bzErr)
	}
	return nil
}
