package git_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
)

// untar lists a tar stream as path → content ("/" suffix for directories).
func untar(t *testing.T, r io.Reader) map[string]string {
	t.Helper()
	out := map[string]string{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		b, err := io.ReadAll(tr)
		require.NoError(t, err)
		out[h.Name] = string(b)
		if h.Name == "p/run.sh" {
			require.EqualValues(t, 0o775, h.Mode&0o777, "executable bit kept")
		}
	}
}

func TestRepository_archive(t *testing.T) {
	t.Parallel()
	repo := history(t)
	whole := map[string]string{
		"p/":               "",
		"p/README.md":      "# Project\n\nHello, world.\n",
		"p/assets/":        "",
		"p/assets/bin.dat": "\x00\x01\x02binary",
		"p/docs/":          "",
		"p/docs/manual.md": "line 1\nline 2\nline 3\nline 4\nline 5\n",
		"p/feature.txt":    "feature\n",
		"p/run.sh":         "#!/bin/sh\necho hi\n",
	}
	read := func(format git.ArchiveFormat, data []byte) map[string]string {
		switch format {
		case git.ArchiveTar:
			return untar(t, bytes.NewReader(data))
		case git.ArchiveTarGz:
			zr, err := gzip.NewReader(bytes.NewReader(data))
			require.NoError(t, err)
			return untar(t, zr)
		case git.ArchiveTarBz2:
			return untar(t, bzip2.NewReader(bytes.NewReader(data)))
		case git.ArchiveZip:
			zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			require.NoError(t, err)
			out := map[string]string{}
			for _, f := range zr.File {
				rc, err := f.Open()
				require.NoError(t, err)
				b, err := io.ReadAll(rc)
				require.NoError(t, err)
				out[f.Name] = string(b)
			}
			return out
		}
		t.Fatalf("format %q", format)
		return nil
	}
	for _, format := range []git.ArchiveFormat{git.ArchiveTar, git.ArchiveTarGz, git.ArchiveZip, git.ArchiveTarBz2} {
		t.Run(string(format), func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, repo.Archive(ctx, &buf, git.ArchiveOptions{Revision: "main", Format: format, Prefix: "p/"}))
			require.Equal(t, whole, read(format, buf.Bytes()))
		})
	}
	t.Run("path restriction", func(t *testing.T) {
		var buf bytes.Buffer
		require.NoError(t, repo.Archive(ctx, &buf, git.ArchiveOptions{Revision: "main", Format: git.ArchiveTar, Prefix: "p/", Path: "docs"}))
		got := read(git.ArchiveTar, buf.Bytes())
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		require.Equal(t, []string{"p/", "p/docs/", "p/docs/manual.md"}, keys)
	})
	t.Run("a tag and an older commit", func(t *testing.T) {
		var buf bytes.Buffer
		require.NoError(t, repo.Archive(ctx, &buf, git.ArchiveOptions{Revision: "v1.0", Format: git.ArchiveTar, Prefix: "p/", Path: "docs/guide.md"}))
		require.Equal(t, "line 1\nline 2\nline 3\nline 4\nline 5\n", read(git.ArchiveTar, buf.Bytes())["p/docs/guide.md"])
	})
	t.Run("same bytes twice", func(t *testing.T) {
		var a, b bytes.Buffer
		require.NoError(t, repo.Archive(ctx, &a, git.ArchiveOptions{Revision: "main", Format: git.ArchiveTarGz}))
		require.NoError(t, repo.Archive(ctx, &b, git.ArchiveOptions{Revision: string(repo.Commit("rename")), Format: git.ArchiveTarGz}))
		require.Equal(t, a.Bytes(), b.Bytes(), "archives are reproducible (cacheable by commit)")
	})
	for _, tc := range []struct {
		desc string
		opts git.ArchiveOptions
		err  error
	}{
		{"unknown revision", git.ArchiveOptions{Revision: "nope", Format: git.ArchiveTar}, git.ErrReferenceNotFound},
		{"unknown path", git.ArchiveOptions{Revision: "main", Format: git.ArchiveTar, Path: "nope"}, git.ErrPathNotFound},
		{"bad path", git.ArchiveOptions{Revision: "main", Format: git.ArchiveTar, Path: "../x"}, git.ErrInvalidPath},
		{"bad format", git.ArchiveOptions{Revision: "main", Format: "rar"}, git.ErrUnsupported},
		{"bad prefix", git.ArchiveOptions{Revision: "main", Format: git.ArchiveTar, Prefix: "a\nb"}, git.ErrInvalidArgument},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var buf bytes.Buffer
			err := repo.Archive(ctx, &buf, tc.opts)
			require.ErrorIs(t, err, tc.err)
			require.Zero(t, buf.Len(), "nothing written before the error")
		})
	}
}

func TestParseArchiveFormat(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]git.ArchiveFormat{
		"": git.ArchiveTarGz, "tar.gz": git.ArchiveTarGz, ".tar.gz": git.ArchiveTarGz, "tgz": git.ArchiveTarGz,
		"tar": git.ArchiveTar, "zip": git.ArchiveZip,
		"bz2": git.ArchiveTarBz2, "tar.bz2": git.ArchiveTarBz2, "tb2": git.ArchiveTarBz2, "tbz": git.ArchiveTarBz2, "tbz2": git.ArchiveTarBz2,
	} {
		got, err := git.ParseArchiveFormat(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	_, err := git.ParseArchiveFormat("7z")
	require.ErrorIs(t, err, git.ErrUnsupported)
}
