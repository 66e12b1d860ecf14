package registryapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bearer asks /jwt/auth for a token with scope as username and returns it.
func bearer(t *testing.T, in *servertest.Instance, username, secret, scope string) string {
	t.Helper()
	status, body := tokenResponse(t, in, username, secret, scope)
	require.Equal(t, http.StatusOK, status, body)
	return body["token"].(string)
}

// registryDo sends a request to the registry with a bearer token.
func registryDo(t *testing.T, in *servertest.Instance, method, path, token string, header map[string]string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, in.URL+path, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// The registry itself enforces the tokens: a Reporter pulls but cannot push, an anonymous
// client pulls a public image, and nobody pulls once the registry is disabled.
func TestRegistry_enforcesTokens(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	bob, bobTok := in.NewUser(t, "bob")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "public")
	in.AddProjectMember(t, p, bob, 20)
	img := image(t, time.Now())
	push(t, in, img, "alice/app:v1", creds("alice", tok)...)

	_, err := crane.Pull(registryHost(in)+"/alice/app:v1", creds("bob", bobTok)...)
	require.NoError(t, err, "a Reporter pulls")
	err = crane.Push(img, registryHost(in)+"/alice/app:v2", creds("bob", bobTok)...)
	require.Error(t, err, "a Reporter cannot push")
	assert.Contains(t, err.Error(), "UNAUTHORIZED")
	_, err = crane.Pull(registryHost(in)+"/alice/app:v1", creds("", "")...)
	require.NoError(t, err, "anyone pulls a public project's images")

	require.NoError(t, in.DB.Client.Project.UpdateOne(p).SetContainerRegistryAccessLevel("disabled").Exec(t.Context()))
	_, err = crane.Pull(registryHost(in)+"/alice/app:v1", creds("alice", tok)...)
	require.Error(t, err, "a disabled registry serves no one")
}

// Tags are deleted on the registry host by DELETE /v2/<path>/manifests/<tag> and by GitLab's
// deprecated DELETE /v2/<path>/tags/reference/<tag>, with a delete scope; the catalog lists
// every repository for administrators.
func TestRegistry_tagDeletionAndCatalog(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	_, adminTok := in.NewUser(t, "boss", servertest.Admin)
	in.NewProject(t, in.PersonalNamespace(t, alice), "app", "private")
	img := image(t, time.Now())
	for _, tag := range []string{"v1", "v2", "v3"} {
		push(t, in, img, "alice/app:"+tag, creds("alice", tok)...)
	}
	accept := map[string]string{"Accept": "application/vnd.docker.distribution.manifest.v2+json"}

	pullOnly := bearer(t, in, "alice", tok, "repository:alice/app:pull")
	status, _ := registryDo(t, in, "DELETE", "/v2/alice/app/manifests/v1", pullOnly, accept)
	assert.Equal(t, http.StatusUnauthorized, status, "deleting needs the delete action")

	del := bearer(t, in, "alice", tok, "repository:alice/app:delete")
	status, body := registryDo(t, in, "DELETE", "/v2/alice/app/manifests/v1", del, accept)
	assert.Equal(t, http.StatusAccepted, status, string(body))
	status, body = registryDo(t, in, "DELETE", "/v2/alice/app/tags/reference/v2", del, accept)
	assert.Equal(t, http.StatusAccepted, status, string(body))
	status, _ = registryDo(t, in, "DELETE", "/v2/alice/app/tags/reference/v2", del, accept)
	assert.Equal(t, http.StatusNotFound, status, "already gone")

	tags, err := crane.ListTags(registryHost(in)+"/alice/app", creds("alice", tok)...)
	require.NoError(t, err)
	assert.Equal(t, []string{"v3"}, tags)

	status, _ = registryDo(t, in, "GET", "/v2/_catalog", bearer(t, in, "alice", tok, "registry:catalog:*"), nil)
	assert.Equal(t, http.StatusUnauthorized, status, "the catalog is for administrators")
	status, body = registryDo(t, in, "GET", "/v2/_catalog", bearer(t, in, "boss", adminTok, "registry:catalog:*"), nil)
	require.Equal(t, http.StatusOK, status, string(body))
	var catalog struct{ Repositories []string }
	require.NoError(t, json.Unmarshal(body, &catalog))
	assert.Equal(t, []string{"alice/app"}, catalog.Repositories)
}

// The notification endpoint takes events only with the registry's secret.
func TestEvents_secret(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	in.NewProject(t, in.PersonalNamespace(t, alice), "app", "private")
	body := `{"events":[{"action":"push","target":{"mediaType":"application/vnd.oci.image.manifest.v1+json","repository":"alice/app/forged","tag":"v1"}}]}`
	for _, auth := range []string{"", "Bearer " + tok, "Bearer wrong"} {
		req, err := http.NewRequest("POST", in.URL+"/api/v4/container_registry_event/events", strings.NewReader(body))
		require.NoError(t, err)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, auth)
	}
	n, err := in.DB.Client.ContainerRepository.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n)
}
