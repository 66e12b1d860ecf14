package commitapi_test

import (
	"context"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

const changeFailure = "Can't perform this action automatically. It may have already been done, " +
	"or a more recent commit may have updated some of this content. Please perform this action locally."

func TestCommits_CherryPickAndRevert(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	r := f.Repo(t, p)
	s := seed(t, r)
	for _, b := range []string{"pick", "pick2", "dry"} {
		gittest.SetRef(t, r, git.BranchRef(b), s.second)
	}
	// conflict changes README.md the other way from first.
	conflict := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: s.first, Parents: []git.ObjectID{s.first}, Author: bob, Minute: 5,
		Files: map[string]string{"README.md": "# Other\n\nBye.\n"}})
	gittest.SetRef(t, r, git.BranchRef("conflict"), conflict)
	gittest.SetRef(t, r, git.BranchRef("rev"), s.merge)
	tok := f.Tokens["maintainer"]
	maint := f.Users["maintainer"]
	path := base(p) + "/commits/"
	tip := func(b string) string {
		br, err := r.Branch(context.Background(), b)
		require.NoError(t, err)
		return string(br.Commit.ID)
	}

	t.Run("cherry-pick", func(t *testing.T) {
		res := f.In.Do(t, "POST", path+string(s.feature)+"/cherry_pick", tok, `{"branch":"pick"}`)
		require.Equal(t, 201, res.Status, res.String())
		got := servertest.Object(t, res)
		id := tip("pick")
		date := got["committed_date"].(string)
		require.Equal(t, map[string]any{
			"id": id, "short_id": id[:8], "created_at": date, "parent_ids": []any{string(s.second)},
			"title":       "Add feature",
			"message":     "Add feature\n\n\n(cherry picked from commit " + string(s.feature) + ")\n\nCo-authored-by: Alice <alice@example.com>",
			"author_name": maint.Name, "author_email": maint.Email, "authored_date": date,
			"committer_name": maint.Name, "committer_email": maint.Email, "committed_date": date,
			"trailers": map[string]any{}, "extended_trailers": map[string]any{},
			"web_url": f.In.URL + "/g/p/-/commit/" + id,
		}, got)
		require.Equal(t, "feature\n", blob(t, r, "pick", "feature.txt"))

		res = f.In.Do(t, "POST", path+"feature/cherry_pick", tok, `{"branch":"pick2","message":"custom"}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, "custom", servertest.Object(t, res)["message"])
	})

	t.Run("cherry-pick dry run", func(t *testing.T) {
		before := tip("dry")
		res := f.In.Do(t, "POST", path+"feature/cherry_pick", tok, `{"branch":"dry","dry_run":true}`)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, map[string]any{"dry_run": "success"}, servertest.Object(t, res))
		require.Equal(t, before, tip("dry"))
	})

	t.Run("cherry-pick failures carry an error_code", func(t *testing.T) {
		for _, tc := range []struct {
			desc, sha, body string
			want            map[string]any
		}{
			{"already present", string(s.feature), `{"branch":"main"}`,
				map[string]any{"message": "Commit cherry-pick failed: " + changeFailure, "error_code": "empty"}},
			{"already present, dry run", string(s.feature), `{"branch":"main","dry_run":true}`,
				map[string]any{"message": "Commit cherry-pick failed: " + changeFailure, "error_code": "empty", "dry_run": "error"}},
			{"conflict", string(s.second), `{"branch":"conflict"}`,
				map[string]any{"message": "Commit cherry-pick failed: " + changeFailure, "error_code": "conflict"}},
			{"conflict, dry run", string(s.second), `{"branch":"conflict","dry_run":"true"}`,
				map[string]any{"message": "Commit cherry-pick failed: " + changeFailure, "error_code": "conflict", "dry_run": "error"}},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				before := tip("conflict")
				res := f.In.Do(t, "POST", path+tc.sha+"/cherry_pick", tok, tc.body)
				require.Equal(t, 400, res.Status, res.String())
				require.Equal(t, tc.want, servertest.Object(t, res))
				require.Equal(t, before, tip("conflict"))
			})
		}
	})

	t.Run("revert", func(t *testing.T) {
		res := f.In.Do(t, "POST", path+string(s.second)+"/revert", tok, `{"branch":"rev"}`)
		require.Equal(t, 201, res.Status, res.String())
		got := servertest.Object(t, res)
		require.Equal(t, "Revert \"Second [commit]\"\n\nThis reverts commit "+string(s.second), got["message"])
		require.Equal(t, "Revert \"Second [commit]\"", got["title"])
		require.Equal(t, []any{string(s.merge)}, got["parent_ids"])
		require.Equal(t, maint.Name, got["author_name"])
		require.Equal(t, "# Demo\n\nHello.\n", blob(t, r, "rev", "README.md"))
		require.Equal(t, "", mode(t, r, "rev", "CHANGELOG.md"))

		res = f.In.Do(t, "POST", path+string(s.second)+"/revert", tok, `{"branch":"rev"}`)
		require.Equal(t, 400, res.Status, res.String())
		require.Equal(t, map[string]any{"message": "Commit revert failed: " + changeFailure, "error_code": "empty"}, servertest.Object(t, res))
		res = f.In.Do(t, "POST", path+string(s.second)+"/revert", tok, `{"branch":"rev","dry_run":true}`)
		require.Equal(t, map[string]any{"message": "Commit revert failed: " + changeFailure, "error_code": "empty", "dry_run": "error"}, servertest.Object(t, res))
		res = f.In.Do(t, "POST", path+string(s.second)+"/revert", tok, `{"branch":"main","dry_run":true}`)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, map[string]any{"dry_run": "success"}, servertest.Object(t, res))
	})

	t.Run("client-go", func(t *testing.T) {
		gl := f.In.Client(t, tok)
		gittest.SetRef(t, r, git.BranchRef("cg"), s.second)
		c, _, err := gl.Commits.CherryPickCommit(p.ID, string(s.feature), &gitlab.CherryPickCommitOptions{Branch: gitlab.Ptr("cg")})
		require.NoError(t, err)
		require.Equal(t, "Add feature", c.Title)
		c, _, err = gl.Commits.RevertCommit(p.ID, c.ID, &gitlab.RevertCommitOptions{Branch: gitlab.Ptr("cg")})
		require.NoError(t, err)
		require.Equal(t, "Revert \"Add feature\"", c.Title)
		_, _, err = gl.Commits.RevertCommit(p.ID, "unknown", &gitlab.RevertCommitOptions{Branch: gitlab.Ptr("cg")})
		require.ErrorIs(t, err, gitlab.ErrNotFound)
	})

	t.Run("refused", func(t *testing.T) {
		for _, op := range []string{"cherry_pick", "revert"} {
			servertest.RequireError(t, f.In.Do(t, "POST", path+"unknown/"+op, tok, `{"branch":"main"}`), 404, "message", "404 Commit Not Found")
			servertest.RequireError(t, f.In.Do(t, "POST", path+"feature/"+op, tok, `{"branch":"nope"}`), 404, "message", "404 Branch Not Found")
			servertest.RequireError(t, f.In.Do(t, "POST", path+"feature/"+op, tok, `{"branch":"a..b"}`), 400, "message", "The branch refname is invalid")
			servertest.RequireError(t, f.In.Do(t, "POST", path+"feature/"+op, tok, `{}`), 400, "error", "branch is missing")
			servertest.RequireError(t, f.In.Do(t, "POST", path+"feature/"+op, tok, `{"branch":" "}`), 400, "error", "branch is empty")
			servertest.RequireError(t, f.In.Do(t, "POST", path+"feature/"+op, tok, `{"branch":"main","dry_run":"x"}`), 400, "error", "dry_run is invalid")
			servertest.RequireError(t, f.In.Do(t, "POST", path+"feature/"+op, "", `{"branch":"main"}`), 401, "message", "401 Unauthorized")
			servertest.RequireError(t, f.In.Do(t, "POST", path+"feature/"+op, f.Tokens["reporter"], `{"branch":"main"}`), 403, "message", "403 Forbidden - You are not allowed to push into this branch")
		}
		priv := f.ProjectWithReadme(t, "priv", "private")
		servertest.RequireError(t, f.In.Do(t, "POST", base(priv)+"/commits/main/cherry_pick", "", `{"branch":"main"}`), 404, "message", "404 Project Not Found")
		// The default branch of a new project is protected: Developers may not pick into it.
		servertest.RequireError(t, f.In.Do(t, "POST", base(priv)+"/commits/main/revert", f.Tokens["developer"], `{"branch":"main"}`), 403, "message", "403 Forbidden - You are not allowed to push into this branch")
	})
}
