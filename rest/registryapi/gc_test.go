package registryapi_test

import (
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/containerregistry"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blobFile is where the filesystem storage keeps a blob.
func blobFile(in *servertest.Instance, h v1.Hash) string {
	return filepath.Join(in.Config.DataDir, "blobs", "registry", "docker", "registry", "v2", "blobs",
		h.Algorithm, h.Hex[:2], h.Hex, "data")
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// age makes everything in the registry's storage look written two hours ago.
func age(t *testing.T, in *servertest.Instance) {
	t.Helper()
	old := time.Now().Add(-2 * time.Hour)
	root := filepath.Join(in.Config.DataDir, "blobs", "registry")
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	}))
}

// layerOf is an image's only layer digest.
func layerOf(t *testing.T, img v1.Image) v1.Hash {
	t.Helper()
	ls, err := img.Layers()
	require.NoError(t, err)
	d, err := ls[0].Digest()
	require.NoError(t, err)
	return d
}

// Deleting a project removes its images; garbage collection then reclaims the blobs nothing
// references (untagged manifests included) but keeps what tagged images use and what a push in
// progress uploaded ahead of its manifest.
func TestProjectDeletionAndGarbageCollection(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	ns := in.PersonalNamespace(t, alice)
	app := in.NewProject(t, ns, "app", "private")
	in.NewProject(t, ns, "other", "private")
	imgA, imgC, imgD := image(t, time.Now()), image(t, time.Now()), image(t, time.Now())
	push(t, in, imgA, "alice/app:v1", creds("alice", tok)...)
	push(t, in, imgA, "alice/app/sub:v1", creds("alice", tok)...)
	push(t, in, imgC, "alice/other:v1", creds("alice", tok)...)
	push(t, in, imgD, "alice/other:v2", creds("alice", tok)...)
	waitRepository(t, in, "alice/app")
	waitRepository(t, in, "alice/app/sub")
	otherID := waitRepository(t, in, "alice/other")

	r := in.Do(t, "DELETE", fmt.Sprintf("/projects/%d", app.ID), tok, nil)
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	require.Eventually(t, func() bool {
		a, errA := in.Services.Registry.Tags(t.Context(), "alice/app")
		b, errB := in.Services.Registry.Tags(t.Context(), "alice/app/sub")
		return errA == nil && errB == nil && len(a)+len(b) == 0
	}, 10*time.Second, 20*time.Millisecond, "the project's images are gone")
	n, err := in.DB.Client.ContainerRepository.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "only the other project's repository is left")
	assert.True(t, exists(blobFile(in, layerOf(t, imgA))), "blobs wait for garbage collection (younger than its grace)")

	r = in.Do(t, "DELETE", fmt.Sprintf("/projects/alice%%2Fother/registry/repositories/%d/tags/v2", otherID), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())

	// Everything so far is two hours old; a push in progress then uploads a layer. The jobs
	// the deletions queued (image removal, garbage collection) have run first.
	in.WaitJobs(t)
	age(t, in)
	pending, err := random.Layer(512, "application/vnd.docker.image.rootfs.diff.tar.gzip")
	require.NoError(t, err)
	ref, err := name.NewRepository(registryHost(in)+"/alice/other", name.Insecure)
	require.NoError(t, err)
	require.NoError(t, remote.WriteLayer(ref, pending, remote.WithAuth(authn.FromConfig(authn.AuthConfig{Username: "alice", Password: tok}))))
	pendingDigest, err := pending.Digest()
	require.NoError(t, err)

	svc := in.Services.ContainerRegistry
	svc.GCGrace = time.Hour
	require.NoError(t, svc.GarbageCollect(t.Context(), containerregistry.GarbageCollectJob{}))

	assert.False(t, exists(blobFile(in, layerOf(t, imgA))), "the deleted project's blobs are reclaimed")
	assert.False(t, exists(blobFile(in, layerOf(t, imgD))), "the untagged image's blobs are reclaimed")
	assert.True(t, exists(blobFile(in, layerOf(t, imgC))), "a tagged image's blobs stay")
	assert.True(t, exists(blobFile(in, pendingDigest)), "the push in progress keeps its layer")

	// The push in progress completes with its manifest, and every image left pulls whole.
	img, err := mutate.AppendLayers(image(t, time.Now()), pending)
	require.NoError(t, err)
	push(t, in, img, "alice/other:v3", creds("alice", tok)...)
	for _, tag := range []string{"v1", "v3"} {
		pulled, err := crane.Pull(registryHost(in)+"/alice/other:"+tag, creds("alice", tok)...)
		require.NoError(t, err)
		layers, err := pulled.Layers()
		require.NoError(t, err)
		for _, l := range layers {
			rc, err := l.Compressed()
			require.NoError(t, err, tag)
			rc.Close()
		}
	}
	_, err = crane.Pull(registryHost(in)+"/alice/other@"+mustDigest(t, imgD), creds("alice", tok)...)
	assert.Error(t, err, "the untagged manifest is gone")
}

func mustDigest(t *testing.T, img v1.Image) string {
	t.Helper()
	d, err := img.Digest()
	require.NoError(t, err)
	return d.String()
}
