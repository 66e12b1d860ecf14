package commitapi_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// blob reads a file of a revision.
func blob(t *testing.T, r *git.Repository, rev, path string) string {
	t.Helper()
	b, err := r.ReadBlobAt(context.Background(), rev, path, -1)
	require.NoError(t, err, path)
	return string(b.Data)
}

// mode returns the mode of a path at a revision, "" when missing.
func mode(t *testing.T, r *git.Repository, rev, path string) string {
	t.Helper()
	e, err := r.TreeEntryAt(context.Background(), rev, path)
	if err != nil {
		return ""
	}
	return e.Mode
}

func TestCommits_Create(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "p", "public")
	r := f.Repo(t, p)
	path := base(p) + "/commits"
	// main is protected (Maintainers push), so writes to it use the Maintainer.
	root := f.Tokens["maintainer"]
	maint := f.Users["maintainer"]
	head := func(branch string) string {
		t.Helper()
		b, err := r.Branch(context.Background(), branch)
		require.NoError(t, err)
		return string(b.Commit.ID)
	}

	t.Run("exact shape", func(t *testing.T) {
		parent := head("main")
		res := f.In.Do(t, "POST", path, root, `{"branch":"main","commit_message":"Add a\n\nBody","actions":[{"action":"create","file_path":"a.txt","content":"one\ntwo\n"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		got := servertest.Object(t, res)
		id := head("main")
		require.Equal(t, id, got["id"])
		date := got["committed_date"].(string)
		require.True(t, strings.HasSuffix(date, ".000+00:00"), date)
		require.Equal(t, map[string]any{
			"id": id, "short_id": id[:8], "created_at": date, "parent_ids": []any{parent},
			"title": "Add a", "message": "Add a\n\nBody",
			"author_name": maint.Name, "author_email": maint.Email, "authored_date": date,
			"committer_name": maint.Name, "committer_email": maint.Email, "committed_date": date,
			"trailers": map[string]any{}, "extended_trailers": map[string]any{},
			"web_url": f.In.URL + "/g/p/-/commit/" + id,
			"stats":   map[string]any{"additions": 2.0, "deletions": 0.0, "total": 2.0},
			"status":  nil, "project_id": float64(p.ID), "last_pipeline": nil,
		}, got)
		require.Equal(t, "one\ntwo\n", blob(t, r, "main", "a.txt"))
	})

	t.Run("every action in one commit", func(t *testing.T) {
		res := f.In.Do(t, "POST", path, root, `{"branch":"main","commit_message":"many","stats":false,"actions":[
			{"action":"create","file_path":"dir/new.sh","content":"#!/bin/sh\n"},
			{"action":"chmod","file_path":"dir/new.sh","execute_filemode":true},
			{"action":"update","file_path":"README.md","content":"replaced\n"},
			{"action":"move","file_path":"moved/a.txt","previous_path":"a.txt"},
			{"action":"create","file_path":"gone.txt"},
			{"action":"delete","file_path":"gone.txt"},
			{"action":"create","file_path":"bin.dat","content":"AAEC/w==","encoding":"base64"},
			{"action":"create","file_path":"nopad.txt","content":"aGk","encoding":"base64"}
		]}`)
		require.Equal(t, 201, res.Status, res.String())
		require.NotContains(t, servertest.Object(t, res), "stats")
		require.Equal(t, "100755", mode(t, r, "main", "dir/new.sh"))
		require.Equal(t, "replaced\n", blob(t, r, "main", "README.md"))
		require.Equal(t, "one\ntwo\n", blob(t, r, "main", "moved/a.txt"))
		require.Equal(t, "", mode(t, r, "main", "a.txt"))
		require.Equal(t, "", mode(t, r, "main", "gone.txt"))
		require.Equal(t, "\x00\x01\x02\xff", blob(t, r, "main", "bin.dat"))
		require.Equal(t, "hi", blob(t, r, "main", "nopad.txt"))

		// A move with content replaces it; chmod false clears the bit.
		res = f.In.Do(t, "POST", path, root, `{"branch":"main","commit_message":"more","actions":[
			{"action":"move","file_path":"b.txt","previous_path":"moved/a.txt","content":"new\n"},
			{"action":"chmod","file_path":"dir/new.sh","execute_filemode":"false"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, "new\n", blob(t, r, "main", "b.txt"))
		require.Equal(t, "100644", mode(t, r, "main", "dir/new.sh"))
	})

	t.Run("form body", func(t *testing.T) {
		// Rack's grouping: a new hash starts when a key repeats, so the order matters.
		form := "branch=main&commit_message=form" +
			"&actions[][action]=create&actions[][file_path]=form.txt&actions[][content]=" + url.QueryEscape("from a form") +
			"&actions[][action]=update&actions[][file_path]=b.txt&actions[][content]=changed" +
			"&author_name=" + url.QueryEscape("Someone Else") + "&author_email=else%40example.com"
		res := doForm(t, f.In, path, root, form)
		require.Equal(t, 201, res.Status, res.String())
		got := servertest.Object(t, res)
		require.Equal(t, "Someone Else", got["author_name"])
		require.Equal(t, "else@example.com", got["author_email"])
		require.Equal(t, maint.Name, got["committer_name"])
		require.Equal(t, "from a form", blob(t, r, "main", "form.txt"))
		require.Equal(t, "changed", blob(t, r, "main", "b.txt"))
	})

	t.Run("last_commit_id", func(t *testing.T) {
		last := head("main") // the form commit last changed b.txt
		res := f.In.Do(t, "POST", path, root, `{"branch":"main","commit_message":"ok","actions":[{"action":"update","file_path":"b.txt","content":"v2","last_commit_id":"`+last+`"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		// The file changed since last: refused, for update, move and delete alike.
		for _, action := range []string{
			`{"action":"update","file_path":"b.txt","content":"v3","last_commit_id":"` + last + `"}`,
			`{"action":"delete","file_path":"b.txt","last_commit_id":"` + last + `"}`,
			`{"action":"move","file_path":"c.txt","previous_path":"b.txt","last_commit_id":"` + last + `"}`,
		} {
			res = f.In.Do(t, "POST", path, root, `{"branch":"main","commit_message":"stale","actions":[`+action+`]}`)
			servertest.RequireError(t, res, 400, "message", "The file has changed since you started editing it: b.txt")
		}
		require.Equal(t, "v2", blob(t, r, "main", "b.txt"))
		// An unknown last_commit_id tells nothing and passes, as in GitLab.
		res = f.In.Do(t, "POST", path, root, `{"branch":"main","commit_message":"ok","actions":[{"action":"update","file_path":"b.txt","content":"v3","last_commit_id":"nope"}]}`)
		require.Equal(t, 201, res.Status, res.String())
	})

	t.Run("new branches", func(t *testing.T) {
		mainHead := head("main")
		res := f.In.Do(t, "POST", path, root, `{"branch":"topic","start_branch":"main","commit_message":"topic","actions":[{"action":"create","file_path":"topic.txt"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, []any{mainHead}, servertest.Object(t, res)["parent_ids"])
		require.Equal(t, mainHead, head("main"))

		first := servertest.List(t, f.In.Do(t, "GET", path+"?ref_name=main&per_page=100", root, nil))
		rootCommit := first[len(first)-1]["id"].(string)
		res = f.In.Do(t, "POST", path, root, `{"branch":"from-sha","start_sha":"`+rootCommit+`","commit_message":"x","actions":[{"action":"create","file_path":"x.txt"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, []any{rootCommit}, servertest.Object(t, res)["parent_ids"])

		// force overwrites an existing branch with a commit on the start.
		res = f.In.Do(t, "POST", path, root, `{"branch":"topic","start_sha":"`+rootCommit+`","force":true,"commit_message":"forced","actions":[{"action":"create","file_path":"f.txt"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, []any{rootCommit}, servertest.Object(t, res)["parent_ids"])
		require.Equal(t, servertest.Object(t, res)["id"], head("topic"))
	})

	t.Run("client-go", func(t *testing.T) {
		gl := f.In.Client(t, f.Tokens["maintainer"])
		c, _, err := gl.Commits.CreateCommit(p.ID, &gitlab.CreateCommitOptions{
			Branch: gitlab.Ptr("main"), CommitMessage: gitlab.Ptr("via client-go"),
			Actions: []*gitlab.CommitActionOptions{
				{Action: gitlab.Ptr(gitlab.FileCreate), FilePath: gitlab.Ptr("cg.txt"), Content: gitlab.Ptr("aGVsbG8="), Encoding: gitlab.Ptr("base64")},
				{Action: gitlab.Ptr(gitlab.FileChmod), FilePath: gitlab.Ptr("cg.txt"), ExecuteFilemode: gitlab.Ptr(true)},
			},
		})
		require.NoError(t, err)
		require.Equal(t, "via client-go", c.Title)
		require.Equal(t, "User maintainer", c.CommitterName)
		require.Equal(t, int64(1), c.Stats.Additions)
		require.Equal(t, "hello", blob(t, r, "main", "cg.txt"))
		require.Equal(t, "100755", mode(t, r, "main", "cg.txt"))
	})

	t.Run("refused, nothing committed", func(t *testing.T) {
		before := head("main")
		act := func(a string) string {
			return `{"branch":"main","commit_message":"m","actions":[` + a + `]}`
		}
		for _, tc := range []struct {
			desc, body, key, msg string
		}{
			{"nothing given", `{}`, "error", "branch is missing, commit_message is missing, actions is missing"},
			{"blank branch", `{"branch":" ","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "error", "branch is empty"},
			{"no actions", `{"branch":"main","commit_message":"m","actions":[]}`, "error", "actions is empty"},
			{"actions not a list", `{"branch":"main","commit_message":"m","actions":"x"}`, "error", "actions is invalid"},
			{"unknown action", act(`{"action":"copy","file_path":"x"}`), "error", "actions[0][action] does not have a valid value"},
			{"null action", act(`{"action":null,"file_path":"x"}`), "error", "actions[0][action] is empty"},
			{"missing fields", act(`{"action":"update"}`), "error", "actions[0][file_path] is missing, actions[0][content] is missing"},
			{"move without source", act(`{"action":"move","file_path":"x"}`), "error", "actions[0][previous_path] is missing"},
			{"chmod without mode", act(`{"action":"chmod","file_path":"README.md"}`), "error", "actions[0][execute_filemode] is missing"},
			{"chmod bad mode", act(`{"action":"chmod","file_path":"README.md","execute_filemode":"maybe"}`), "error", "actions[0][execute_filemode] is invalid"},
			{"bad encoding", act(`{"action":"create","file_path":"x","content":"x","encoding":"hex"}`), "error", "actions[0][encoding] does not have a valid value"},
			{"start branch and sha", `{"branch":"n","start_branch":"main","start_sha":"abc","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "error", "start_branch, start_sha are mutually exclusive"},
			{"traversal", act(`{"action":"create","file_path":"../x","content":"x"}`), "error", "actions[0][file_path] should be a valid file path"},
			{"inner traversal", act(`{"action":"create","file_path":"a/../../x","content":"x"}`), "error", "actions[0][file_path] should be a valid file path"},
			{"absolute path", act(`{"action":"create","file_path":"/etc/passwd","content":"x"}`), "error", "actions[0][file_path] should be a valid file path"},
			{"NUL byte", act(`{"action":"create","file_path":"a\u0000b","content":"x"}`), "error", "actions[0][file_path] should be a valid file path"},
			{".git path", act(`{"action":"create","file_path":".git/config","content":"x"}`), "error", "actions[0][file_path] should be a valid file path"},
			{"move traversal", act(`{"action":"move","file_path":"x","previous_path":"../README.md"}`), "error", "actions[0][previous_path] should be a valid file path"},
			{"invalid base64", act(`{"action":"create","file_path":"x","content":"not base64!","encoding":"base64"}`), "error", "actions[0][content] is invalid"},
			{"file exists", act(`{"action":"create","file_path":"README.md","content":"x"}`), "message", "A file with this name already exists"},
			{"update missing file", act(`{"action":"update","file_path":"nope.txt","content":"x"}`), "message", "A file with this name doesn't exist"},
			{"delete missing file", act(`{"action":"delete","file_path":"nope.txt"}`), "message", "A file with this name doesn't exist"},
			{"chmod missing file", act(`{"action":"chmod","file_path":"nope.txt","execute_filemode":true}`), "message", "A file with this name doesn't exist"},
			{"directory in the way", act(`{"action":"create","file_path":"dir","content":"x"}`), "message", "A directory with this name already exists"},
			{"second action fails", act(`{"action":"create","file_path":"ok.txt"},{"action":"create","file_path":"ok.txt"}`), "message", "A file with this name already exists"},
			{"unknown branch", `{"branch":"nope","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "You can only create or edit files when you are on a branch"},
			{"unknown start branch", `{"branch":"n","start_branch":"nope","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "You can only create or edit files when you are on a branch"},
			{"option as start branch", `{"branch":"n","start_branch":"--upload-pack=x","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "You can only create or edit files when you are on a branch"},
			{"new branch exists", `{"branch":"topic","start_branch":"main","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "A branch called 'topic' already exists. Switch to that branch in order to make changes"},
			{"bad new branch name", `{"branch":"wrong:name","start_branch":"main","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "Something went wrong when we tried to create 'wrong:name' for you: Branch name is invalid"},
			{"option as branch", `{"branch":"-x","start_branch":"main","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "Something went wrong when we tried to create '-x' for you: Branch name is invalid"},
			{"short start_sha", `{"branch":"n","start_sha":"abc","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "Invalid start_sha 'abc'"},
			{"unknown start_sha", `{"branch":"n","start_sha":"` + strings.Repeat("1", 40) + `","commit_message":"m","actions":[{"action":"create","file_path":"x"}]}`, "message", "Cannot find start_sha '" + strings.Repeat("1", 40) + "'"},
			{"bad stats", `{"branch":"main","commit_message":"m","stats":"perhaps","actions":[{"action":"create","file_path":"x"}]}`, "error", "stats is invalid"},
			{"bad JSON", `{"branch":`, "error", "There was a problem in the JSON you submitted: unexpected EOF"},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, "POST", path, root, tc.body), 400, tc.key, tc.msg)
			})
		}
		require.Equal(t, before, head("main"))
		require.Equal(t, "", mode(t, r, "main", "x"))
	})

	t.Run("a body over the limit is refused", func(t *testing.T) {
		big := strings.Repeat("a", 50<<20)
		res := f.In.Do(t, "POST", path, root, `{"branch":"main","commit_message":"big","actions":[{"action":"create","file_path":"big","content":"`+big+`"}]}`)
		require.Equal(t, 413, res.Status)
	})

	t.Run("permissions", func(t *testing.T) {
		body := func(branch string) string {
			return `{"branch":"` + branch + `","start_branch":"main","commit_message":"m","actions":[{"action":"create","file_path":"perm-` + branch + `.txt"}]}`
		}
		servertest.RequireError(t, f.In.Do(t, "POST", path, "", body("anon")), 401, "message", "401 Unauthorized")
		for _, who := range []string{"outsider", "guest", "reporter"} {
			servertest.RequireError(t, f.In.Do(t, "POST", path, f.Tokens[who], body(who)), 403, "message", "403 Forbidden - You are not allowed to push into this branch")
		}
		// main is protected (Maintainers push): a Developer may only use other branches.
		servertest.RequireError(t, f.In.Do(t, "POST", path, f.Tokens["developer"], `{"branch":"main","commit_message":"m","actions":[{"action":"create","file_path":"dev.txt"}]}`),
			403, "message", "403 Forbidden - You are not allowed to push into this branch")
		res := f.In.Do(t, "POST", path, f.Tokens["developer"], body("dev"))
		require.Equal(t, 201, res.Status, res.String())
		res = f.In.Do(t, "POST", path, f.Tokens["maintainer"], `{"branch":"main","commit_message":"m","actions":[{"action":"create","file_path":"maint.txt"}]}`)
		require.Equal(t, 201, res.Status, res.String())

		priv := f.ProjectWithReadme(t, "priv", "private")
		ppath := base(priv) + "/commits"
		servertest.RequireError(t, f.In.Do(t, "POST", ppath, "", body("x")), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.In.Do(t, "POST", ppath, f.Tokens["outsider"], body("x")), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.In.Do(t, "POST", ppath, f.Tokens["guest"], body("x")), 403, "message", "403 Forbidden")
	})

	t.Run("empty repository: the first branch becomes the default", func(t *testing.T) {
		root := f.Tokens["root"]
		empty := f.Project(t, "empty", "public")
		res := f.In.Do(t, "POST", base(empty)+"/commits", root, `{"branch":"develop","commit_message":"first","actions":[{"action":"create","file_path":"README.md","content":"hi\n"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, []any{}, servertest.Object(t, res)["parent_ids"])
		er := f.Repo(t, empty)
		h, err := er.Head(context.Background())
		require.NoError(t, err)
		require.Equal(t, "develop", h)
		res = f.In.Do(t, "GET", "/projects/"+itoa(empty.ID), root, nil)
		require.Equal(t, "develop", servertest.Object(t, res)["default_branch"])
		other := f.Project(t, "empty2", "public")
		servertest.RequireError(t, f.In.Do(t, "POST", base(other)+"/commits", root, `{"branch":"bad:name","commit_message":"first","actions":[{"action":"create","file_path":"a"}]}`),
			400, "message", "Something went wrong when we tried to create 'bad:name' for you: Branch name is invalid")
	})

	t.Run("start_project: a fork's source", func(t *testing.T) {
		root := f.Tokens["root"]
		src := f.Project(t, "src", "public")
		fork := f.Project(t, "fork", "public")
		s := seed(t, f.Repo(t, src))
		seed(t, f.Repo(t, fork)) // same content and dates: the fork has the source's commits
		body := `{"branch":"patch","start_branch":"main","start_project":"g/src","commit_message":"m","actions":[{"action":"create","file_path":"p.txt"}]}`
		servertest.RequireError(t, f.In.Do(t, "POST", base(fork)+"/commits", root, body), 403, "message",
			"403 Forbidden - Project is not included in the fork network for g / src")
		require.NoError(t, f.In.DB.Client.Project.UpdateOneID(fork.ID).SetForkedFromID(src.ID).Exec(context.Background()))
		res := f.In.Do(t, "POST", base(fork)+"/commits", root, body)
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, []any{string(s.merge)}, servertest.Object(t, res)["parent_ids"])
		servertest.RequireError(t, f.In.Do(t, "POST", base(fork)+"/commits", root, strings.Replace(body, "g/src", "999999", 1)), 404, "message", "404 Project Not Found")

		// A commit the source got after the fork is fetched into the fork as the parent.
		newer := gittest.WriteCommit(t, f.Repo(t, src), gittest.Write{Epoch: epoch, Base: s.merge, Parents: []git.ObjectID{s.merge}, Author: alice, Minute: 9,
			Message: "Later\n", Files: map[string]string{"later.txt": "later\n"}})
		gittest.SetRef(t, f.Repo(t, src), git.BranchRef("main"), newer)
		ok, err := f.Repo(t, fork).HasObject(context.Background(), newer)
		require.NoError(t, err)
		require.False(t, ok)
		res = f.In.Do(t, "POST", base(fork)+"/commits", root, strings.Replace(body, `"patch"`, `"patch2"`, 1))
		require.Equal(t, 201, res.Status, res.String())
		require.Equal(t, []any{string(newer)}, servertest.Object(t, res)["parent_ids"])
		tree, err := f.Repo(t, fork).ListTree(context.Background(), "patch2", "", git.ListTreeOptions{})
		require.NoError(t, err)
		var names []string
		for _, e := range tree {
			names = append(names, e.Name)
		}
		require.Contains(t, names, "later.txt")
		require.Contains(t, names, "p.txt")
	})
}
