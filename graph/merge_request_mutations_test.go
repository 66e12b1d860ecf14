package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mrMutWorld is a repository fixture with a public project "app" (merge request !1 from feature
// into main, by the developer) and a private project "secret" with one as well.
type mrMutWorld struct {
	f            *servertest.RepoFixture
	app, secret  string
	appID        int
	repo         *git.Repository
	mainHead     git.ObjectID
	featureHead  git.ObjectID
	labelA, labB string // global ids of two project labels of app
	milestone    string // global id of a milestone of app
}

func newMRMutWorld(t *testing.T) *mrMutWorld {
	f := servertest.NewRepoFixture(t)
	w := &mrMutWorld{f: f}
	p := f.ProjectWithReadme(t, "app", "public")
	w.app, w.appID = f.Group.FullPath+"/app", p.ID
	w.repo = f.Repo(t, p)
	main, err := w.repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	w.mainHead = main.Commit.ID
	w.featureHead = servertest.Commit(t, w.repo, w.mainHead, "feature.txt", 1)
	servertest.SetBranch(t, w.repo, "feature", w.featureHead)
	servertest.SetBranch(t, w.repo, "other", w.mainHead)
	w.openMR(t, p.ID, "feature", "Add feature")

	s := f.ProjectWithReadme(t, "secret", "private")
	w.secret = f.Group.FullPath + "/secret"
	srepo := f.Repo(t, s)
	smain, err := srepo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, srepo, "feature", servertest.Commit(t, srepo, smain.Commit.ID, "s.txt", 2))
	w.openMR(t, s.ID, "feature", "Secret")

	for _, name := range []string{"a", "b"} {
		r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/labels", p.ID), "root", url.Values{"name": {name}, "color": {"#ff0000"}})
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		id := fmt.Sprintf("gid://gitlab/ProjectLabel/%d", int(servertest.Object(t, r)["id"].(float64)))
		if name == "a" {
			w.labelA = id
		} else {
			w.labB = id
		}
	}
	r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/milestones", p.ID), "root", url.Values{"title": {"v1"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	w.milestone = fmt.Sprintf("gid://gitlab/Milestone/%d", int(servertest.Object(t, r)["id"].(float64)))
	return w
}

// openMR opens a merge request from source into main as the developer.
func (w *mrMutWorld) openMR(t *testing.T, project int, source, title string) {
	r := w.f.Do(t, "POST", fmt.Sprintf("/projects/%d/merge_requests", project), "developer",
		url.Values{"source_branch": {source}, "target_branch": {"main"}, "title": {title}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
}

// mutate runs mutation name with input (projectPath and iid added) as role, asking for the
// payload's errors and selection of its merge request, and returns the payload.
func (w *mrMutWorld) mutate(t *testing.T, role, name, project string, input map[string]any, selection string) map[string]any {
	t.Helper()
	d := data(t, w.f.In, w.f.Tokens[role], mutationQuery(name, selection), map[string]any{"in": withRef(input, project)})
	return d[name].(map[string]any)
}

// refused runs mutation name as role and returns the top-level error's message, checking the
// field is null.
func (w *mrMutWorld) refused(t *testing.T, role, name, project string, input map[string]any) string {
	t.Helper()
	r := gql(t, w.f.In, w.f.Tokens[role], mutationQuery(name, "iid"), map[string]any{"in": withRef(input, project)})
	require.Equal(t, http.StatusOK, r.Status, r.String())
	var out struct {
		Data   map[string]any `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &out), r.String())
	require.Len(t, out.Errors, 1, r.String())
	assert.Nil(t, out.Data[name], r.String())
	return out.Errors[0].Message
}

func mutationQuery(name, selection string) string {
	input := strings.ToUpper(name[:1]) + name[1:] + "Input"
	return fmt.Sprintf(`mutation($in: %s!) { %s(input: $in) { clientMutationId errors mergeRequest { %s } } }`, input, name, selection)
}

func withRef(input map[string]any, project string) map[string]any {
	out := map[string]any{"projectPath": project, "iid": "1"}
	for k, v := range input {
		out[k] = v
	}
	return out
}

func usernames(v any) []string {
	var out []string
	for _, n := range v.([]any) {
		out = append(out, path(n, "username").(string))
	}
	return out
}

// TestMergeRequestMutations: the merge request mutations change the merge request through the
// merge request service and answer it as project.mergeRequest(iid:) shows it; refused changes
// are payload errors beside it; a merge request the caller may not change, or cannot see, is
// the resource access error.
func TestMergeRequestMutations(t *testing.T) {
	w := newMRMutWorld(t)

	t.Run("access", func(t *testing.T) {
		for _, c := range []struct {
			name  string
			input map[string]any
		}{
			{"mergeRequestUpdate", map[string]any{"title": "x"}},
			{"mergeRequestSetDraft", map[string]any{"draft": true}},
			{"mergeRequestSetLocked", map[string]any{"locked": true}},
			{"mergeRequestSetAssignees", map[string]any{"assigneeUsernames": []string{"reporter"}}},
			{"mergeRequestSetReviewers", map[string]any{"reviewerUsernames": []string{"reporter"}}},
			{"mergeRequestSetLabels", map[string]any{"labelIds": []string{w.labelA}}},
			{"mergeRequestSetMilestone", map[string]any{"milestoneId": w.milestone}},
			{"mergeRequestAccept", map[string]any{"sha": string(w.featureHead)}},
			{"mergeRequestRebase", map[string]any{}},
		} {
			// A reporter may read the public merge request but not change it.
			assert.Equal(t, accessMsg, w.refused(t, "reporter", c.name, w.app, c.input), c.name)
			// The outsider cannot see the private project's.
			assert.Equal(t, accessMsg, w.refused(t, "outsider", c.name, w.secret, c.input), c.name)
			// Nor can anyone see a merge request that does not exist.
			in := map[string]any{"iid": "99"}
			for k, v := range c.input {
				in[k] = v
			}
			assert.Equal(t, accessMsg, w.refused(t, "maintainer", c.name, w.app, in), c.name)
		}
		// Nothing changed.
		d := w.mutate(t, "developer", "mergeRequestUpdate", w.app, map[string]any{}, "title state draft discussionLocked assignees { nodes { username } }")
		assert.Equal(t, map[string]any{"title": "Add feature", "state": "opened", "draft": false, "discussionLocked": false,
			"assignees": map[string]any{"nodes": []any{}}}, d["mergeRequest"])
	})

	t.Run("mergeRequestUpdate", func(t *testing.T) {
		d := w.mutate(t, "developer", "mergeRequestUpdate", w.app, map[string]any{"clientMutationId": "u1", "title": "Feature",
			"description": "why", "targetBranch": "other", "timeEstimate": "1h 30m"}, "title description targetBranch timeEstimate")
		assert.Equal(t, map[string]any{"clientMutationId": "u1", "errors": []any{}, "mergeRequest": map[string]any{
			"title": "Feature", "description": "why", "targetBranch": "other", "timeEstimate": float64(5400)}}, d)

		d = w.mutate(t, "developer", "mergeRequestUpdate", w.app, map[string]any{"state": "CLOSED", "targetBranch": "main", "timeEstimate": nil},
			"state targetBranch timeEstimate")
		assert.Equal(t, map[string]any{"state": "closed", "targetBranch": "main", "timeEstimate": float64(0)}, d["mergeRequest"])
		d = w.mutate(t, "developer", "mergeRequestUpdate", w.app, map[string]any{"state": "OPEN"}, "state")
		assert.Equal(t, map[string]any{"state": "opened"}, d["mergeRequest"])

		t.Run("refused changes are payload errors", func(t *testing.T) {
			d := w.mutate(t, "developer", "mergeRequestUpdate", w.app, map[string]any{"title": " "}, "title")
			assert.Equal(t, []any{"Title can't be blank"}, d["errors"])
			assert.Equal(t, map[string]any{"title": "Feature"}, d["mergeRequest"])
			d = w.mutate(t, "developer", "mergeRequestUpdate", w.app, map[string]any{"targetBranch": "nope"}, "targetBranch")
			assert.Equal(t, []any{"Target branch does not exist"}, d["errors"])
			assert.Equal(t, map[string]any{"targetBranch": "main"}, d["mergeRequest"])
		})
		t.Run("an unreadable time estimate is an argument error", func(t *testing.T) {
			assert.Equal(t, "timeEstimate must be formatted correctly, for example `1h 30m`",
				w.refused(t, "developer", "mergeRequestUpdate", w.app, map[string]any{"timeEstimate": "soon"}))
			assert.Contains(t, w.refused(t, "developer", "mergeRequestUpdate", w.app, map[string]any{"timeEstimate": "-1h"}),
				"timeEstimate must be greater than or equal to zero")
		})
	})

	t.Run("mergeRequestSetDraft", func(t *testing.T) {
		d := w.mutate(t, "developer", "mergeRequestSetDraft", w.app, map[string]any{"draft": true}, "title draft")
		assert.Equal(t, map[string]any{"title": "Draft: Feature", "draft": true}, d["mergeRequest"])
		d = w.mutate(t, "developer", "mergeRequestSetDraft", w.app, map[string]any{"draft": true}, "title draft")
		assert.Equal(t, map[string]any{"title": "Draft: Feature", "draft": true}, d["mergeRequest"])
		d = w.mutate(t, "developer", "mergeRequestSetDraft", w.app, map[string]any{"draft": false}, "title draft")
		assert.Equal(t, map[string]any{"title": "Feature", "draft": false}, d["mergeRequest"])
	})

	t.Run("mergeRequestSetLocked", func(t *testing.T) {
		d := w.mutate(t, "maintainer", "mergeRequestSetLocked", w.app, map[string]any{"locked": true}, "discussionLocked")
		assert.Equal(t, map[string]any{"discussionLocked": true}, d["mergeRequest"])
		d = w.mutate(t, "maintainer", "mergeRequestSetLocked", w.app, map[string]any{"locked": false}, "discussionLocked")
		assert.Equal(t, map[string]any{"discussionLocked": false}, d["mergeRequest"])
	})

	t.Run("mergeRequestSetAssignees", func(t *testing.T) {
		sel := "assignees { nodes { username } }"
		set := func(mode string, names ...string) []string {
			in := map[string]any{"assigneeUsernames": append([]string{}, names...)}
			if mode != "" {
				in["operationMode"] = mode
			}
			d := w.mutate(t, "developer", "mergeRequestSetAssignees", w.app, in, sel)
			assert.Equal(t, []any{}, d["errors"])
			return usernames(path(d, "mergeRequest", "assignees", "nodes"))
		}
		assert.Equal(t, []string{"developer", "maintainer"}, set("", "developer", "maintainer"))
		assert.Equal(t, []string{"developer", "maintainer", "reporter"}, set("APPEND", "reporter", "developer", "nobody"))
		assert.Equal(t, []string{"maintainer", "reporter"}, set("REMOVE", "developer"))
		assert.Equal(t, []string{"guest"}, set("REPLACE", "guest"))
		assert.Empty(t, set("REPLACE"))
	})

	t.Run("mergeRequestSetReviewers", func(t *testing.T) {
		set := func(mode string, names ...string) []string {
			d := w.mutate(t, "developer", "mergeRequestSetReviewers", w.app, map[string]any{"reviewerUsernames": names, "operationMode": mode},
				"reviewers { nodes { username } }")
			assert.Equal(t, []any{}, d["errors"])
			return usernames(path(d, "mergeRequest", "reviewers", "nodes"))
		}
		assert.Equal(t, []string{"maintainer"}, set("REPLACE", "maintainer"))
		assert.Equal(t, []string{"maintainer", "reporter"}, set("APPEND", "reporter"))
		assert.Equal(t, []string{"reporter"}, set("REMOVE", "maintainer"))
	})

	t.Run("mergeRequestSetLabels", func(t *testing.T) {
		set := func(mode string, ids ...string) any {
			d := w.mutate(t, "developer", "mergeRequestSetLabels", w.app, map[string]any{"labelIds": ids, "operationMode": mode},
				"labels { nodes { title } }")
			assert.Equal(t, []any{}, d["errors"])
			return path(d, "mergeRequest", "labels", "nodes")
		}
		a, b := map[string]any{"title": "a"}, map[string]any{"title": "b"}
		assert.Equal(t, []any{a}, set("REPLACE", w.labelA))
		assert.Equal(t, []any{a, b}, set("APPEND", w.labB))
		assert.Equal(t, []any{b}, set("REMOVE", w.labelA))
		// A label another project's is ignored; an id of another type is an argument error.
		assert.Equal(t, []any{b}, set("APPEND", "gid://gitlab/ProjectLabel/999999"))
		assert.Contains(t, w.refused(t, "developer", "mergeRequestSetLabels", w.app, map[string]any{"labelIds": []string{"gid://gitlab/Issue/1"}}),
			"is not a valid ID for Label")
	})

	t.Run("mergeRequestSetMilestone", func(t *testing.T) {
		d := w.mutate(t, "developer", "mergeRequestSetMilestone", w.app, map[string]any{"milestoneId": w.milestone}, "milestone { title }")
		assert.Equal(t, map[string]any{"milestone": map[string]any{"title": "v1"}}, d["mergeRequest"])
		d = w.mutate(t, "developer", "mergeRequestSetMilestone", w.app, map[string]any{"milestoneId": nil}, "milestone { title }")
		assert.Equal(t, map[string]any{"milestone": nil}, d["mergeRequest"])
		assert.Contains(t, w.refused(t, "developer", "mergeRequestSetMilestone", w.app, map[string]any{"milestoneId": "gid://gitlab/Label/1"}),
			"is not a valid ID for Milestone")
	})

	t.Run("fields", func(t *testing.T) {
		q := `query($p: ID!) { project(fullPath: $p) { mergeRequest(iid: "1") { approved approvalsRequired approvalsLeft
			approvedBy { nodes { username } } commitCount mergeable conflicts shouldBeRebased diffHeadSha
			diffStats { path additions deletions } one: diffStats(path: "README.md") { path } diffStatsSummary { additions deletions changes fileCount } } } }`
		d := data(t, w.f.In, w.f.Tokens["developer"], q, map[string]any{"p": w.app})
		assert.Equal(t, map[string]any{"approved": true, "approvalsRequired": float64(0), "approvalsLeft": float64(0),
			"approvedBy": map[string]any{"nodes": []any{}}, "commitCount": float64(1), "mergeable": true, "conflicts": false, "shouldBeRebased": false,
			"diffHeadSha": string(w.featureHead), "diffStats": []any{map[string]any{"path": "feature.txt", "additions": float64(1), "deletions": float64(0)}},
			"one": []any{}, "diffStatsSummary": map[string]any{"additions": float64(1), "deletions": float64(0), "changes": float64(1), "fileCount": float64(1)}},
			path(d, "project", "mergeRequest"))

		r := w.f.Do(t, "POST", fmt.Sprintf("/projects/%d/merge_requests/1/approve", w.appID), "maintainer", nil)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		d = data(t, w.f.In, w.f.Tokens["developer"], `query($p: ID!) { project(fullPath: $p) { mergeRequest(iid: "1") { approved approvedBy { nodes { username } } } } }`,
			map[string]any{"p": w.app})
		assert.Equal(t, map[string]any{"approved": true, "approvedBy": map[string]any{"nodes": []any{map[string]any{"username": "maintainer"}}}},
			path(d, "project", "mergeRequest"))
	})

	t.Run("mergeRequestRebase", func(t *testing.T) {
		// The source is on top of main already: the rebase keeps its head.
		d := w.mutate(t, "developer", "mergeRequestRebase", w.app, map[string]any{"skipCi": true}, "iid rebaseCommitSha")
		assert.Equal(t, map[string]any{"clientMutationId": nil, "errors": []any{},
			"mergeRequest": map[string]any{"iid": "1", "rebaseCommitSha": string(w.featureHead)}}, d)
	})

	t.Run("mergeRequestAccept", func(t *testing.T) {
		sel := "state mergeCommitSha mergeUser { username }"
		d := w.mutate(t, "maintainer", "mergeRequestAccept", w.app, map[string]any{"sha": string(w.mainHead)}, sel)
		assert.Equal(t, []any{"The merge-head is not at the anticipated SHA"}, d["errors"])
		assert.Equal(t, map[string]any{"state": "opened", "mergeCommitSha": nil, "mergeUser": nil}, d["mergeRequest"])

		d = w.mutate(t, "maintainer", "mergeRequestSetDraft", w.app, map[string]any{"draft": true}, "draft")
		assert.Equal(t, map[string]any{"draft": true}, d["mergeRequest"])
		d = w.mutate(t, "maintainer", "mergeRequestAccept", w.app, map[string]any{"sha": string(w.featureHead)}, sel)
		assert.Equal(t, []any{"This branch cannot be merged"}, d["errors"])
		w.mutate(t, "maintainer", "mergeRequestSetDraft", w.app, map[string]any{"draft": false}, "draft")

		d = w.mutate(t, "maintainer", "mergeRequestAccept", w.app, map[string]any{"clientMutationId": "m", "sha": string(w.featureHead),
			"commitMessage": "Merge it"}, sel)
		assert.Equal(t, "m", d["clientMutationId"])
		assert.Equal(t, []any{}, d["errors"])
		mr := d["mergeRequest"].(map[string]any)
		assert.Equal(t, "merged", mr["state"])
		assert.Equal(t, map[string]any{"username": "maintainer"}, mr["mergeUser"])

		// The target branch now holds the merge commit, whose tree has the source's file.
		main, err := w.repo.Branch(context.Background(), "main")
		require.NoError(t, err)
		assert.Equal(t, mr["mergeCommitSha"], string(main.Commit.ID))
		assert.Equal(t, "Merge it", strings.TrimSpace(main.Commit.Message))
		_, err = w.repo.TreeEntryAt(context.Background(), string(main.Commit.ID), "feature.txt")
		assert.NoError(t, err)

		// A merged merge request cannot be merged again.
		d = w.mutate(t, "maintainer", "mergeRequestAccept", w.app, map[string]any{"sha": string(w.featureHead)}, "state")
		assert.Equal(t, []any{"This branch cannot be merged"}, d["errors"])
		assert.Equal(t, map[string]any{"state": "merged"}, d["mergeRequest"])

		// Nor rebased once its source branch is gone: a payload error.
		r := w.f.Do(t, "DELETE", fmt.Sprintf("/projects/%d/repository/branches/feature", w.appID), "maintainer", nil)
		require.Equal(t, http.StatusNoContent, r.Status, r.String())
		d = w.mutate(t, "maintainer", "mergeRequestRebase", w.app, map[string]any{}, "state")
		assert.Equal(t, []any{"Source branch does not exist"}, d["errors"])
	})
}
