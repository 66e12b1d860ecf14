package repositoryapi_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"io"
	"sort"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// archiveFiles decompresses an archive of format and returns its regular files' contents by
// name.
func archiveFiles(t *testing.T, format string, data []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	if format == "zip" {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		for _, f := range zr.File {
			if f.FileInfo().IsDir() {
				continue
			}
			rc, err := f.Open()
			require.NoError(t, err)
			b, err := io.ReadAll(rc)
			require.NoError(t, err)
			out[f.Name] = string(b)
		}
		return out
	}
	var r io.Reader = bytes.NewReader(data)
	switch format {
	case "", "tar.gz", "tgz", "gz":
		gz, err := gzip.NewReader(r)
		require.NoError(t, err)
		r = gz
	case "tar.bz2", "tbz", "tbz2", "tb2", "bz2":
		r = bzip2.NewReader(r)
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		require.NoError(t, err)
		out[h.Name] = string(b)
	}
	return out
}

func keysOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func testArchive(t *testing.T, f *fixture) {
	s := f.pubSeed
	prefix := "pub-main-" + string(s.merge)

	t.Run("every format decompresses", func(t *testing.T) {
		for _, format := range []string{"", "tar.gz", "tgz", "gz", "tar", "zip", "tar.bz2", "tbz", "tbz2", "tb2", "bz2"} {
			t.Run("format "+format, func(t *testing.T) {
				path := "/projects/g%2Fpub/repository/archive"
				ext := "tar.gz"
				switch format {
				case "tar", "zip", "tar.gz":
					ext = format
				case "tar.bz2", "tbz", "tbz2", "tb2", "bz2":
					ext = "tar.bz2"
				}
				if format != "" {
					path += "." + format
				}
				res := f.In.Do(t, "GET", path, "", nil)
				require.Equal(t, 200, res.Status, res.String())
				require.Equal(t, `attachment; filename="`+prefix+"."+ext+`"`, res.Header.Get("Content-Disposition"))
				wantType := "application/octet-stream"
				if format == "zip" {
					wantType = "application/zip"
				}
				require.Equal(t, wantType, res.Header.Get("Content-Type"))
				files := archiveFiles(t, format, res.Body)
				require.Equal(t, "# Demo\n\nHello, world.\n", files[prefix+"/README.md"])
				require.Equal(t, "feature\n", files[prefix+"/feature.txt"])
				require.Equal(t, string(pngBytes), files[prefix+"/docs/img/logo.png"])
				require.Contains(t, files, prefix+"/bin/run.sh")
			})
		}
	})

	t.Run("format parameter on the bare route", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/archive?format=zip", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Contains(t, archiveFiles(t, "zip", res.Body), prefix+"/README.md")
		res = f.In.Do(t, "GET", "/projects/g%2Fpub/repository/archive?format=rar", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, `attachment; filename="`+prefix+`.tar.gz"`, res.Header.Get("Content-Disposition"))
	})

	t.Run("sha and path", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/archive.tar?sha=feature&path=src", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		name := "pub-feature-" + string(s.feature) + "-src"
		require.Equal(t, `attachment; filename="`+name+`.tar"`, res.Header.Get("Content-Disposition"))
		require.Equal(t, []string{name + "/src/main.go", name + "/src/util/util.go"}, keysOf(archiveFiles(t, "tar", res.Body)))
	})

	t.Run("tag and nested path name", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/archive.zip?sha=v1.0&path=docs/img", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		name := "pub-v1.0-" + string(s.first) + "-docs-img"
		require.Equal(t, `attachment; filename="`+name+`.zip"`, res.Header.Get("Content-Disposition"))
		require.Equal(t, []string{name + "/docs/img/logo.png"}, keysOf(archiveFiles(t, "zip", res.Body)))
	})

	t.Run("HEAD sends the headers only", func(t *testing.T) {
		res := f.In.Do(t, "HEAD", "/projects/g%2Fpub/repository/archive.zip", "", nil)
		require.Equal(t, 200, res.Status)
		require.Empty(t, res.Body)
		require.Equal(t, `attachment; filename="`+prefix+`.zip"`, res.Header.Get("Content-Disposition"))
	})

	t.Run("errors", func(t *testing.T) {
		for _, q := range []string{"?sha=xxx", "?path=nope", "?sha=" + string(s.merge) + "&path=../x"} {
			servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/archive"+q, "", nil), 404, "message", "404 File Not Found")
		}
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/archive.rar", "", nil), 404, "error", "404 Not Found")
	})

	t.Run("client-go", func(t *testing.T) {
		c := f.In.Client(t, "")
		data, _, err := c.Repositories.Archive("g/pub", &gitlab.ArchiveOptions{Format: gitlab.Ptr("tar.bz2"), SHA: gitlab.Ptr("feature")})
		require.NoError(t, err)
		require.Contains(t, archiveFiles(t, "tar.bz2", data), "pub-feature-"+string(s.feature)+"/feature.txt")
		var buf bytes.Buffer
		_, err = c.Repositories.StreamArchive("g/pub", &buf, &gitlab.ArchiveOptions{Format: gitlab.Ptr("zip")})
		require.NoError(t, err)
		require.Contains(t, archiveFiles(t, "zip", buf.Bytes()), prefix+"/README.md")
	})
}

// TestArchive_large streams an archive bigger than any buffer on the way.
func testArchiveLarge(t *testing.T, f *fixture) {
	p := f.Project(t, "bigarchive", "public")
	r := f.Repo(t, p)
	files := map[string]string{}
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 1<<14) // 256 KiB, distinct per file below
	for i := 0; i < 24; i++ {
		files["f"+string(rune('a'+i))] = string(chunk) + string(rune('a'+i))
	}
	gittest.SetRef(t, r, "refs/heads/main", gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Files: files}))
	res := f.In.Do(t, "GET", "/projects/g%2Fbigarchive/repository/archive.tar", "", nil)
	require.Equal(t, 200, res.Status)
	require.Greater(t, len(res.Body), 24*256<<10)
	require.Len(t, archiveFiles(t, "tar", res.Body), 24)
}
