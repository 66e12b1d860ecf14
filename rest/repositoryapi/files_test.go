package repositoryapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func testFilesRead(t *testing.T, f *fixture) {
	r, s := f.pubRepo, f.pubSeed
	ctx := context.Background()
	readme, err := r.TreeEntryAt(ctx, string(s.merge), "README.md")
	require.NoError(t, err)
	runSh, err := r.TreeEntryAt(ctx, string(s.merge), "bin/run.sh")
	require.NoError(t, err)
	const content = "# Demo\n\nHello, world.\n"
	meta := map[string]any{
		"file_name": "README.md", "file_path": "README.md", "size": float64(len(content)), "encoding": "base64",
		"content_sha256": sum(content), "ref": "main", "blob_id": string(readme.ID), "commit_id": string(s.merge),
		"last_commit_id": string(s.second), "execute_filemode": false,
	}

	t.Run("GET: metadata and Base64 content", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/files/README%2Emd?ref=main", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		want := map[string]any{"content": base64.StdEncoding.EncodeToString([]byte(content))}
		for k, v := range meta {
			want[k] = v
		}
		require.Equal(t, want, servertest.Object(t, res))
		require.Equal(t, "application/json", res.Header.Get("Content-Type"))
		require.Equal(t, string(s.second), res.Header.Get("X-Gitlab-Last-Commit-Id"))
	})

	t.Run("HEAD: metadata as headers", func(t *testing.T) {
		res := f.In.Do(t, "HEAD", "/projects/g%2Fpub/repository/files/README.md?ref=main", "", nil)
		require.Equal(t, 200, res.Status)
		require.Empty(t, res.Body)
		want := map[string]string{
			"X-Gitlab-File-Name": "README.md", "X-Gitlab-File-Path": "README.md", "X-Gitlab-Size": "22",
			"X-Gitlab-Encoding": "base64", "X-Gitlab-Content-Sha256": sum(content), "X-Gitlab-Ref": "main",
			"X-Gitlab-Blob-Id": string(readme.ID), "X-Gitlab-Commit-Id": string(s.merge),
			"X-Gitlab-Last-Commit-Id": string(s.second), "X-Gitlab-Execute-Filemode": "false",
		}
		for k, v := range want {
			require.Equal(t, v, res.Header.Get(k), k)
		}
	})

	t.Run("nested path, executable, older ref", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/files/bin%2Frun%2Esh?ref=v1.0", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		got := servertest.Object(t, res)
		require.Equal(t, "run.sh", got["file_name"])
		require.Equal(t, "bin/run.sh", got["file_path"])
		require.Equal(t, true, got["execute_filemode"])
		require.Equal(t, string(runSh.ID), got["blob_id"])
		require.Equal(t, "v1.0", got["ref"])
		require.Equal(t, string(s.first), got["commit_id"])
		require.Equal(t, string(s.first), got["last_commit_id"])
	})

	t.Run("raw: bytes and headers; ref defaults to the default branch", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/files/README%2Emd/raw", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, content, string(res.Body))
		require.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"))
		require.Equal(t, `inline; filename="README.md"; filename*=UTF-8''README.md`, res.Header.Get("Content-Disposition"))
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		require.Equal(t, sum(content), res.Header.Get("X-Gitlab-Content-Sha256"))
		require.Equal(t, "main", res.Header.Get("X-Gitlab-Ref"))
		require.Equal(t, "max-age=0, private, must-revalidate, no-store, no-cache", res.Header.Get("Cache-Control"))

		res = f.In.Do(t, "GET", "/projects/g%2Fpub/repository/files/%2FREADME.md/raw?ref=v1.0", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, "# Demo\n\nHello.\n", string(res.Body))
	})

	t.Run("raw lfs of a file that is no pointer", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/files/README.md/raw?lfs=true", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, content, string(res.Body))
	})

	t.Run("client-go", func(t *testing.T) {
		c := f.In.Client(t, "")
		file, _, err := c.RepositoryFiles.GetFile("g/pub", "docs/guide.md", &gitlab.GetFileOptions{Ref: gitlab.Ptr("main")})
		require.NoError(t, err)
		require.Equal(t, "guide.md", file.FileName)
		require.Equal(t, "docs/guide.md", file.FilePath)
		require.Equal(t, base64.StdEncoding.EncodeToString([]byte("Guide\n")), file.Content)
		require.Equal(t, sum("Guide\n"), file.SHA256)
		m, _, err := c.RepositoryFiles.GetFileMetaData("g/pub", "docs/guide.md", &gitlab.GetFileMetaDataOptions{Ref: gitlab.Ptr("main")})
		require.NoError(t, err)
		require.Equal(t, int64(6), m.Size)
		require.Equal(t, file.BlobID, m.BlobID)
		require.Equal(t, string(s.first), m.LastCommitID)
		raw, _, err := c.RepositoryFiles.GetRawFile("g/pub", "docs/img/logo.png", &gitlab.GetRawFileOptions{Ref: gitlab.Ptr("main")})
		require.NoError(t, err)
		require.Equal(t, pngBytes, raw)
		rm, _, err := c.RepositoryFiles.GetRawFileMetaData("g/pub", "docs/img/logo.png", &gitlab.GetRawFileOptions{})
		require.NoError(t, err)
		require.Equal(t, "logo.png", rm.FileName)
		require.Equal(t, "main", rm.Ref)
	})

	t.Run("errors", func(t *testing.T) {
		cases := []struct {
			desc, method, path string
			status             int
			key, msg           string
		}{
			{"missing ref", "GET", "README.md", 400, "error", "ref is missing"},
			{"blank ref", "GET", "README.md?ref=", 400, "error", "ref is empty"},
			{"blank raw ref", "GET", "README.md/raw?ref=", 400, "error", "ref is empty"},
			{"unknown ref", "GET", "README.md?ref=nope", 404, "message", "404 Commit Not Found"},
			{"unknown raw ref", "GET", "README.md/raw?ref=nope", 404, "message", "404 Commit Not Found"},
			{"unknown file", "GET", "nope.md?ref=main", 404, "message", "404 File Not Found"},
			{"directory", "GET", "docs?ref=main", 404, "message", "404 File Not Found"},
			{"directory raw", "GET", "docs/raw", 404, "message", "404 File Not Found"},
			{"odd but valid path", "GET", "docs%2F%2Fguide.md?ref=main", 404, "message", "404 File Not Found"},
			{"traversal", "GET", "docs%2F..%2FREADME.md?ref=main", 400, "error", "file_path should be a valid file path"},
			{"encoded traversal", "GET", "%252e%252e%2Fetc%2Fpasswd?ref=main", 400, "error", "file_path should be a valid file path"},
			{"dot dot", "GET", "%2E%2E?ref=main", 400, "error", "file_path should be a valid file path"},
			{"absolute", "GET", "%2Fetc%2Fpasswd?ref=main", 400, "error", "file_path should be a valid file path"},
			{"NUL (refused before routing by RejectMalformed)", "GET", "a%00b?ref=main", 400, "error", "file_path is invalid"},
			{"traversal raw", "GET", "..%2F..%2Fx/raw", 400, "error", "file_path should be a valid file path"},
			{"traversal blame", "GET", "..%2Fx/blame?ref=main", 400, "error", "file_path should be a valid file path"},
			{"bad lfs", "GET", "README.md/raw?lfs=maybe", 400, "error", "lfs is invalid"},
		}
		for _, c := range cases {
			t.Run(c.desc, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, c.method, "/projects/g%2Fpub/repository/files/"+c.path, "", nil), c.status, c.key, c.msg)
			})
		}
		res := f.In.Do(t, "HEAD", "/projects/g%2Fpub/repository/files/nope?ref=main", "", nil)
		require.Equal(t, 404, res.Status)
	})
}

func testFilesLfsPointer(t *testing.T, f *fixture) {
	p := f.Project(t, "lfs", "public")
	r := f.Repo(t, p)
	pointer := "version https://git-lfs.github.com/spec/v1\noid sha256:" + sum("big") + "\nsize 3\n"
	gittest.SetRef(t, r, "refs/heads/main", gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Files: map[string]string{"big.bin": pointer}}))
	res := f.In.Do(t, "GET", "/projects/g%2Flfs/repository/files/big.bin/raw", "", nil)
	require.Equal(t, 200, res.Status, res.String())
	require.Equal(t, pointer, string(res.Body))
	// No LFS object is stored for the pointer.
	servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Flfs/repository/files/big.bin/raw?lfs=true", "", nil), 404, "message", "404 Not Found")
}

func testFilesBlame(t *testing.T, f *fixture) {
	s := f.pubSeed
	base := "/projects/g%2Fpub/repository/files/README%2Emd/blame"

	t.Run("ranges grouped by commit", func(t *testing.T) {
		res := f.In.Do(t, "GET", base+"?ref=main", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		got := servertest.List(t, res)
		require.Len(t, got, 2)
		require.Equal(t, []any{"# Demo", ""}, got[0]["lines"])
		require.Equal(t, []any{"Hello, world."}, got[1]["lines"])
		require.Equal(t, map[string]any{
			"id": string(s.first), "parent_ids": []any{},
			"message":       "First commit\n\nBody line.\n\nSigned-off-by: Alice <alice@example.com>\n",
			"authored_date": "2024-03-04T05:06:07.000+02:00", "author_name": "Alice", "author_email": "alice@example.com",
			"committed_date": "2024-03-04T05:06:07.000+02:00", "committer_name": "Alice", "committer_email": "alice@example.com",
		}, got[0]["commit"])
		require.Equal(t, string(s.second), got[1]["commit"].(map[string]any)["id"])
		require.Equal(t, "README.md", res.Header.Get("X-Gitlab-File-Name"))
	})

	t.Run("range", func(t *testing.T) {
		res := f.In.Do(t, "GET", base+"?ref=main&range[start]=2&range[end]=3", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		got := servertest.List(t, res)
		require.Len(t, got, 2)
		require.Equal(t, []any{""}, got[0]["lines"])
	})

	t.Run("HEAD", func(t *testing.T) {
		res := f.In.Do(t, "HEAD", base+"?ref=main", "", nil)
		require.Equal(t, 200, res.Status)
		require.Empty(t, res.Body)
		require.Equal(t, "README.md", res.Header.Get("X-Gitlab-File-Path"))
	})

	t.Run("client-go", func(t *testing.T) {
		ranges, _, err := f.In.Client(t, "").RepositoryFiles.GetFileBlame("g/pub", "README.md", &gitlab.GetFileBlameOptions{
			Ref: gitlab.Ptr("main"), RangeStart: gitlab.Ptr(int64(3)), RangeEnd: gitlab.Ptr(int64(3))})
		require.NoError(t, err)
		require.Len(t, ranges, 1)
		require.Equal(t, []string{"Hello, world."}, ranges[0].Lines)
		require.Equal(t, "Bob", ranges[0].Commit.AuthorName)
	})

	t.Run("errors", func(t *testing.T) {
		cases := []struct {
			query    string
			status   int
			key, msg string
		}{
			{"", 400, "error", "ref is missing"},
			{"?ref=nope", 404, "message", "404 Commit Not Found"},
			{"?ref=main&range[start]=1", 400, "error", "range[end] is missing"},
			{"?ref=main&range[start]=0&range[end]=1", 400, "error", "range[start] does not have a valid value"},
			{"?ref=main&range[start]=x&range[end]=1", 400, "error", "range[start] is invalid"},
			{"?ref=main&range[start]=3&range[end]=1", 400, "message", "range[start] must be less than or equal to range[end]"},
			{"?ref=main&range[start]=10&range[end]=20", 400, "message", "400 Bad request - range is outside of the file length"},
		}
		for _, c := range cases {
			t.Run(c.query, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, "GET", base+c.query, "", nil), c.status, c.key, c.msg)
			})
		}
		servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/files/nope/blame?ref=main", "", nil), 404, "message", "404 File Not Found")
	})
}
