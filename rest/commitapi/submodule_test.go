package commitapi_test

import (
	"context"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestSubmodules_Update(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	r := f.Repo(t, p)
	s := seed(t, r)
	tok := f.Tokens["maintainer"]
	maint := f.Users["maintainer"]
	path := base(p) + "/submodules/"
	newSHA := strings.Repeat("ab", 20)

	t.Run("moves the submodule", func(t *testing.T) {
		res := f.In.Do(t, "PUT", path+"lib", tok, `{"branch":"main","commit_sha":"`+newSHA+`"}`)
		require.Equal(t, 200, res.Status, res.String())
		got := servertest.Object(t, res)
		b, err := r.Branch(context.Background(), "main")
		require.NoError(t, err)
		id := string(b.Commit.ID)
		date := got["committed_date"].(string)
		require.Equal(t, map[string]any{
			"id": id, "short_id": id[:8], "created_at": date, "parent_ids": []any{string(s.merge)},
			"title": "Update submodule lib with oid " + newSHA, "message": "Update submodule lib with oid " + newSHA,
			"author_name": maint.Name, "author_email": maint.Email, "authored_date": date,
			"committer_name": maint.Name, "committer_email": maint.Email, "committed_date": date,
			"trailers": map[string]any{}, "extended_trailers": map[string]any{},
			"web_url": f.In.URL + "/g/p/-/commit/" + id,
			"status":  nil, "project_id": float64(p.ID), "last_pipeline": nil,
		}, got)
		e, err := r.TreeEntryAt(context.Background(), "main", "lib")
		require.NoError(t, err)
		require.Equal(t, newSHA, string(e.ID))
		require.Equal(t, "160000", e.Mode)
	})

	t.Run("client-go", func(t *testing.T) {
		sha := strings.Repeat("cd", 20)
		c, _, err := f.In.Client(t, tok).RepositorySubmodules.UpdateSubmodule(p.ID, "lib", &gitlab.UpdateSubmoduleOptions{
			Branch: gitlab.Ptr("feature"), CommitSHA: gitlab.Ptr(sha), CommitMessage: gitlab.Ptr("Bump lib"),
		})
		require.NoError(t, err)
		require.Equal(t, "Bump lib", c.Title)
		require.Equal(t, []string{string(s.feature)}, c.ParentIDs)
		require.Nil(t, c.Status)
	})

	t.Run("refused", func(t *testing.T) {
		for _, tc := range []struct {
			desc, sub, body, key, msg string
			status                    int
		}{
			{"already there", "lib", `{"branch":"main","commit_sha":"` + newSHA + `"}`, "message", "The submodule lib is already at " + newSHA, 400},
			{"not a submodule", "README%2Emd", `{"branch":"main","commit_sha":"` + gittest.SubmoduleCommit + `"}`, "message", "Invalid submodule path", 400},
			{"missing path", "nope", `{"branch":"main","commit_sha":"` + gittest.SubmoduleCommit + `"}`, "message", "Invalid submodule path", 400},
			{"traversal", "%2E%2E%2Flib", `{"branch":"main","commit_sha":"` + gittest.SubmoduleCommit + `"}`, "message", "Invalid submodule path", 400},
			{"short sha", "lib", `{"branch":"main","commit_sha":"123"}`, "message", "Invalid parameters", 400},
			{"unknown branch", "lib", `{"branch":"nope","commit_sha":"` + gittest.SubmoduleCommit + `"}`, "message", "You can only create or edit files when you are on a branch", 400},
			{"missing parameters", "lib", `{}`, "error", "commit_sha is missing, branch is missing", 400},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, "PUT", path+tc.sub, tok, tc.body), tc.status, tc.key, tc.msg)
			})
		}
		body := `{"branch":"main","commit_sha":"` + gittest.SubmoduleCommit + `"}`
		servertest.RequireError(t, f.In.Do(t, "PUT", path+"lib", "", body), 401, "message", "401 Unauthorized")
		servertest.RequireError(t, f.In.Do(t, "PUT", path+"lib", f.Tokens["reporter"], body), 403, "message", "403 Forbidden")
		priv := f.Project(t, "priv", "private")
		servertest.RequireError(t, f.In.Do(t, "PUT", base(priv)+"/submodules/lib", "", body), 401, "message", "401 Unauthorized")
		servertest.RequireError(t, f.In.Do(t, "PUT", base(priv)+"/submodules/lib", f.Tokens["outsider"], body), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.In.Do(t, "PUT", base(priv)+"/submodules/lib", f.Tokens["maintainer"], body), 400, "message", "The repository is empty")
	})

	// The push check of every commit: a branch only Maintainers may push to refuses a
	// Developer (with Submodules::UpdateService's 400), one no one may push to refuses a
	// Maintainer, and an unprotected branch admits a Developer.
	t.Run("protected branches", func(t *testing.T) {
		for _, rule := range []string{`{"name":"main","push_access_level":40}`, `{"name":"frozen","push_access_level":0}`} {
			res := f.In.Do(t, "POST", "/projects/"+itoa(p.ID)+"/protected_branches", tok, rule)
			require.Equal(t, 201, res.Status, res.String())
		}
		ctx := context.Background()
		main, err := r.Branch(ctx, "main")
		require.NoError(t, err)
		gittest.SetRef(t, r, git.BranchRef("frozen"), main.Commit.ID)
		move := func(role, branch, sha string) *servertest.Response {
			return f.In.Do(t, "PUT", path+"lib", f.Tokens[role], `{"branch":"`+branch+`","commit_sha":"`+sha+`"}`)
		}
		servertest.RequireError(t, move("developer", "main", strings.Repeat("ef", 20)), 400, "message", "You are not allowed to push into this branch")
		servertest.RequireError(t, move("maintainer", "frozen", strings.Repeat("ef", 20)), 400, "message", "You are not allowed to push into this branch")
		after, err := r.Branch(ctx, "main")
		require.NoError(t, err)
		require.Equal(t, main.Commit.ID, after.Commit.ID, "the refused update moved nothing")
		require.Equal(t, 200, move("developer", "feature", strings.Repeat("ef", 20)).Status)
		require.Equal(t, 200, move("maintainer", "main", strings.Repeat("ef", 20)).Status)
	})
}
