package registryapi_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An image pushed with crane through the token flow is pulled back identical, and appears in
// the API with its tags and their details.
func TestPushPullAndList(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "App", "private")
	created := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	img := image(t, created)
	push(t, in, img, "alice/app:v1", creds("alice", tok)...)
	push(t, in, img, "alice/app:latest", creds("alice", servertest.UserPassword)...)
	push(t, in, image(t, created), "alice/app/tools:v2", creds("alice", tok)...)

	pulled, err := crane.Pull(registryHost(in)+"/alice/app:v1", creds("alice", tok)...)
	require.NoError(t, err)
	want, _ := img.Digest()
	got, err := pulled.Digest()
	require.NoError(t, err)
	assert.Equal(t, want, got)

	rootID := waitRepository(t, in, "alice/app")
	toolsID := waitRepository(t, in, "alice/app/tools")
	host := registryHost(in)

	r := in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories?tags=true&tags_count=true", p.ID), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	list := servertest.Decode[[]map[string]any](t, r)
	require.Len(t, list, 2)
	assert.Equal(t, float64(rootID), list[0]["id"])
	assert.Equal(t, "", list[0]["name"])
	assert.Equal(t, "alice/app", list[0]["path"])
	assert.Equal(t, float64(p.ID), list[0]["project_id"])
	assert.Equal(t, host+"/alice/app", list[0]["location"])
	assert.Nil(t, list[0]["cleanup_policy_started_at"])
	assert.Nil(t, list[0]["status"])
	assert.Equal(t, float64(2), list[0]["tags_count"])
	assert.Equal(t, []any{
		map[string]any{"name": "latest", "path": "alice/app:latest", "location": host + "/alice/app:latest"},
		map[string]any{"name": "v1", "path": "alice/app:v1", "location": host + "/alice/app:v1"},
	}, list[0]["tags"])
	assert.Equal(t, in.URL+"/api/v4/projects/"+strconv.Itoa(p.ID)+"/registry/repositories/"+strconv.Itoa(rootID), list[0]["delete_api_path"])
	assert.Equal(t, "tools", list[1]["name"])
	assert.Equal(t, "alice/app/tools", list[1]["path"])
	assert.Equal(t, float64(toolsID), list[1]["id"])

	// Without tags or tags_count, neither is shown.
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories", p.ID), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	plain := servertest.Decode[[]map[string]any](t, r)
	assert.NotContains(t, plain[0], "tags")
	assert.NotContains(t, plain[0], "tags_count")
	assert.NotContains(t, plain[0], "size")

	// The tag's details come from the image: its configuration's digest and date, its layers.
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories/%d/tags/v1", p.ID, rootID), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	cfgName, err := img.ConfigName()
	require.NoError(t, err)
	layers, err := img.Layers()
	require.NoError(t, err)
	size, err := layers[0].Size()
	require.NoError(t, err)
	assert.JSONEq(t, fmt.Sprintf(`{"name":"v1","path":"alice/app:v1","location":"%s/alice/app:v1",
		"revision":"%s","short_revision":"%s","digest":"%s","created_at":"2024-05-06T07:08:09.000Z","total_size":%d}`,
		host, cfgName.Hex, cfgName.Hex[:9], want.String(), size), string(r.Body))

	// One repository by id, with its size (each blob once).
	r = in.Do(t, "GET", fmt.Sprintf("/registry/repositories/%d?tags_count=true&size=true", rootID), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	one := servertest.Decode[map[string]any](t, r)
	cfgRaw, err := img.RawConfigFile()
	require.NoError(t, err)
	assert.Equal(t, float64(size+int64(len(cfgRaw))), one["size"])
	assert.Equal(t, float64(2), one["tags_count"])
}
