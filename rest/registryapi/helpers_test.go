package registryapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/containerrepository"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/stretchr/testify/require"
)

// registryHost is the host:port image names of in start with.
func registryHost(in *servertest.Instance) string { return strings.TrimPrefix(in.URL, "http://") }

// creds are crane options signing in as username with secret (a password or token); empty
// for an anonymous client.
func creds(username, secret string) []crane.Option {
	opts := []crane.Option{crane.Insecure}
	if username != "" {
		opts = append(opts, crane.WithAuth(authn.FromConfig(authn.AuthConfig{Username: username, Password: secret})))
	}
	return opts
}

// image builds a random image of one small layer created at created.
func image(t testing.TB, created time.Time) v1.Image {
	t.Helper()
	img, err := random.Image(512, 1)
	require.NoError(t, err)
	img, err = mutate.CreatedAt(img, v1.Time{Time: created})
	require.NoError(t, err)
	return img
}

// push pushes img to path:tag in in's registry through the token flow.
func push(t testing.TB, in *servertest.Instance, img v1.Image, ref string, opts ...crane.Option) {
	t.Helper()
	require.NoError(t, crane.Push(img, registryHost(in)+"/"+ref, opts...))
}

// waitRepository waits until the registry's notification made the repository at path appear,
// and returns its id.
func waitRepository(t testing.TB, in *servertest.Instance, path string) int {
	t.Helper()
	var id int
	require.Eventually(t, func() bool {
		r, err := in.DB.Client.ContainerRepository.Query().Where(containerrepository.Path(path)).Only(context.Background())
		if err != nil {
			return false
		}
		id = r.ID
		return true
	}, 10*time.Second, 20*time.Millisecond, "repository %s never appeared", path)
	return id
}
