package snippetapi_test

import (
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnippetParameterErrors: Grape's 400 answers for the parameters of creation and update,
// on both forms.
func TestSnippetParameterErrors(t *testing.T) {
	in := servertest.Start(t)
	u, tok := in.NewUser(t, "writer")
	g := in.NewGroup(t, "grp", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	in.AddProjectMember(t, p, u, 30)
	project := "/projects/" + strconv.Itoa(p.ID) + "/snippets"
	sn := create(t, in, "/snippets", tok, `{"title":"t","file_name":"a","content":"b"}`)
	ps := create(t, in, project, tok, `{"title":"t","visibility":"private","file_name":"a","content":"b"}`)

	cases := []struct {
		name, method, path, body, message string
	}{
		{"title missing", "POST", "/snippets", `{"file_name":"a","content":"b"}`, "title is missing"},
		{"title blank", "POST", "/snippets", `{"title":" ","file_name":"a","content":"b"}`, "title is empty"},
		{"visibility invalid", "POST", "/snippets", `{"title":"t","visibility":"secret","file_name":"a","content":"b"}`, "visibility does not have a valid value"},
		{"project visibility missing", "POST", project, `{"title":"t","file_name":"a","content":"b"}`, "visibility is missing"},
		{"neither files nor content", "POST", "/snippets", `{"title":"t"}`, "files, content are missing, exactly one parameter must be provided"},
		{"files and content", "POST", "/snippets", `{"title":"t","content":"c","file_name":"a","files":[{"file_path":"a","content":"b"}]}`, "files, content are mutually exclusive"},
		{"content without file_name", "POST", "/snippets", `{"title":"t","content":"c"}`, "file_name is missing"},
		{"content blank", "POST", "/snippets", `{"title":"t","content":"","file_name":"a"}`, "content is empty"},
		{"file path missing", "POST", "/snippets", `{"title":"t","files":[{"content":"b"}]}`, "files[0][file_path] is missing"},
		{"file content blank", "POST", "/snippets", `{"title":"t","files":[{"file_path":"a","content":""}]}`, "files[0][content] is empty"},
		{"file path traversal", "POST", "/snippets", `{"title":"t","files":[{"file_path":"../a","content":"b"}]}`, "files[0][file_path] should be a valid file path"},
		{"update nothing", "PUT", "/snippets/" + idOf(sn), `{}`, "content, description, files, file_name, title, visibility are missing, at least one parameter must be provided"},
		{"update action missing", "PUT", "/snippets/" + idOf(sn), `{"files":[{"file_path":"a","content":"x"}]}`, "files[0][action] is missing"},
		{"update action invalid", "PUT", "/snippets/" + idOf(sn), `{"files":[{"action":"chmod","file_path":"a"}]}`, "files[0][action] does not have a valid value"},
		{"update files and file_name", "PUT", project + "/" + idOf(ps), `{"file_name":"x","files":[{"action":"delete","file_path":"a"}]}`, "files, file_name are mutually exclusive"},
		{"update title blank", "PUT", project + "/" + idOf(ps), `{"title":""}`, "title is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := in.Do(t, c.method, c.path, tok, c.body)
			servertest.RequireError(t, r, 400, "error", c.message)
		})
	}
	// Nothing was created by the refused requests.
	assert.Len(t, servertest.List(t, in.Do(t, "GET", "/snippets", tok, nil)), 2)
	r := in.Do(t, "GET", "/snippets/abc", tok, nil)
	require.Equal(t, 404, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": "404 Snippet Not Found"}, servertest.Object(t, r))
}
