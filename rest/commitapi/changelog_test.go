package commitapi_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestChangelog(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "c", "public")
	r := f.Repo(t, p)
	outsider := git.Signature{Name: "User outsider", Email: "outsider@example.com"}
	developer := git.Signature{Name: "User developer", Email: "developer@example.com"}
	stranger := git.Signature{Name: "Stranger", Email: "stranger@example.com"}
	c0 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Minute: 0, Message: "Initial\n", Files: map[string]string{"a.txt": "a\n"}})
	gittest.SetRef(t, r, git.TagRef("v1.0.0"), c0)
	gittest.SetRef(t, r, git.TagRef("v0.9.0"), c0)
	c1 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: c0, Parents: []git.ObjectID{c0}, Author: outsider, Minute: 1,
		Message: "Add login\n\nChangelog: added\n", Files: map[string]string{"login.txt": "x\n"}})
	c2 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: c1, Parents: []git.ObjectID{c1}, Author: developer, Minute: 2,
		Message: "Fix crash\n\nChangelog: fixed\n", Files: map[string]string{"a.txt": "b\n"}})
	c3 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: c2, Parents: []git.ObjectID{c2}, Author: alice, Minute: 3,
		Message: "No trailer\n", Files: map[string]string{"n.txt": "n\n"}})
	gittest.SetRef(t, r, git.TagRef("v1.1.0-rc1"), c3) // a pre-release: never the start of a range
	c4 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: c3, Parents: []git.ObjectID{c3}, Author: stranger, Minute: 4,
		Message: "Add search\n\nChangelog: added\n", Files: map[string]string{"s.txt": "s\n"}})
	c5 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: c4, Parents: []git.ObjectID{c4}, Author: alice, Minute: 5,
		Message: "Broken feature\n\nChangelog: added\n", Files: map[string]string{"broken.txt": "b\n"}})
	c6 := gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: c5, Parents: []git.ObjectID{c5}, Author: alice, Minute: 6,
		Message: "Revert \"Broken feature\"\n\nThis reverts commit " + string(c5) + "\n", Deletes: []string{"broken.txt"}})
	gittest.SetRef(t, r, git.BranchRef("main"), c6)
	tok := f.Tokens["maintainer"]
	path := base(p) + "/changelog"
	u := func(id git.ObjectID) string { return f.In.URL + "/g/c/-/commit/" + string(id) }
	want := "## 1.1.0 (2024-05-06)\n\n" +
		"### added (2 changes)\n\n" +
		"- [Add search](" + u(c4) + ")\n" +
		"- [Add login](" + u(c1) + ") by @outsider\n\n" +
		"### fixed (1 change)\n\n" +
		"- [Fix crash](" + u(c2) + ")\n"
	get := func(t *testing.T, q url.Values) map[string]any {
		t.Helper()
		res := f.In.Do(t, "GET", path+"?"+q.Encode(), tok, nil)
		require.Equal(t, 200, res.Status, res.String())
		return servertest.Object(t, res)
	}

	t.Run("notes from the previous stable tag", func(t *testing.T) {
		got := get(t, url.Values{"version": {"1.1.0"}, "date": {"2024-05-06T23:30:00+02:00"}})
		require.Equal(t, map[string]any{"notes": want}, got)
		// "v" prefixes are fine; the header keeps the version as given.
		got = get(t, url.Values{"version": {"v1.1.0"}, "date": {"2024-05-06"}})
		require.Equal(t, "## v1.1.0 (2024-05-06)"+want[len("## 1.1.0 (2024-05-06)"):], got["notes"])
	})

	t.Run("range, trailer and no changes", func(t *testing.T) {
		got := get(t, url.Values{"version": {"1.1.0"}, "date": {"2024-05-06"}, "from": {string(c1)}, "to": {string(c2)}})
		require.Equal(t, "## 1.1.0 (2024-05-06)\n\n### fixed (1 change)\n\n- [Fix crash]("+u(c2)+")\n", got["notes"])
		got = get(t, url.Values{"version": {"1.1.0"}, "date": {"2024-05-06"}, "trailer": {"changelog"}})
		require.Equal(t, "## 1.1.0 (2024-05-06)\n\nNo changes.\n", got["notes"])
		// The range starts after the newest older stable tag: v1.0.0 for 1.0.1.
		got = get(t, url.Values{"version": {"1.0.1"}, "date": {"2024-05-06"}, "to": {string(c1)}})
		require.Equal(t, "## 1.0.1 (2024-05-06)\n\n### added (1 change)\n\n- [Add login]("+u(c1)+") by @outsider\n", got["notes"])
	})

	t.Run("client-go GenerateChangelogData", func(t *testing.T) {
		d := gitlab.ISOTime(time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC))
		data, _, err := f.In.Client(t, tok).Repositories.GenerateChangelogData(p.ID, gitlab.GenerateChangelogDataOptions{
			Version: gitlab.Ptr("1.1.0"), Date: &d,
		})
		require.NoError(t, err)
		require.Equal(t, want, data.Notes)
	})

	t.Run("refused", func(t *testing.T) {
		for _, tc := range []struct {
			desc  string
			query url.Values
			code  int
			key   string
			msg   string
		}{
			{"no version", url.Values{}, 400, "error", "version is missing"},
			{"not a version", url.Values{"version": {"abc"}}, 400, "error", "version is invalid"},
			{"bad date", url.Values{"version": {"1.0.0"}, "date": {"soon"}}, 400, "error", "date is invalid"},
			{"no older tag", url.Values{"version": {"0.1.0"}}, 422, "message", "Failed to generate the changelog: The commit start range is unspecified, and no previous tag could be found to use instead"},
			{"unknown from", url.Values{"version": {"1.1.0"}, "from": {"nope"}}, 422, "message", "Failed to generate the changelog: Invalid or not found commit value in the given range"},
			{"option as to", url.Values{"version": {"1.1.0"}, "to": {"--all"}}, 422, "message", "Failed to generate the changelog: Invalid or not found commit value in the given range"},
			{"config traversal", url.Values{"version": {"1.1.0"}, "config_file": {"../x"}}, 400, "error", "config_file should be a valid file path"},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				servertest.RequireError(t, f.In.Do(t, "GET", path+"?"+tc.query.Encode(), tok, nil), tc.code, tc.key, tc.msg)
			})
		}
	})

	t.Run("configuration file", func(t *testing.T) {
		cfg := "---\ndate_format: \"%B %-d, %Y\"\ncategories:\n  fixed: Bug fixes\n  added: Features\n"
		bad := "template: |\n  {% if categories %}\n  oops\n"
		res := f.In.Do(t, "POST", base(p)+"/commits", tok, `{"branch":"main","commit_message":"config","actions":[`+
			`{"action":"create","file_path":".gitlab/changelog_config.yml","content":`+jsonString(cfg)+`},`+
			`{"action":"create","file_path":"bad.yml","content":`+jsonString(bad)+`},`+
			`{"action":"create","file_path":"tags.yml","content":"tag_regex: '^release-(?P<major>\\d+)\\.(?P<minor>\\d+)\\.(?P<patch>\\d+)$'\n"}]}`)
		require.Equal(t, 201, res.Status, res.String())
		got := get(t, url.Values{"version": {"1.1.0"}, "date": {"2024-05-06"}})
		require.Equal(t, "## 1.1.0 (May 6, 2024)\n\n"+
			"### Bug fixes (1 change)\n\n- [Fix crash]("+u(c2)+")\n\n"+
			"### Features (2 changes)\n\n- [Add search]("+u(c4)+")\n- [Add login]("+u(c1)+") by @outsider\n", got["notes"])

		res = f.In.Do(t, "GET", path+"?version=1.1.0&config_file=bad.yml", tok, nil)
		require.Equal(t, 422, res.Status, res.String())
		require.Contains(t, servertest.Object(t, res)["message"], "Failed to generate the changelog: Failed to parse the template")
		// With tag_regex release-X.Y.Z, the v tags no longer count.
		gittest.SetRef(t, r, git.TagRef("release-1.0.0"), c2)
		got = get(t, url.Values{"version": {"1.1.0"}, "date": {"2024-05-06"}, "config_file": {"tags.yml"}, "to": {string(c4)}})
		require.Equal(t, "## 1.1.0 (2024-05-06)\n\n### added (1 change)\n\n- [Add search]("+u(c4)+")\n", got["notes"])
	})

	t.Run("commit into the changelog file", func(t *testing.T) {
		res := f.In.Do(t, "POST", path, tok, `{"version":"1.1.0","date":"2024-05-06","config_file":"none.yml"}`)
		require.Equal(t, 200, res.Status, res.String())
		require.Equal(t, "200", string(res.Body))
		require.Equal(t, want, blob(t, r, "main", "CHANGELOG.md"))
		b, err := r.Branch(context.Background(), "main")
		require.NoError(t, err)
		require.Equal(t, "Add changelog for version 1.1.0", b.Commit.Message)
		require.Equal(t, f.Users["maintainer"].Name, b.Commit.Author.Name)

		// The same version again changes nothing.
		res = f.In.Do(t, "POST", path, tok, `{"version":"1.1.0","config_file":"none.yml"}`)
		require.Equal(t, 200, res.Status, res.String())
		b2, err := r.Branch(context.Background(), "main")
		require.NoError(t, err)
		require.Equal(t, b.Commit.ID, b2.Commit.ID)
	})

	t.Run("sections are placed by version", func(t *testing.T) {
		existing := "## 2.0.0 (x)\n\nnew\n\n## 1.0.0 (y)\n\nold\n"
		res := f.In.Do(t, "POST", base(p)+"/commits", tok, `{"branch":"rel","start_sha":"`+string(c2)+`","commit_message":"log","actions":[{"action":"create","file_path":"docs/CHANGES.md","content":`+jsonString(existing)+`}]}`)
		require.Equal(t, 201, res.Status, res.String())
		res = f.In.Do(t, "POST", path, tok, `{"version":"1.1.0","from":"`+string(c1)+`","branch":"rel","file":"docs/CHANGES.md","date":"2024-05-06","message":"Log it","config_file":"none.yml"}`)
		require.Equal(t, 200, res.Status, res.String())
		section := "## 1.1.0 (2024-05-06)\n\n### fixed (1 change)\n\n- [Fix crash](" + u(c2) + ")\n\n"
		require.Equal(t, "## 2.0.0 (x)\n\nnew\n\n"+section+"## 1.0.0 (y)\n\nold\n", blob(t, r, "rel", "docs/CHANGES.md"))
		b, err := r.Branch(context.Background(), "rel")
		require.NoError(t, err)
		require.Equal(t, "Log it", b.Commit.Message)

		// client-go AddChangelog: a version older than every section goes last.
		_, err = f.In.Client(t, tok).Repositories.AddChangelog(p.ID, &gitlab.AddChangelogOptions{
			Version: gitlab.Ptr("0.5.0"), From: gitlab.Ptr(string(c0)), To: gitlab.Ptr(string(c1)),
			Branch: gitlab.Ptr("rel"), File: gitlab.Ptr("docs/CHANGES.md"), ConfigFile: gitlab.Ptr("none.yml"),
		})
		require.NoError(t, err)
		content := blob(t, r, "rel", "docs/CHANGES.md")
		require.Contains(t, content, "old\n\n## 0.5.0 (")
		require.Contains(t, content, "- [Add login]("+u(c1)+") by @outsider\n")
	})

	t.Run("who may commit a changelog", func(t *testing.T) {
		body := `{"version":"3.0.0","from":"` + string(c0) + `"}`
		for _, who := range []string{"", "reporter", "outsider"} {
			servertest.RequireError(t, f.In.Do(t, "POST", path, f.Tokens[who], body), 403, "message", "403 Forbidden - You are not allowed to commit a changelog on this branch")
		}
		servertest.RequireError(t, f.In.Do(t, "POST", path, tok, `{"version":"3.0.0","from":"`+string(c0)+`","branch":"nope"}`), 422, "message",
			"Failed to generate the changelog: Invalid or not found commit value in the given range")
		priv := f.ProjectWithReadme(t, "priv", "private")
		servertest.RequireError(t, f.In.Do(t, "GET", base(priv)+"/changelog?version=1.0.0", "", nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.In.Do(t, "POST", base(priv)+"/changelog", "", `{"version":"1.0.0"}`), 404, "message", "404 Project Not Found")
	})
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
