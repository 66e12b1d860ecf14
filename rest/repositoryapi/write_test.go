package repositoryapi_test

import (
	"context"
	"encoding/base64"
	"net/url"
	"strconv"
	"sync"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func testFilesWrite(t *testing.T, f *fixture) {
	p := f.Project(t, "wpub", "public")
	r := f.Repo(t, p)
	s := seed(t, r)
	dev := f.Tokens["developer"]
	ctx := context.Background()
	tip := func(t *testing.T, branch string) *git.Commit {
		t.Helper()
		b, err := r.Branch(ctx, branch)
		require.NoError(t, err)
		return b.Commit
	}
	content := func(t *testing.T, rev, path string) string {
		t.Helper()
		b, err := r.ReadBlobAt(ctx, rev, path, -1)
		require.NoError(t, err)
		return string(b.Data)
	}

	t.Run("create", func(t *testing.T) {
		res := f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/new%2Fhello%2Etxt", dev,
			`{"branch":"main","content":"hi\n","commit_message":"Add hello"}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, map[string]any{"file_path": "new/hello.txt", "branch": "main"}, servertest.Object(t, res))
		c := tip(t, "main")
		require.Equal(t, []git.ObjectID{s.merge}, c.Parents)
		require.Equal(t, "Add hello", c.Message)
		require.Equal(t, "User developer", c.Author.Name)
		require.Equal(t, "developer@example.com", c.Author.Email)
		require.Equal(t, "User developer", c.Committer.Name)
		require.Equal(t, "hi\n", content(t, "main", "new/hello.txt"))
	})

	t.Run("create an existing file", func(t *testing.T) {
		before := tip(t, "main").ID
		servertest.RequireError(t, f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/README.md", dev,
			`{"branch":"main","content":"x","commit_message":"m"}`), 400, "message", "A file with this name already exists")
		require.Equal(t, before, tip(t, "main").ID)
	})

	t.Run("create with base64, author and executable bit", func(t *testing.T) {
		res := f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/tool%2Esh", dev, `{"branch":"main",
			"content":"`+base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\n"))+`","encoding":"base64",
			"author_name":"Ann Author","author_email":"ann@example.com","execute_filemode":true,"commit_message":"tool"}`)
		require.Equal(t, 201, res.Status, res.String())
		c := tip(t, "main")
		require.Equal(t, "Ann Author", c.Author.Name)
		require.Equal(t, "ann@example.com", c.Author.Email)
		require.Equal(t, "User developer", c.Committer.Name)
		require.Equal(t, "#!/bin/sh\n", content(t, "main", "tool.sh"))
		e, err := r.TreeEntryAt(ctx, "main", "tool.sh")
		require.NoError(t, err)
		require.Equal(t, "100755", e.Mode)
	})

	t.Run("update with last_commit_id", func(t *testing.T) {
		last := tip(t, "main").ID // tool.sh was last changed by the previous commit
		res := f.In.Do(t, "PUT", "/projects/g%2Fwpub/repository/files/tool.sh", dev,
			`{"branch":"main","content":"echo\n","commit_message":"update","last_commit_id":"`+string(last)+`","execute_filemode":false}`)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, map[string]any{"file_path": "tool.sh", "branch": "main"}, servertest.Object(t, res))
		require.Equal(t, "echo\n", content(t, "main", "tool.sh"))
		e, err := r.TreeEntryAt(ctx, "main", "tool.sh")
		require.NoError(t, err)
		require.Equal(t, "100644", e.Mode)
	})

	t.Run("update of a file changed since", func(t *testing.T) {
		servertest.RequireError(t, f.In.Do(t, "PUT", "/projects/g%2Fwpub/repository/files/tool.sh", dev,
			`{"branch":"main","content":"again\n","commit_message":"update","last_commit_id":"`+string(s.first)+`"}`),
			400, "message", "You are attempting to update a file that has changed since you started editing it.")
		require.Equal(t, "echo\n", content(t, "main", "tool.sh"))
	})

	t.Run("update of a missing file", func(t *testing.T) {
		servertest.RequireError(t, f.In.Do(t, "PUT", "/projects/g%2Fwpub/repository/files/nope.txt", dev,
			`{"branch":"main","content":"x","commit_message":"m"}`), 400, "message", "A file with this name doesn't exist")
	})

	t.Run("create on a new branch from start_branch", func(t *testing.T) {
		res := f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/feat.txt", dev,
			`{"branch":"topic","start_branch":"feature","content":"t\n","commit_message":"topic"}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, []git.ObjectID{s.feature}, tip(t, "topic").Parents)
		require.Equal(t, s.feature, tip(t, "feature").ID)
	})

	t.Run("branch rules", func(t *testing.T) {
		cases := []struct {
			desc, body, msg string
		}{
			{"branch does not exist", `{"branch":"nope","content":"x","commit_message":"m"}`,
				"You can only create or edit files when you are on a branch"},
			{"start branch does not exist", `{"branch":"new","start_branch":"nope","content":"x","commit_message":"m"}`,
				"You can only create or edit files when you are on a branch"},
			{"new branch exists", `{"branch":"feature","start_branch":"main","content":"x","commit_message":"m"}`,
				"A branch called 'feature' already exists. Switch to that branch in order to make changes"},
			{"invalid new branch", `{"branch":"a..b","start_branch":"main","content":"x","commit_message":"m"}`,
				"Something went wrong when we tried to create 'a..b' for you: Branch name is invalid"},
		}
		for _, c := range cases {
			t.Run(c.desc, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/rules.txt", dev, c.body), 400, "message", c.msg)
			})
		}
	})

	t.Run("parameter errors", func(t *testing.T) {
		cases := []struct {
			method, path, body, msg string
		}{
			{"POST", "x.txt", `{}`, "branch is missing, commit_message is missing, content is missing"},
			{"POST", "x.txt", `{"branch":"","content":"x","commit_message":"m"}`, "branch is empty"},
			{"POST", "x.txt", `{"branch":"main","content":"x","commit_message":""}`, "commit_message is empty"},
			{"POST", "x.txt", `{"branch":"main","content":"x","commit_message":"m","encoding":"hex"}`, "encoding does not have a valid value"},
			{"POST", "x.txt", `{"branch":"main","content":"x","commit_message":"m","execute_filemode":"sure"}`, "execute_filemode is invalid"},
			{"DELETE", "x.txt", `{"branch":"main"}`, "commit_message is missing"},
			{"POST", "..%2Fx", `{"branch":"main","content":"x","commit_message":"m"}`, "file_path should be a valid file path"},
			{"PUT", "%2Fabs", `{"branch":"main","content":"x","commit_message":"m"}`, "file_path should be a valid file path"},
		}
		for _, c := range cases {
			t.Run(c.method+" "+c.body, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, c.method, "/projects/g%2Fwpub/repository/files/"+c.path, dev, c.body), 400, "error", c.msg)
			})
		}
	})

	t.Run("delete", func(t *testing.T) {
		res := f.In.Do(t, "DELETE", "/projects/g%2Fwpub/repository/files/tool.sh", dev, `{"branch":"main","commit_message":"rm"}`)
		require.Equal(t, 204, res.Status, res.String())
		require.Empty(t, res.Body)
		_, err := r.TreeEntryAt(ctx, "main", "tool.sh")
		require.ErrorIs(t, err, git.ErrPathNotFound)
		servertest.RequireError(t, f.In.Do(t, "DELETE", "/projects/g%2Fwpub/repository/files/tool.sh", dev, `{"branch":"main","commit_message":"rm"}`),
			400, "message", "A file with this name doesn't exist")
		servertest.RequireError(t, f.In.Do(t, "DELETE", "/projects/g%2Fwpub/repository/files/README.md", dev,
			`{"branch":"main","commit_message":"rm","last_commit_id":"`+string(s.first)+`"}`),
			400, "message", "You are attempting to delete a file that has been previously updated.")
	})

	t.Run("form body", func(t *testing.T) {
		res := f.In.Do(t, "PUT", "/projects/g%2Fwpub/repository/files/new%2Fhello%2Etxt", dev,
			url.Values{"branch": {"main"}, "content": {"form\n"}, "commit_message": {"form"}, "file_path": {"ignored.txt"}})
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, "new/hello.txt", servertest.Object(t, res)["file_path"])
		require.Equal(t, "form\n", content(t, "main", "new/hello.txt"))
	})

	t.Run("permissions", func(t *testing.T) {
		body := `{"branch":"main","content":"x","commit_message":"m"}`
		servertest.RequireError(t, f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/p.txt", "", body), 401, "message", "401 Unauthorized")
		servertest.RequireError(t, f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/p.txt", f.Tokens["reporter"], body), 403, "message", "403 Forbidden")
		servertest.RequireError(t, f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/p.txt", f.Tokens["outsider"], body), 403, "message", "403 Forbidden")
		servertest.RequireError(t, f.In.Do(t, "POST", "/projects/g%2Fpriv/repository/files/p.txt", f.Tokens["outsider"], body), 404, "message", "404 Project Not Found")
		ro := f.In.NewToken(t, f.Users["developer"].ID, "read_api")
		res := f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/p.txt", ro, body)
		require.Equal(t, 403, res.Status, res.String())
		require.Equal(t, "insufficient_scope", servertest.Object(t, res)["error"])
	})

	t.Run("protected branch", func(t *testing.T) {
		res := f.In.Do(t, "POST", "/projects/g%2Fwpub/protected_branches", f.Tokens["maintainer"], `{"name":"main","push_access_level":40}`)
		require.Equal(t, 201, res.Status, res.String())
		servertest.RequireError(t, f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/p.txt", dev, `{"branch":"main","content":"x","commit_message":"m"}`),
			400, "message", "You are not allowed to push into this branch")
		res = f.In.Do(t, "POST", "/projects/g%2Fwpub/repository/files/p.txt", f.Tokens["maintainer"], `{"branch":"main","content":"x","commit_message":"m"}`)
		require.Equal(t, 201, res.Status, res.String())
	})

	t.Run("client-go", func(t *testing.T) {
		c := f.In.Client(t, dev)
		info, _, err := c.RepositoryFiles.CreateFile("g/wpub", "cg/file.txt", &gitlab.CreateFileOptions{
			Branch: gitlab.Ptr("feature"), Content: gitlab.Ptr("one\n"), CommitMessage: gitlab.Ptr("cg")})
		require.NoError(t, err)
		require.Equal(t, gitlab.FileInfo{FilePath: "cg/file.txt", Branch: "feature"}, *info)
		file, _, err := c.RepositoryFiles.GetFile("g/wpub", "cg/file.txt", &gitlab.GetFileOptions{Ref: gitlab.Ptr("feature")})
		require.NoError(t, err)
		_, _, err = c.RepositoryFiles.UpdateFile("g/wpub", "cg/file.txt", &gitlab.UpdateFileOptions{
			Branch: gitlab.Ptr("feature"), Content: gitlab.Ptr("two\n"), CommitMessage: gitlab.Ptr("cg2"), LastCommitID: gitlab.Ptr(file.LastCommitID)})
		require.NoError(t, err)
		_, _, err = c.RepositoryFiles.UpdateFile("g/wpub", "cg/file.txt", &gitlab.UpdateFileOptions{
			Branch: gitlab.Ptr("feature"), Content: gitlab.Ptr("three\n"), CommitMessage: gitlab.Ptr("cg3"), LastCommitID: gitlab.Ptr(file.LastCommitID)})
		require.ErrorContains(t, err, "You are attempting to update a file that has changed since you started editing it.")
		_, err = c.RepositoryFiles.DeleteFile("g/wpub", "cg/file.txt", &gitlab.DeleteFileOptions{Branch: gitlab.Ptr("feature"), CommitMessage: gitlab.Ptr("rm")})
		require.NoError(t, err)
	})
}

// TestFiles_writeEmptyRepository checks that the first file of an empty repository creates its
// branch, which becomes the default branch.
func testFilesWriteEmptyRepository(t *testing.T, f *fixture) {
	p := f.Project(t, "empty-write", "public")
	r := f.Repo(t, p)
	res := f.In.Do(t, "POST", "/projects/g%2Fempty-write/repository/files/README.md", f.Tokens["maintainer"],
		`{"branch":"develop","content":"hello\n","commit_message":"first"}`)
	require.Equal(t, 201, res.Status, res.String())
	b, err := r.Branch(context.Background(), "develop")
	require.NoError(t, err)
	require.Empty(t, b.Commit.Parents)
	head, err := r.Head(context.Background())
	require.NoError(t, err)
	require.Equal(t, "develop", head)
	res = f.In.Do(t, "GET", "/projects/g%2Fempty-write", f.Tokens["maintainer"], nil)
	require.Equal(t, 200, res.Status, res.String())
	require.Equal(t, "develop", servertest.Object(t, res)["default_branch"])
	res = f.In.Do(t, "GET", "/projects/g%2Fempty-write/repository/files/README.md/raw", "", nil)
	require.Equal(t, 200, res.Status, res.String())
	require.Equal(t, "hello\n", string(res.Body))
}

// TestFiles_concurrentWrites checks that concurrent commits to one branch never lose a change:
// each either lands or is refused.
func testFilesConcurrentWrites(t *testing.T, f *fixture) {
	p := f.Project(t, "race", "public")
	r := f.Repo(t, p)
	gittest.SetRef(t, r, "refs/heads/main", gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Files: map[string]string{"README.md": "x\n"}}))
	const n = 8
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := f.In.Do(t, "POST", "/projects/g%2Frace/repository/files/f"+strconv.Itoa(i), f.Tokens["developer"],
				`{"branch":"main","content":"x","commit_message":"m"}`)
			statuses[i] = res.Status
		}(i)
	}
	wg.Wait()
	landed := 0
	for i, st := range statuses {
		require.Contains(t, []int{201, 400}, st)
		_, err := r.TreeEntryAt(context.Background(), "main", "f"+strconv.Itoa(i))
		if st == 201 {
			landed++
			require.NoError(t, err, "an acknowledged commit was lost")
		}
	}
	require.GreaterOrEqual(t, landed, 1)
}
