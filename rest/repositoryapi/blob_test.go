package repositoryapi_test

import (
	"context"
	"encoding/base64"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
)

func testBlobs(t *testing.T, f *fixture) {
	r, s := f.pubRepo, f.pubSeed
	ctx := context.Background()
	entry := func(path string) string {
		e, err := r.TreeEntryAt(ctx, string(s.merge), path)
		require.NoError(t, err)
		return string(e.ID)
	}
	readme, logo, empty := entry("README.md"), entry("docs/img/logo.png"), entry("empty.txt")

	t.Run("blob with Base64 content", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/blobs/"+readme, "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, map[string]any{
			"size": float64(22), "encoding": "base64", "content": base64.StdEncoding.EncodeToString([]byte("# Demo\n\nHello, world.\n")), "sha": readme,
		}, servertest.Object(t, res))
	})

	t.Run("abbreviated id", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/blobs/"+logo[:10], "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, logo, servertest.Object(t, res)["sha"])
	})

	t.Run("client-go", func(t *testing.T) {
		c := f.In.Client(t, "")
		raw, _, err := c.Repositories.RawBlobContent("g/pub", logo)
		require.NoError(t, err)
		require.Equal(t, pngBytes, raw)
		js, _, err := c.Repositories.Blob("g/pub", readme)
		require.NoError(t, err)
		require.Contains(t, string(js), `"encoding":"base64"`)
	})

	t.Run("raw text", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/blobs/"+readme+"/raw", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, "# Demo\n\nHello, world.\n", string(res.Body))
		require.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"))
		require.Equal(t, "inline", res.Header.Get("Content-Disposition"))
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		require.Equal(t, "max-age=0, private, must-revalidate, no-store, no-cache", res.Header.Get("Cache-Control"))
		require.Equal(t, "Fri, 01 Jan 1990 00:00:00 GMT", res.Header.Get("Expires"))
		require.Equal(t, "22", res.Header.Get("Content-Length"))
	})

	t.Run("raw image is shown inline with its type", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/blobs/"+logo+"/raw", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, pngBytes, res.Body)
		require.Equal(t, "image/png", res.Header.Get("Content-Type"))
		require.Equal(t, "inline", res.Header.Get("Content-Disposition"))
	})

	t.Run("raw empty blob", func(t *testing.T) {
		res := f.In.Do(t, "GET", "/projects/g%2Fpub/repository/blobs/"+empty+"/raw", "", nil)
		require.Equal(t, 200, res.Status, res.String())
		require.Empty(t, res.Body)
		require.Equal(t, "0", res.Header.Get("Content-Length"))
	})

	t.Run("HEAD raw answers the headers only", func(t *testing.T) {
		res := f.In.Do(t, "HEAD", "/projects/g%2Fpub/repository/blobs/"+logo+"/raw", "", nil)
		require.Equal(t, 200, res.Status)
		require.Empty(t, res.Body)
		require.Equal(t, "image/png", res.Header.Get("Content-Type"))
	})

	t.Run("not blobs", func(t *testing.T) {
		for _, sha := range []string{"abcd9876", "0000000000000000000000000000000000000000", entry("docs"), string(s.merge), "-n"} {
			for _, suffix := range []string{"", "/raw"} {
				servertest.RequireError(t, f.In.Do(t, "GET", "/projects/g%2Fpub/repository/blobs/"+sha+suffix, "", nil), 404, "message", "404 Blob Not Found")
			}
		}
	})
}

func testBlobsBinaryDownload(t *testing.T, f *fixture) {
	p := f.Project(t, "bin", "public")
	r := f.Repo(t, p)
	data := append([]byte{0, 1, 2, 3}, make([]byte, 100000)...)
	big := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Files: map[string]string{"data.bin": string(data), "pic.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`}})
	gittest.SetRef(t, r, "refs/heads/main", big)
	e, err := r.TreeEntryAt(context.Background(), string(big), "data.bin")
	require.NoError(t, err)
	res := f.In.Do(t, "GET", "/projects/g%2Fbin/repository/blobs/"+string(e.ID)+"/raw", "", nil)
	require.Equal(t, 200, res.Status, res.String())
	require.Equal(t, data, res.Body)
	require.Equal(t, "application/octet-stream", res.Header.Get("Content-Type"))
	require.Equal(t, "attachment", res.Header.Get("Content-Disposition"))

	res = f.In.Do(t, "GET", "/projects/g%2Fbin/repository/files/pic%2Esvg/raw?ref=main", "", nil)
	require.Equal(t, 200, res.Status, res.String())
	require.Equal(t, "image/svg+xml", res.Header.Get("Content-Type"))
	require.Equal(t, `attachment; filename="pic.svg"; filename*=UTF-8''pic.svg`, res.Header.Get("Content-Disposition"))
}
