package snippetapi_test

import (
	"net/http"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// restricted_visibility_levels: a non-administrator may not create a snippet at a restricted
// level or move one there (GitLab's snippet services answer 403 with the model error); an
// administrator may.
func TestSnippets_restrictedVisibilityLevels(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "alice")
	r := in.Do(t, "PUT", "/application/settings", servertest.RootToken, `{"restricted_visibility_levels": ["public"]}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	refused := map[string]any{"message": map[string]any{"error": "Visibility level Public has been restricted by your GitLab administrator"}}

	r = in.Do(t, "POST", "/snippets", tok, `{"title": "t", "file_name": "a.txt", "content": "x", "visibility": "public"}`)
	require.Equal(t, http.StatusForbidden, r.Status, r.String())
	assert.Equal(t, refused, servertest.Object(t, r))

	r = in.Do(t, "POST", "/snippets", tok, `{"title": "t", "file_name": "a.txt", "content": "x", "visibility": "internal"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	id := strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))
	r = in.Do(t, "PUT", "/snippets/"+id, tok, `{"visibility": "public"}`)
	require.Equal(t, http.StatusForbidden, r.Status, r.String())
	assert.Equal(t, refused, servertest.Object(t, r))

	r = in.Do(t, "POST", "/snippets", servertest.RootToken, `{"title": "t", "file_name": "a.txt", "content": "x", "visibility": "public"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
}
