package projectapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/member"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestProjects_create_clientGo(t *testing.T) {
	in := servertest.Start(t)
	bob, tok := in.NewUser(t, "bob")
	gl := in.Client(t, tok)
	p, _, err := gl.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name:                             gitlab.Ptr("Client Made"),
		Description:                      gitlab.Ptr("made by client-go"),
		Visibility:                       gitlab.Ptr(gitlab.PublicVisibility),
		Topics:                           &[]string{"go", "api"},
		MergeMethod:                      gitlab.Ptr(gitlab.RebaseMerge),
		SquashOption:                     gitlab.Ptr(gitlab.SquashOptionAlways),
		IssuesAccessLevel:                gitlab.Ptr(gitlab.PrivateAccessControl),
		ContainerRegistryAccessLevel:     gitlab.Ptr(gitlab.DisabledAccessControl),
		PagesAccessLevel:                 gitlab.Ptr(gitlab.PublicAccessControl),
		OnlyAllowMergeIfPipelineSucceeds: gitlab.Ptr(true),
		RemoveSourceBranchAfterMerge:     gitlab.Ptr(false),
		PrintingMergeRequestLinkEnabled:  gitlab.Ptr(false),
		ResolveOutdatedDiffDiscussions:   gitlab.Ptr(true),
		RequestAccessEnabled:             gitlab.Ptr(false),
		LFSEnabled:                       gitlab.Ptr(false),
		SharedRunnersEnabled:             gitlab.Ptr(false),
		EmailsEnabled:                    gitlab.Ptr(false),
		PublicBuilds:                     gitlab.Ptr(false),
		CIConfigPath:                     gitlab.Ptr("ci/pipeline.yml"),
		BuildTimeout:                     gitlab.Ptr(int64(7200)),
		InitializeWithReadme:             gitlab.Ptr(true),
		DefaultBranch:                    gitlab.Ptr("trunk"),
	})
	require.NoError(t, err)
	assert.Equal(t, "client-made", p.Path)
	assert.Equal(t, "bob/client-made", p.PathWithNamespace)
	assert.Equal(t, gitlab.PublicVisibility, p.Visibility)
	assert.Equal(t, []string{"api", "go"}, p.Topics)
	assert.Equal(t, []string{"api", "go"}, p.TagList)
	assert.Equal(t, gitlab.RebaseMerge, p.MergeMethod)
	assert.Equal(t, gitlab.SquashOptionAlways, p.SquashOption)
	assert.Equal(t, gitlab.PrivateAccessControl, p.IssuesAccessLevel)
	assert.Equal(t, gitlab.DisabledAccessControl, p.ContainerRegistryAccessLevel)
	assert.False(t, p.ContainerRegistryEnabled)
	assert.Equal(t, gitlab.PublicAccessControl, p.PagesAccessLevel)
	assert.True(t, p.OnlyAllowMergeIfPipelineSucceeds)
	assert.False(t, p.RemoveSourceBranchAfterMerge)
	assert.False(t, p.PrintingMergeRequestLinkEnabled)
	assert.True(t, p.ResolveOutdatedDiffDiscussions)
	assert.False(t, p.RequestAccessEnabled)
	assert.False(t, p.LFSEnabled)
	assert.False(t, p.SharedRunnersEnabled)
	assert.False(t, p.EmailsEnabled)
	assert.True(t, p.EmailsDisabled)
	assert.False(t, p.PublicJobs)
	assert.Equal(t, "ci/pipeline.yml", p.CIConfigPath)
	assert.Equal(t, int64(7200), p.BuildTimeout)
	assert.Equal(t, "trunk", p.DefaultBranch)
	assert.Equal(t, p.WebURL+"/-/blob/trunk/README.md", p.ReadmeURL, "the README the project was initialised with")
	got, _, err := in.Client(t, tok).Projects.GetProject(p.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, p.WebURL+"/-/blob/trunk/README.md", got.ReadmeURL)
	assert.Equal(t, int64(bob.ID), p.CreatorID)
	require.NotNil(t, p.Owner)
	assert.Equal(t, "bob", p.Owner.Username)

	// The owner of the personal namespace is the project's Owner member.
	m, err := in.DB.Client.Member.Query().Where(member.ProjectID(int(p.ID)), member.UserID(bob.ID)).Only(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 50, m.AccessLevel)
	stored, err := in.DB.Client.Project.Get(t.Context(), int(p.ID))
	require.NoError(t, err)
	assert.Regexp(t, `^@hashed/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{64}`, stored.DiskPath, "the repository hooks record the location")
}

func TestProjects_create_rules(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	_, otherTok := in.NewUser(t, "other")
	privGroup := in.NewGroup(t, "privgroup", "private", nil)
	in.AddGroupMember(t, privGroup, alice, 40)
	hidden := in.NewGroup(t, "hidden", "private", nil)
	require.Equal(t, http.StatusCreated, in.Do(t, "POST", "/projects", tok, `{"name":"Taken Name","path":"taken"}`).Status)
	sub := in.NewGroup(t, "kid", "private", privGroup)
	_ = sub

	for _, tc := range []struct {
		desc, token, body string
		status            int
		want              string // exact JSON body, or "" to skip
		check             func(t *testing.T, body map[string]any)
	}{
		{"path only derives the name", tok, `{"path":"only-path"}`, 201, "", func(t *testing.T, b map[string]any) {
			assert.Equal(t, "only-path", b["name"])
		}},
		{"name only: valid path kept", tok, `{"name":"plain_name.v2"}`, 201, "", func(t *testing.T, b map[string]any) {
			assert.Equal(t, "plain_name.v2", b["path"])
		}},
		{"name only: parameterized", tok, `{"name":"My Fancy  Project+"}`, 201, "", func(t *testing.T, b map[string]any) {
			assert.Equal(t, "my-fancy-project", b["path"])
			assert.Equal(t, "My Fancy  Project+", b["name"])
		}},
		{"neither name nor path", tok, `{"description":"x"}`, 400, `{"error":"name, path are missing, at least one parameter must be provided"}`, nil},
		{"name and path taken", tok, `{"name":"Taken Name","path":"TAKEN"}`, 400,
			`{"message":{"name":["has already been taken"],"path":["has already been taken"],"project_namespace.name":["has already been taken"]}}`, nil},
		{"path taken only", tok, `{"name":"Fresh","path":"taken"}`, 400, `{"message":{"path":["has already been taken"]}}`, nil},
		{"same name elsewhere is fine", otherTok, `{"name":"Taken Name","path":"taken"}`, 201, "", nil},
		{"bad path", tok, `{"name":"ok","path":"-bad"}`, 400,
			`{"message":{"path":["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"]}}`, nil},
		{"path ending in .git", tok, `{"name":"ok","path":"repo.git"}`, 400,
			`{"message":{"path":["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"]}}`, nil},
		{"reserved path", tok, `{"name":"ok","path":"tree"}`, 400, `{"message":{"path":["tree is a reserved name"]}}`, nil},
		{"bad name", tok, `{"name":"-dash first","path":"ok-name"}`, 400,
			`{"message":{"name":["can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."]}}`, nil},
		{"overlong name", tok, `{"name":"` + strings.Repeat("n", 256) + `"}`, 400,
			`{"message":{"name":["is too long (maximum is 255 characters)"],"path":["is too long (maximum is 255 characters)"]}}`, nil},
		{"unknown visibility", tok, `{"name":"v","visibility":"secret"}`, 400, `{"error":"visibility does not have a valid value"}`, nil},
		{"bad access level", tok, `{"name":"v","container_registry_access_level":"public"}`, 400,
			`{"error":"container_registry_access_level does not have a valid value"}`, nil},
		{"bad boolean", tok, `{"name":"v","lfs_enabled":"maybe"}`, 400, `{"error":"lfs_enabled is invalid"}`, nil},
		{"bad build timeout", tok, `{"name":"bt","build_timeout":5}`, 400, `{"message":{"build_timeout":["needs to be between 10 minutes and 1 month"]}}`, nil},
		{"unknown namespace", tok, `{"name":"n","namespace_id":999999}`, 400, `{"message":{"namespace":["is not valid"]}}`, nil},
		{"invisible group", tok, fmt.Sprintf(`{"name":"n","namespace_id":%d}`, hidden.ID), 400, `{"message":{"namespace":["is not valid"]}}`, nil},
		{"someone else's personal namespace", otherTok, fmt.Sprintf(`{"name":"n","namespace_id":%d}`, in.PersonalNamespace(t, alice).ID), 400,
			`{"message":{"namespace":["is not valid"]}}`, nil},
		{"visibility lowered to the group's", tok, fmt.Sprintf(`{"name":"loud","namespace_id":%d,"visibility":"public"}`, privGroup.ID), 201, "",
			func(t *testing.T, b map[string]any) { assert.Equal(t, "private", b["visibility"]) }},
		{"path of a subgroup is taken", tok, fmt.Sprintf(`{"name":"kid project","path":"kid","namespace_id":%d}`, privGroup.ID), 400,
			`{"message":{"path":["has already been taken"]}}`, nil},
		{"legacy booleans", tok, `{"name":"legacy","issues_enabled":false,"jobs_enabled":false,"container_registry_enabled":false,"merge_requests_access_level":"private","merge_requests_enabled":false}`, 201, "",
			func(t *testing.T, b map[string]any) {
				assert.Equal(t, "disabled", b["issues_access_level"])
				assert.Equal(t, "disabled", b["builds_access_level"])
				assert.Equal(t, "disabled", b["container_registry_access_level"])
				assert.Equal(t, "private", b["merge_requests_access_level"], "the access level wins over the boolean")
				assert.Equal(t, false, b["issues_enabled"])
				assert.NotContains(t, b["_links"], "issues")
			}},
		{"form encoded, topics wins over tag_list", tok, "", 201, "", nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var r *servertest.Response
			if tc.body == "" {
				r = in.Do(t, "POST", "/projects", tc.token, url.Values{"name": {"Formed"}, "topics[]": {"b", "a"}, "tag_list": {"zzz"}, "public_builds": {"false"}, "public_jobs": {"true"}})
				require.Equal(t, tc.status, r.Status, r.String())
				b := servertest.Decode[map[string]any](t, r)
				assert.Equal(t, []any{"a", "b"}, b["topics"])
				assert.Equal(t, true, b["public_jobs"])
				return
			}
			r = in.Do(t, "POST", "/projects", tc.token, tc.body)
			require.Equal(t, tc.status, r.Status, r.String())
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(r.Body))
			}
			if tc.check != nil {
				tc.check(t, servertest.Decode[map[string]any](t, r))
			}
		})
	}
}

func TestProjects_create_defaultsAndLimits(t *testing.T) {
	in := servertest.Start(t)
	u, tok := in.NewUser(t, "limited")
	t.Run("default visibility is the instance setting", func(t *testing.T) {
		require.NoError(t, in.Services.Settings.Set(t.Context(), "default_project_visibility", "internal"))
		r := in.Do(t, "POST", "/projects", tok, `{"name":"defaulted"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, "internal", servertest.Decode[map[string]any](t, r)["visibility"])
	})
	t.Run("projects_limit", func(t *testing.T) {
		require.NoError(t, in.DB.Client.User.UpdateOne(u).SetProjectsLimit(1).Exec(t.Context()))
		r := in.Do(t, "POST", "/projects", tok, `{"name":"one too many"}`)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"error":"You've reached your limit of 1 projects created. Contact your GitLab administrator."}`, string(r.Body))
		require.NoError(t, in.DB.Client.User.UpdateOne(u).SetProjectsLimit(0).Exec(t.Context()))
		r = in.Do(t, "POST", "/projects", tok, `{"name":"none allowed"}`)
		assert.JSONEq(t, `{"error":"You cannot create projects in your personal namespace. Contact your GitLab administrator."}`, string(r.Body))
		// Group projects do not count against the personal limit.
		g := in.NewGroup(t, "roomy", "private", nil)
		in.AddGroupMember(t, g, u, 40)
		r = in.Do(t, "POST", "/projects", tok, fmt.Sprintf(`{"name":"in group","namespace_id":%d}`, g.ID))
		assert.Equal(t, http.StatusCreated, r.Status, r.String())
	})
	t.Run("admin creates for a user", func(t *testing.T) {
		target, _ := in.NewUser(t, "target")
		gl := in.Client(t, servertest.RootToken)
		p, _, err := gl.Projects.CreateProjectForUser(int64(target.ID), &gitlab.CreateProjectForUserOptions{Name: gitlab.Ptr("Gift")})
		require.NoError(t, err)
		assert.Equal(t, "target/Gift", p.PathWithNamespace, "a name that is a valid path is the path")
		assert.Equal(t, int64(target.ID), p.CreatorID)
		assert.Equal(t, "target", p.Owner.Username)

		r := in.Do(t, "POST", fmt.Sprintf("/projects/user/%d", target.ID), tok, `{"name":"nope"}`)
		assert.Equal(t, http.StatusForbidden, r.Status)
		r = in.Do(t, "POST", "/projects/user/999999", servertest.RootToken, `{"name":"nobody"}`)
		assert.Equal(t, http.StatusNotFound, r.Status)
		assert.JSONEq(t, `{"message":"404 User Not Found"}`, string(r.Body))
		r = in.Do(t, "POST", fmt.Sprintf("/projects/user/%d", target.ID), servertest.RootToken, `{"path":"no-name"}`)
		assert.JSONEq(t, `{"error":"name is missing"}`, string(r.Body))
		r = in.Do(t, "POST", fmt.Sprintf("/projects/user/%d", u.ID), servertest.RootToken, `{"name":"over limit"}`)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"message":{"limit_reached":["You cannot create projects in your personal namespace. Contact your GitLab administrator."]}}`, string(r.Body))
	})
}
