package projectapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// expectedUserProject is GET /projects/:id of a personal project, as its owner sees it. %[1]s
// is the base URL, %[2]d the project id, %[3]d the user id, %[4]s the avatar, %[5]s
// created_at, %[6]s updated_at, %[7]s next_run_at, %[8]d the namespace id.
const expectedUserProject = `{
 "id":%[2]d,"description":"Line one & <two>","name":"Shape Project","name_with_namespace":"User alice / Shape Project",
 "path":"shape-project","path_with_namespace":"alice/shape-project","created_at":"%[5]s",
 "default_branch":"main","tag_list":["alpha","beta"],"topics":["alpha","beta"],
 "ssh_url_to_repo":"git@127.0.0.1:alice/shape-project.git","http_url_to_repo":"%[1]s/alice/shape-project.git",
 "web_url":"%[1]s/alice/shape-project","readme_url":null,"forks_count":0,"avatar_url":null,"star_count":0,
 "last_activity_at":"%[5]s",
 "namespace":{"id":%[8]d,"name":"User alice","path":"alice","kind":"user","full_path":"alice","parent_id":null,
   "avatar_url":"%[4]s","web_url":"%[1]s/alice"},
 "container_registry_image_prefix":"%[9]s/alice/shape-project",
 "_links":{"self":"%[1]s/api/v4/projects/%[2]d","issues":"%[1]s/api/v4/projects/%[2]d/issues",
   "merge_requests":"%[1]s/api/v4/projects/%[2]d/merge_requests","repo_branches":"%[1]s/api/v4/projects/%[2]d/repository/branches",
   "labels":"%[1]s/api/v4/projects/%[2]d/labels","events":"%[1]s/api/v4/projects/%[2]d/events",
   "members":"%[1]s/api/v4/projects/%[2]d/members","cluster_agents":"%[1]s/api/v4/projects/%[2]d/cluster_agents"},
 "packages_enabled":true,"empty_repo":true,"archived":false,"visibility":"internal",
 "owner":{"id":%[3]d,"username":"alice","name":"User alice","state":"active","locked":false,"avatar_url":"%[4]s","web_url":"%[1]s/alice"},
 "resolve_outdated_diff_discussions":false,
 "container_expiration_policy":{"cadence":"1d","enabled":false,"keep_n":10,"older_than":"90d","name_regex":".*",
   "name_regex_keep":null,"next_run_at":"%[7]s","name_regex_delete":".*"},
 "repository_object_format":"sha1","issues_enabled":true,"merge_requests_enabled":true,"wiki_enabled":false,
 "jobs_enabled":true,"snippets_enabled":true,"container_registry_enabled":true,"service_desk_enabled":false,
 "service_desk_address":null,"can_create_merge_request_in":true,
 "issues_access_level":"enabled","repository_access_level":"enabled","merge_requests_access_level":"enabled",
 "forking_access_level":"enabled","wiki_access_level":"disabled","builds_access_level":"enabled",
 "snippets_access_level":"enabled","pages_access_level":"private","analytics_access_level":"enabled",
 "container_registry_access_level":"private","security_and_compliance_access_level":"enabled",
 "releases_access_level":"enabled","environments_access_level":"enabled","feature_flags_access_level":"enabled",
 "infrastructure_access_level":"enabled","monitor_access_level":"enabled","model_experiments_access_level":"enabled",
 "model_registry_access_level":"enabled","emails_disabled":false,"emails_enabled":true,
 "shared_runners_enabled":true,"lfs_enabled":true,"creator_id":%[3]d,"import_url":null,"import_type":null,
 "import_status":"none","import_error":null,"open_issues_count":0,
 "description_html":"<p data-sourcepos=\"1:1-1:16\" dir=\"auto\">Line one &amp; &lt;two&gt;</p>",
 "updated_at":"%[6]s",
 "ci_default_git_depth":20,"ci_delete_pipelines_in_seconds":null,"ci_forward_deployment_enabled":true,
 "ci_forward_deployment_rollback_allowed":true,"ci_job_token_scope_enabled":false,"ci_separated_caches":true,
 "ci_allow_fork_pipelines_to_run_in_parent_project":true,"ci_id_token_sub_claim_components":["project_path","ref_type","ref"],
 "build_git_strategy":"fetch","keep_latest_artifact":true,"restrict_user_defined_variables":false,
 "ci_pipeline_variables_minimum_override_role":"developer","runners_token":null,"runner_token_expiration_interval":null,
 "group_runners_enabled":true,"auto_cancel_pending_pipelines":"enabled","build_timeout":3600,"auto_devops_enabled":false,
 "auto_devops_deploy_strategy":"continuous","ci_push_repository_for_job_token_allowed":false,
 "ci_config_path":"","public_jobs":true,"shared_with_groups":[],"only_allow_merge_if_pipeline_succeeds":false,
 "allow_merge_on_skipped_pipeline":false,"request_access_enabled":true,
 "only_allow_merge_if_all_discussions_are_resolved":false,"remove_source_branch_after_merge":true,
 "printing_merge_request_link_enabled":true,"merge_method":"merge","squash_option":"default_off",
 "enforce_auth_checks_on_uploads":true,"suggestion_commit_message":null,"merge_commit_template":null,
 "squash_commit_template":null,"issue_branch_template":null,"warn_about_potentially_unwanted_characters":true,
 "autoclose_referenced_issues":true,"max_artifacts_size":null,"approvals_before_merge":0,"mirror":false,
 "external_authorization_classification_label":"","marked_for_deletion_at":null,"marked_for_deletion_on":null,
 "requirements_enabled":true,"requirements_access_level":"enabled","security_and_compliance_enabled":true,
 "compliance_frameworks":[],"issues_template":null,"merge_requests_template":null,
 "ci_restrict_pipeline_cancellation_role":"developer","merge_pipelines_enabled":false,"merge_trains_enabled":false,
 "merge_trains_skip_train_allowed":false,"only_allow_merge_if_all_status_checks_passed":false,
 "allow_pipeline_trigger_approve_deployment":false,"prevent_merge_without_jira_issue":false,
 "auto_duo_code_review_enabled":false,
 "permissions":{"project_access":{"access_level":50,"notification_level":3},"group_access":null}
}`

func TestProjects_shape_userNamespace(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	r := in.Do(t, "POST", "/projects", tok, `{"name":"Shape Project","description":"Line one & <two>","visibility":"internal",
		"tag_list":"beta,alpha","wiki_enabled":false,"container_registry_access_level":"private"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	created := servertest.Decode[map[string]any](t, r)
	id := int(created["id"].(float64))

	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d", id), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	body := servertest.Decode[map[string]any](t, r)
	ns := in.PersonalNamespace(t, alice)
	avatar := body["owner"].(map[string]any)["avatar_url"].(string)
	host := strings.TrimPrefix(in.URL, "http://")
	want := fmt.Sprintf(expectedUserProject, in.URL, id, alice.ID, avatar, body["created_at"], body["updated_at"],
		body["container_expiration_policy"].(map[string]any)["next_run_at"], ns.ID, host)
	assert.JSONEq(t, want, string(r.Body))
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.Regexp(t, `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`, body["created_at"])

	// The create answer is the same entity without permissions.
	delete(body, "permissions")
	assert.Equal(t, servertest.Keys(body), servertest.Keys(created))
}

func TestProjects_shape_group(t *testing.T) {
	in := servertest.Start(t)
	dev, tok := in.NewUser(t, "dev")
	top := in.NewGroup(t, "Top", "public", nil)
	sub := in.NewGroup(t, "sub", "public", top)
	in.AddGroupMember(t, sub, dev, 30)
	r := in.Do(t, "POST", "/projects", tok, fmt.Sprintf(`{"path":"grouped","namespace_id":%d,"visibility":"public"}`, sub.ID))
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	id := int(servertest.Decode[map[string]any](t, r)["id"].(float64))

	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d", id), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	body := servertest.Decode[map[string]any](t, r)
	assert.NotContains(t, body, "owner")
	assert.Equal(t, "grouped", body["name"], "the name is derived from the path")
	assert.Equal(t, "Top / sub / grouped", body["name_with_namespace"])
	assert.Equal(t, "Top/sub/grouped", body["path_with_namespace"])
	assert.Equal(t, map[string]any{
		"id": float64(sub.ID), "name": "sub", "path": "sub", "kind": "group", "full_path": "Top/sub",
		"parent_id": float64(top.ID), "avatar_url": nil, "web_url": in.URL + "/groups/Top/sub",
	}, body["namespace"])
	assert.Equal(t, strings.TrimPrefix(in.URL, "http://")+"/top/sub/grouped", body["container_registry_image_prefix"])
	assert.Equal(t, map[string]any{"project_access": nil,
		"group_access": map[string]any{"access_level": float64(30), "notification_level": float64(3)}}, body["permissions"])
	// Developers do not administer the project: no CI settings, import details or runner token.
	for _, k := range []string{"runners_token", "ci_default_git_depth", "import_url", "import_error", "build_git_strategy"} {
		assert.NotContains(t, body, k)
	}
	assert.Contains(t, body, "ci_config_path")
	assert.Equal(t, "public", body["visibility"])

	t.Run("anonymous gets the basic details", func(t *testing.T) {
		r := in.Do(t, "GET", fmt.Sprintf("/projects/%d", id), "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		anon := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, []string{"avatar_url", "created_at", "default_branch", "description", "forks_count",
			"http_url_to_repo", "id", "last_activity_at", "name", "name_with_namespace", "namespace", "path",
			"path_with_namespace", "readme_url", "ssh_url_to_repo", "star_count", "tag_list", "topics", "web_url"}, servertest.Keys(anon))
	})
	t.Run("license and statistics", func(t *testing.T) {
		r := in.Do(t, "GET", fmt.Sprintf("/projects/%d?license=true&statistics=true", id), tok, nil)
		body := servertest.Decode[map[string]any](t, r)
		assert.Contains(t, body, "license")
		assert.Nil(t, body["license"])
		assert.Nil(t, body["license_url"])
		assert.Equal(t, float64(0), body["statistics"].(map[string]any)["repository_size"])
		r = in.Do(t, "GET", fmt.Sprintf("/projects/%d?with_custom_attributes=true", id), servertest.RootToken, nil)
		assert.Equal(t, []any{}, servertest.Decode[map[string]any](t, r)["custom_attributes"])
		r = in.Do(t, "GET", fmt.Sprintf("/projects/%d?with_custom_attributes=true", id), tok, nil)
		assert.NotContains(t, servertest.Decode[map[string]any](t, r), "custom_attributes")
	})
}

// TestProjects_idAsPath checks :id as a URL-encoded full path, including client-go's %2E for
// dots, and that a bare name is not a reference.
func TestProjects_idAsPath(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "group", "public", nil)
	sub := in.NewGroup(t, "sub", "public", g)
	p := in.NewProject(t, sub, "my.project", "public")
	for _, tc := range []struct {
		desc, path string
		status     int
	}{
		{"numeric id", fmt.Sprintf("/projects/%d", p.ID), 200},
		{"encoded path", "/projects/group%2Fsub%2Fmy.project", 200},
		{"encoded dot", "/projects/group%2Fsub%2Fmy%2Eproject", 200},
		{"case-insensitive", "/projects/GROUP%2FSub%2FMY.project", 200},
		{"bare name", "/projects/my.project", 404},
		{"unencoded slash", "/projects/group/sub/my.project", 404},
		{"unknown path", "/projects/group%2Fnope", 404},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "GET", tc.path, "", nil)
			assert.Equal(t, tc.status, r.Status, r.String())
			if tc.status == 200 {
				assert.Equal(t, float64(p.ID), servertest.Decode[map[string]any](t, r)["id"])
			}
		})
	}
	t.Run("client-go", func(t *testing.T) {
		got, _, err := in.Client(t, "").Projects.GetProject("group/sub/my.project", nil)
		require.NoError(t, err)
		assert.Equal(t, int64(p.ID), got.ID)
		assert.Equal(t, "group/sub/my.project", got.PathWithNamespace)
		_, _, err = in.Client(t, "").Projects.GetProject("group/sub/missing", nil)
		assert.ErrorIs(t, err, gitlab.ErrNotFound)
	})
}

// TestProjects_listShapes checks which entity each listing renders.
func TestProjects_listShapes(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "shapes", "public", nil)
	in.NewProject(t, g, "one", "public")
	_, tok := in.NewUser(t, "viewer")
	basic := []string{"avatar_url", "created_at", "default_branch", "description", "forks_count", "http_url_to_repo",
		"id", "last_activity_at", "name", "name_with_namespace", "namespace", "path", "path_with_namespace",
		"readme_url", "ssh_url_to_repo", "star_count", "tag_list", "topics", "web_url"}
	for _, tc := range []struct {
		desc, path, token string
		permissions, full bool
	}{
		{"anonymous", "/projects", "", false, false},
		{"signed in", "/projects", tok, true, true},
		{"simple", "/projects?simple=true", tok, false, false},
		{"group projects", "/groups/shapes/projects", tok, false, true},
		{"group projects simple", "/groups/shapes/projects?simple=true", tok, false, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "GET", tc.path, tc.token, nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			rows := servertest.Decode[[]map[string]any](t, r)
			require.Len(t, rows, 1)
			_, hasPerms := rows[0]["permissions"]
			assert.Equal(t, tc.permissions, hasPerms)
			if tc.full {
				assert.Contains(t, rows[0], "visibility")
			} else {
				assert.Equal(t, basic, servertest.Keys(rows[0]))
			}
		})
	}
	t.Run("client-go decodes the listing", func(t *testing.T) {
		ps, resp, err := in.Client(t, tok).Projects.ListProjects(&gitlab.ListProjectsOptions{})
		require.NoError(t, err)
		require.Len(t, ps, 1)
		assert.Equal(t, "shapes/one", ps[0].PathWithNamespace)
		assert.Equal(t, gitlab.PublicVisibility, ps[0].Visibility)
		assert.NotNil(t, ps[0].Permissions)
		assert.Equal(t, int64(1), resp.TotalItems)
		assert.True(t, slices.Contains([]string{"shapes"}, ps[0].Namespace.FullPath))
	})
}

// TestProjects_forkParent checks forked_from_project: shown (as basic details) only when the
// viewer may read the parent, and the parent's forks_count.
func TestProjects_forkParent(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "forks", "public", nil)
	pub := in.NewProject(t, g, "parent", "public")
	priv := in.NewProject(t, g, "secret-parent", "private")
	fork := in.NewProject(t, g, "fork", "public")
	orphan := in.NewProject(t, g, "orphan", "public")
	require.NoError(t, in.DB.Client.Project.UpdateOne(fork).SetForkedFromID(pub.ID).Exec(t.Context()))
	require.NoError(t, in.DB.Client.Project.UpdateOne(orphan).SetForkedFromID(priv.ID).Exec(t.Context()))

	body := servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/projects/%d", fork.ID), "", nil))
	parent, ok := body["forked_from_project"].(map[string]any)
	require.True(t, ok, "anonymous callers see a public parent")
	assert.Equal(t, "forks/parent", parent["path_with_namespace"])
	assert.Equal(t, float64(1), parent["forks_count"])

	body = servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/projects/%d", orphan.ID), "", nil))
	assert.NotContains(t, body, "forked_from_project", "a private parent stays hidden")
	body = servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/projects/%d", orphan.ID), servertest.RootToken, nil))
	assert.Contains(t, body, "forked_from_project")
	assert.Equal(t, false, body["mr_default_target_self"])

	body = servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/projects/%d", pub.ID), "", nil))
	assert.Equal(t, float64(1), body["forks_count"])
}
