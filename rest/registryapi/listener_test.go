package registryapi_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/config"

	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With ANVIL_REGISTRY_URL and ANVIL_REGISTRY_LISTEN the registry has a host and listener of its
// own: /v2/ is served there (and no longer on the API's), tokens still come from the API's
// /jwt/auth, and image names in the API use the registry's host.
func TestRegistry_ownListener(t *testing.T) {
	in := servertest.Start(t, func(c *config.Config) {
		c.Registry.URL = "https://registry.example.com:5050"
		c.Registry.Listen = "127.0.0.1:0"
		// Clients refuse a token realm on another host given as a private IP address (crane's
		// guard against redirects to internal services): the API is named by a host name.
		_, port, _ := net.SplitHostPort(c.Listen)
		c.ExternalURL = "http://localhost:" + port
	})
	require.NotNil(t, in.RegistryHandler)
	reg := httptest.NewServer(in.RegistryHandler)
	t.Cleanup(reg.Close)
	alice, tok := in.NewUser(t, "alice")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "private")

	ref := strings.TrimPrefix(reg.URL, "http://") + "/alice/app:v1"
	require.NoError(t, crane.Push(image(t, time.Now()), ref, creds("alice", tok)...))
	_, err := crane.Pull(ref, creds("alice", tok)...)
	require.NoError(t, err)
	status, _ := registryDo(t, in, "GET", "/v2/", "", nil)
	assert.Equal(t, http.StatusNotFound, status, "the API's listener no longer serves /v2/")

	id := waitRepository(t, in, "alice/app")
	r := in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories?tags=true", p.ID), tok, nil)
	require.Equal(t, http.StatusOK, r.Status)
	list := servertest.Decode[[]map[string]any](t, r)
	assert.Equal(t, "registry.example.com:5050/alice/app", list[0]["location"])
	assert.Equal(t, float64(id), list[0]["id"])
	assert.Equal(t, "registry.example.com:5050/alice/app:v1", list[0]["tags"].([]any)[0].(map[string]any)["location"])
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), tok, nil)
	assert.Equal(t, "registry.example.com:5050/alice/app", servertest.Decode[map[string]any](t, r)["container_registry_image_prefix"])
}
