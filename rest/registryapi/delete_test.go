package registryapi_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/containerrepository"

	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawForm sends a form body exactly as written (a literal '+' stays a '+' on the wire).
func rawForm(t *testing.T, in *servertest.Instance, method, path, token, body string) *servertest.Response {
	t.Helper()
	req, err := http.NewRequest(method, in.URL+"/api/v4"+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("PRIVATE-TOKEN", token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &servertest.Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// tagsOf lists a repository's tags on the registry.
func tagsOf(t *testing.T, in *servertest.Instance, path, user, secret string) []string {
	t.Helper()
	tags, err := crane.ListTags(registryHost(in)+"/"+path, creds(user, secret)...)
	if err != nil && strings.Contains(err.Error(), "NAME_UNKNOWN") {
		return nil
	}
	require.NoError(t, err)
	return tags
}

// A repository deletion is accepted (202), shows its status while scheduled, then removes the
// images and the repository.
func TestDeleteRepository(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	bob, bobTok := in.NewUser(t, "bob")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "private")
	in.AddProjectMember(t, p, bob, 20)
	push(t, in, image(t, time.Now()), "alice/app:v1", creds("alice", tok)...)
	push(t, in, image(t, time.Now()), "alice/app/keep:v1", creds("alice", tok)...)
	id := waitRepository(t, in, "alice/app")
	keepID := waitRepository(t, in, "alice/app/keep")

	r := in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/registry/repositories/%d", p.ID, id), bobTok, nil)
	assert.Equal(t, http.StatusForbidden, r.Status, "a Reporter may not delete: %s", r)
	r = in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/registry/repositories/%d", p.ID, 999999), tok, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))

	r = in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/registry/repositories/%d", p.ID, id), tok, nil)
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	require.Eventually(t, func() bool {
		return in.Do(t, "GET", fmt.Sprintf("/registry/repositories/%d", id), tok, nil).Status == http.StatusNotFound
	}, 10*time.Second, 20*time.Millisecond)
	assert.Empty(t, tagsOf(t, in, "alice/app", "alice", tok), "the images are gone")
	assert.Equal(t, []string{"v1"}, tagsOf(t, in, "alice/app/keep", "alice", tok), "a repository below it stays")

	// While a deletion is scheduled or running, the status says so; asking again is accepted.
	require.NoError(t, in.DB.Client.ContainerRepository.UpdateOneID(keepID).SetStatus(containerrepository.StatusDeleteScheduled).Exec(t.Context()))
	r = in.Do(t, "GET", fmt.Sprintf("/registry/repositories/%d", keepID), tok, nil)
	assert.Equal(t, "delete_scheduled", servertest.Decode[map[string]any](t, r)["status"])
	require.NoError(t, in.DB.Client.ContainerRepository.UpdateOneID(keepID).SetStatus(containerrepository.StatusDeleteOngoing).Exec(t.Context()))
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories", p.ID), tok, nil)
	assert.Equal(t, "delete_ongoing", servertest.Decode[[]map[string]any](t, r)[0]["status"])
	r = in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/registry/repositories/%d", p.ID, keepID), tok, nil)
	assert.Equal(t, http.StatusAccepted, r.Status)
}

// One tag is deleted (200, empty body); the manifest stays for other tags.
func TestDeleteTag(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	bob, bobTok := in.NewUser(t, "bob")
	carol, carolTok := in.NewUser(t, "carol")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "private")
	in.AddProjectMember(t, p, bob, 20)
	in.AddProjectMember(t, p, carol, 30)
	img := image(t, time.Now())
	push(t, in, img, "alice/app:v1", creds("alice", tok)...)
	push(t, in, img, "alice/app:v2", creds("alice", tok)...)
	id := waitRepository(t, in, "alice/app")
	path := fmt.Sprintf("/projects/%d/registry/repositories/%d/tags/v1", p.ID, id)

	r := in.Do(t, "DELETE", path, bobTok, nil)
	assert.Equal(t, http.StatusForbidden, r.Status, "a Reporter may not delete")
	r = in.Do(t, "DELETE", path, carolTok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Empty(t, r.Body)
	assert.Equal(t, []string{"v2"}, tagsOf(t, in, "alice/app", "alice", tok))
	r = in.Do(t, "DELETE", path, carolTok, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.JSONEq(t, `{"message":"404 Tag Not Found"}`, string(r.Body))
	r = in.Do(t, "GET", path, tok, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.JSONEq(t, `{"message":"404 Tag Not Found"}`, string(r.Body))
}

// Bulk deletion: parameters validated (RE2), scheduled (202) and applied by the rules, at most
// once an hour per repository; in a form body a literal '+' is a space, '%2B' a plus.
func TestBulkDeleteTags(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	carol, carolTok := in.NewUser(t, "carol")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "private")
	in.AddProjectMember(t, p, carol, 30)
	now := time.Now().UTC()
	for _, tc := range []struct {
		tag string
		age time.Duration
	}{{"latest", 400 * time.Hour}, {"v1", 300 * time.Hour}, {"v2", 200 * time.Hour}, {"v3", 100 * time.Hour}, {"v10", time.Hour}, {"dev", 500 * time.Hour}} {
		for _, repo := range []string{"alice/app", "alice/app/raw"} {
			push(t, in, image(t, now.Add(-tc.age)), repo+":"+tc.tag, creds("alice", tok)...)
		}
	}
	id := waitRepository(t, in, "alice/app")
	rawID := waitRepository(t, in, "alice/app/raw")
	base := fmt.Sprintf("/projects/%d/registry/repositories/%d/tags", p.ID, id)

	for _, tc := range []struct {
		body url.Values
		want string
	}{
		{url.Values{}, `{"error":"name_regex, name_regex_delete are missing, at least one parameter must be provided"}`},
		{url.Values{"name_regex_delete": {"[a-"}}, `{"error":"name_regex_delete is an invalid regexp"}`},
		{url.Values{"name_regex": {"(?<=v)1"}}, `{"error":"name_regex is an invalid regexp"}`},
		{url.Values{"name_regex_delete": {".*"}, "name_regex_keep": {"(("}}, `{"error":"name_regex_keep is an invalid regexp"}`},
		{url.Values{"name_regex_delete": {".*"}, "keep_n": {"two"}}, `{"error":"keep_n is invalid"}`},
	} {
		r := in.Do(t, "DELETE", base, tok, tc.body)
		assert.Equal(t, http.StatusBadRequest, r.Status, tc.body)
		assert.JSONEq(t, tc.want, string(r.Body), tc.body)
	}
	r := in.Do(t, "DELETE", base, carolTok, url.Values{"name_regex_delete": {".*"}})
	assert.Equal(t, http.StatusForbidden, r.Status, "bulk deletion is for Maintainers: %s", r)

	// v\d+ keeps the newest match and deletes what is older than 150 hours; latest and dev stay.
	r = rawForm(t, in, "DELETE", base, tok, "name_regex_delete=v%5Cd%2B&keep_n=1&older_than=150h")
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	assert.Empty(t, r.Body)
	require.Eventually(t, func() bool {
		return strings.Join(tagsOf(t, in, "alice/app", "alice", tok), ",") == "dev,latest,v10,v3"
	}, 10*time.Second, 20*time.Millisecond)

	// A second request within the hour is refused.
	r = in.Do(t, "DELETE", base, tok, url.Values{"name_regex_delete": {".*"}})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.JSONEq(t, `{"message":"This request has already been made. You can run this at most once an hour for a given container repository"}`, string(r.Body))
	assert.Equal(t, "dev,latest,v10,v3", strings.Join(tagsOf(t, in, "alice/app", "alice", tok), ","))

	// Unencoded, the '+' of v\d+ arrives as a space: the expression matches no tag.
	r = rawForm(t, in, "DELETE", fmt.Sprintf("/projects/%d/registry/repositories/%d/tags", p.ID, rawID), tok, `name_regex_delete=v\d+`)
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	time.Sleep(200 * time.Millisecond)
	assert.Equal(t, "dev,latest,v1,v10,v2,v3", strings.Join(tagsOf(t, in, "alice/app/raw", "alice", tok), ","))

	// An hour later (the lease moved back), the deprecated name_regex works as well.
	require.NoError(t, in.DB.Client.ContainerRepository.UpdateOneID(rawID).SetBulkDeleteRequestedAt(now.Add(-61*time.Minute)).Exec(t.Context()))
	r = in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/registry/repositories/%d/tags", p.ID, rawID), tok, url.Values{"name_regex": {".*"}, "name_regex_keep": {"v1.*"}})
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	require.Eventually(t, func() bool {
		return strings.Join(tagsOf(t, in, "alice/app/raw", "alice", tok), ",") == "latest,v1,v10"
	}, 10*time.Second, 20*time.Millisecond)
}
