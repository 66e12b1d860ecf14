package authz_test

import (
	"context"
	"strings"
	"testing"

	"anvil/internal/authz"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grid is who holds an ability, written from GitLab's ProjectPolicy and ProjectFeature: per
// role, three groups for a private, an internal and a public project, each of three marks for
// the project's features disabled, private and enabled. "Y" holds it, "." does not.
type grid map[string]string

// Patterns shared by many abilities.
const (
	nowhere      = "... ... ..."
	everywhere   = "YYY YYY YYY" // abilities no feature gates
	whenFeatured = ".YY .YY .YY" // members and administrators wherever the feature is not disabled
	publicOnly   = "... ... ..Y" // read by visibility: anonymous and external users on public projects
	openToUsers  = "... ..Y ..Y" // read by visibility: signed-in users on internal and public projects
)

// readByGuests is an ability every member holds and the visibility shows to everyone
// (read_issue, read_wiki, ...), gated by its feature.
var readByGuests = grid{
	"anonymous": publicOnly, "non-member": openToUsers, "external": publicOnly,
	"external guest": whenFeatured, "guest": whenFeatured, "reporter": whenFeatured,
	"developer": whenFeatured, "maintainer": whenFeatured, "owner": whenFeatured, "admin": whenFeatured,
}

// from is a grid giving want to the roles from the first of them on, nowhere to the others.
func from(first, want string) grid {
	g := grid{}
	on := false
	for _, r := range roles {
		on = on || r == first
		g[r] = nowhere
		if on || r == "admin" {
			g[r] = want
		}
	}
	return g
}

// with is g with some roles' rows replaced.
func with(g grid, rows grid) grid {
	out := grid{}
	for r, v := range g {
		out[r] = v
	}
	for r, v := range rows {
		out[r] = v
	}
	return out
}

var readProject = grid{
	"anonymous": "... ... YYY", "non-member": "... YYY YYY", "external": "... ... YYY",
	"external guest": everywhere, "guest": everywhere, "reporter": everywhere, "developer": everywhere,
	"maintainer": everywhere, "owner": everywhere, "admin": everywhere,
}

// abilityGrids is the expectation for each ability on an active project.
var abilityGrids = map[authz.Ability]grid{
	authz.ReadProject:       readProject,
	authz.ReadProjectMember: readProject,
	// Code: Reporters, and whoever the visibility shows a public or internal project to; a
	// Guest of a private project, or an external Guest of an internal one, reads none.
	authz.DownloadCode: with(from("reporter", whenFeatured), grid{
		"anonymous": publicOnly, "non-member": openToUsers, "external": publicOnly,
		"external guest": "... ... .YY", "guest": "... .YY .YY",
	}),
	authz.ReadCode:  nil, // as download_code
	authz.PushCode:  from("developer", whenFeatured),
	authz.AdminTag:  from("developer", whenFeatured),
	authz.ReadIssue: readByGuests,
	// Creating issues is a Guest's; the visibility extends it to signed-in users only.
	authz.CreateIssue: with(readByGuests, grid{"anonymous": nowhere}),
	// Merge requests need the repository and the code; private merge requests need a Reporter.
	authz.ReadMergeRequest: with(from("reporter", whenFeatured), grid{
		"anonymous": publicOnly, "non-member": openToUsers, "external": publicOnly,
		"external guest": publicOnly, "guest": openToUsers,
	}),
	authz.CreateMergeRequestIn: with(from("reporter", whenFeatured), grid{
		"non-member": openToUsers, "external": publicOnly, "external guest": publicOnly, "guest": openToUsers,
	}),
	authz.CreateMergeRequestFrom: from("developer", whenFeatured),
	// Public pipelines (the default) show jobs to every reader.
	authz.ReadBuild:        readByGuests,
	authz.ReadSnippet:      readByGuests,
	authz.CreateSnippet:    from("reporter", whenFeatured),
	authz.ReadWiki:         readByGuests,
	authz.CreateWiki:       from("developer", whenFeatured),
	authz.ReadPagesContent: readByGuests,
	// Private registries need a Reporter; external members of internal projects read images.
	authz.ReadContainerImage: with(from("reporter", whenFeatured), grid{
		"anonymous": publicOnly, "non-member": openToUsers, "external": publicOnly,
		"external guest": openToUsers, "guest": openToUsers,
	}),
	authz.CreateContainerImage:  from("developer", whenFeatured),
	authz.DestroyContainerImage: from("developer", whenFeatured),
	authz.ReadRelease:           readByGuests,
	authz.CreateRelease:         from("developer", whenFeatured),
	// Private environments need a Reporter.
	authz.ReadEnvironment: with(from("reporter", whenFeatured), grid{
		"anonymous": publicOnly, "non-member": openToUsers, "external": publicOnly,
		"external guest": publicOnly, "guest": openToUsers,
	}),
	authz.ReadFeatureFlag:             from("developer", whenFeatured),
	authz.AccessSecurityAndCompliance: from("developer", whenFeatured),
	authz.ReadAnalytics:               readByGuests,
	authz.ReadModelRegistry:           readByGuests,
	// Forking is for Reporters and for signed-in users the visibility shows the project to.
	authz.ForkProject: with(from("reporter", whenFeatured), grid{
		"non-member": openToUsers, "external": publicOnly, "external guest": "... ... .YY", "guest": "... .YY .YY",
	}),
	authz.AdminProject:       from("maintainer", everywhere),
	authz.AdminProjectMember: from("maintainer", everywhere),
	authz.ReadStatistics:     from("reporter", everywhere),
	authz.ArchiveProject:     from("owner", everywhere),
	authz.RemoveProject:      from("owner", everywhere),
	authz.ChangeVisibility:   from("owner", everywhere),
}

// changesProject are the abilities of abilityGrids an archived project refuses to everyone
// (GitLab's ArchivedAbilities: pushes, tags, merge requests and every feature's create, update
// and destroy); the others, reads and the project's own administration (settings, members,
// archiving, deletion), an archived project keeps.
var changesProject = map[authz.Ability]bool{
	authz.PushCode: true, authz.AdminTag: true, authz.CreateIssue: true, authz.CreateMergeRequestIn: true,
	authz.CreateMergeRequestFrom: true, authz.CreateSnippet: true, authz.CreateWiki: true,
	authz.CreateContainerImage: true, authz.DestroyContainerImage: true, authz.CreateRelease: true,
}

// TestCanProject is the policy's table: role × visibility × feature level × archived ×
// ability, each decided from levels read out of the database (ProjectLevel) as the services
// do, and checked with Check's answers too.
func TestCanProject(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	abilityGrids[authz.ReadCode] = abilityGrids[authz.DownloadCode]
	for _, role := range roles {
		a := f.actors[role]
		t.Run(role, func(t *testing.T) {
			for vi, vis := range visibilities {
				for li, lvl := range featureLevels {
					for _, archived := range []bool{false, true} {
						p := f.projects[key(vis, lvl, archived)]
						level, readable, err := f.policy.ProjectLevel(ctx, a, p)
						require.NoError(t, err)
						for ability, g := range abilityGrids {
							row, ok := g[role]
							require.True(t, ok, "%s has no row for %s", ability, role)
							want := strings.Split(row, " ")[vi][li] == 'Y'
							if archived && changesProject[ability] {
								want = false
							}
							got := readable && authz.CanProject(a, p, level, ability)
							assert.Equal(t, want, got, "%s on %s", ability, key(vis, lvl, archived))
							checkAnswer(t, a, p.Name, authz.Check(a, p, level, readable, ability), want, readable)
						}
					}
				}
			}
		})
	}
}

// checkAnswer asserts Check's answer: nothing when allowed, Project not found for a project
// the actor cannot read, 401 for anonymous callers and 403 for the others.
func checkAnswer(t *testing.T, a *authz.Actor, name string, err error, allowed, readable bool) {
	t.Helper()
	switch {
	case allowed:
		assert.NoError(t, err, name)
	case !readable:
		assert.EqualError(t, err, "Project not found", name)
	case a.IsAnonymous():
		assert.EqualError(t, err, "unauthorized", name)
	default:
		assert.EqualError(t, err, "forbidden", name)
	}
}

// TestFeatureAvailable is GitLab's feature_available? for each role: disabled for everyone,
// private for members at the feature's level (Reporter for merge requests, the container
// registry and environments; Guest otherwise) and administrators, enabled for everyone; and
// RequireFeature's 404 Repository Not Found. FeatureAvailableIn selects the same projects.
func TestFeatureAvailable(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	reporterFeatures := map[authz.Feature]bool{authz.FeatureMergeRequests: true,
		authz.FeatureContainerRegistry: true, authz.FeatureEnvironments: true}
	features := []authz.Feature{authz.FeatureIssues, authz.FeatureRepository, authz.FeatureMergeRequests,
		authz.FeatureContainerRegistry, authz.FeatureEnvironments, authz.FeatureWiki}
	memberLevel := map[string]authz.Level{"external guest": authz.Guest, "guest": authz.Guest,
		"reporter": authz.Reporter, "developer": authz.Developer, "maintainer": authz.Maintainer,
		"owner": authz.Owner, "admin": authz.Admin}
	for _, role := range roles {
		a := f.actors[role]
		var scope *authz.Scope
		if !a.IsAnonymous() {
			var err error
			scope, err = f.policy.Scope(ctx, a, authz.Guest)
			require.NoError(t, err)
		}
		for _, feature := range features {
			need := authz.Guest
			if reporterFeatures[feature] {
				need = authz.Reporter
			}
			want := map[int]bool{}
			for k, p := range f.projects {
				level, _, err := f.policy.ProjectLevel(ctx, a, p)
				require.NoError(t, err)
				switch authz.FeatureLevel(p, feature) {
				case "enabled":
					want[p.ID] = true
				case "private":
					want[p.ID] = memberLevel[role] >= need
				}
				assert.Equal(t, want[p.ID], authz.FeatureAvailable(a, p, level, feature), "%s %s %s", role, feature, k)
				if feature == authz.FeatureRepository {
					if want[p.ID] {
						assert.NoError(t, authz.RequireFeature(a, p, level, feature))
					} else {
						assert.EqualError(t, authz.RequireFeature(a, p, level, feature), "Repository not found")
					}
				}
			}
			ids, err := f.client.Project.Query().Where(authz.FeatureAvailableIn(a, scope, feature)).IDs(ctx)
			require.NoError(t, err)
			got := map[int]bool{}
			for _, id := range ids {
				got[id] = true
			}
			for id, ok := range want {
				assert.Equal(t, ok, got[id], "%s %s FeatureAvailableIn project %d", role, feature, id)
			}
		}
	}
}

// TestCheckRepository: the order of the repository routes' refusals.
func TestCheckRepository(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, tc := range []struct {
		role, project string
		ability       authz.Ability
		want          string
	}{
		{"non-member", key("private", "enabled", false), authz.DownloadCode, "Project not found"},
		{"non-member", key("public", "private", false), authz.DownloadCode, "Repository not found"},
		{"anonymous", key("public", "private", false), authz.DownloadCode, "Repository not found"},
		{"admin", key("public", "disabled", false), authz.DownloadCode, "Repository not found"},
		{"guest", key("private", "enabled", false), authz.DownloadCode, "forbidden"},
		{"guest", key("public", "private", false), authz.DownloadCode, ""},
		{"anonymous", key("public", "enabled", false), authz.PushCode, "unauthorized"},
		{"reporter", key("public", "enabled", false), authz.PushCode, "forbidden"},
		{"developer", key("public", "enabled", true), authz.PushCode, "forbidden"},
		{"admin", key("public", "enabled", true), authz.PushCode, "forbidden"},
		{"developer", key("private", "private", false), authz.PushCode, ""},
	} {
		a, p := f.actors[tc.role], f.projects[tc.project]
		level, readable, err := f.policy.ProjectLevel(ctx, a, p)
		require.NoError(t, err)
		err = authz.CheckRepository(a, p, level, readable, tc.ability)
		if tc.want == "" {
			assert.NoError(t, err, "%s %s %s", tc.role, tc.project, tc.ability)
		} else {
			assert.EqualError(t, err, tc.want, "%s %s %s", tc.role, tc.project, tc.ability)
		}
	}
}
