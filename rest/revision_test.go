package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRevisions_gitFatalFormsAreNotFound sends, anonymously on a public project, the revision
// forms that make git exit instead of answering "missing" (a path relative to a working tree,
// an upstream or push target) to every route that takes a revision. Each answers as GitLab does
// for a revision that names nothing (never a 500), and the repository's shared cat-file
// process keeps answering.
func TestRevisions_gitFatalFormsAreNotFound(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "pub", "public")
	repo := f.Repo(t, p)
	head := servertest.Commit(t, repo, "", "README.md", 1)
	servertest.SetBranch(t, repo, "main", head)
	b := fmt.Sprintf("/projects/%d/repository", p.ID)
	for _, rev := range []string{"main:../x", "main:./README.md", ":../x", "main^{tree}:./", "main@{upstream}", "main@{U}", "@{push}", "main:README.md"} {
		q, seg := url.QueryEscape(rev), url.PathEscape(rev)
		for _, tc := range []struct {
			path   string
			status int
			body   string
		}{
			{"/tree?ref=" + q, 404, `{"message":"404 Tree Not Found"}`},
			{"/files/README.md?ref=" + q, 404, `{"message":"404 Commit Not Found"}`},
			{"/files/README.md/raw?ref=" + q, 404, `{"message":"404 Commit Not Found"}`},
			{"/files/README.md/blame?ref=" + q, 404, `{"message":"404 Commit Not Found"}`},
			{"/commits?ref_name=" + q, 400, `{"message":"ref_name is invalid"}`},
			{"/commits/" + seg, 404, `{"message":"404 Commit Not Found"}`},
			{"/commits/" + seg + "/diff", 404, `{"message":"404 Commit Not Found"}`},
			{"/commits/" + seg + "/refs", 404, `{"message":"404 Commit Not Found"}`},
			{"/commits/" + seg + "/sequence", 404, `{"message":"404 Commit Not Found"}`},
			{"/compare?from=main&to=" + q, 404, `{"message":"404 Ref Not Found"}`},
			{"/compare?from=" + q + "&to=main", 404, `{"message":"404 Ref Not Found"}`},
			{"/archive?sha=" + q, 404, `{"message":"404 File Not Found"}`},
			{"/archive.zip?sha=" + q, 404, `{"message":"404 File Not Found"}`},
			{"/merge_base?refs[]=main&refs[]=" + q, 400, mustJSON(t, map[string]string{"message": "Could not find ref: " + rev})},
			{"/contributors?ref=" + q, 404, `{"message":"404 Not Found"}`},
			{"/blobs/" + seg, 404, `{"message":"404 Blob Not Found"}`},
			{"/blobs/" + seg + "/raw", 404, `{"message":"404 Blob Not Found"}`},
			{"/tags/" + seg, 404, `{"message":"404 Tag Not Found"}`},
			{"/changelog?version=1.0.0&from=" + q + "&to=main", 422, `{"message":"Failed to generate the changelog: Invalid or not found commit value in the given range"}`},
			{"/changelog?version=1.0.0&config_file_ref=" + q, 400, `{"error":"config_file_ref is invalid"}`},
		} {
			t.Run(rev+" "+tc.path, func(t *testing.T) {
				r := f.In.Do(t, "GET", b+tc.path, "", nil)
				require.Equal(t, tc.status, r.Status, r.String())
				assert.JSONEq(t, tc.body, string(r.Body))
				r = f.In.Do(t, "GET", b+"/files/README.md/raw?ref=main", "", nil)
				require.Equal(t, 200, r.Status, "the cat-file process still answers: %s", r.String())
			})
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
