package authz_test

import (
	"context"
	"fmt"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/db"

	"github.com/stretchr/testify/require"
)

// The fixture is one public group holding a project for every visibility × feature level ×
// archived flag (every feature of a project at the same level), and a user for every role:
// members of each project directly (Guest to Maintainer, and an external Guest), the group's
// Owner, an administrator, a signed-in non-member, an external non-member and anonymous.

var (
	visibilities  = []string{"private", "internal", "public"}
	featureLevels = []string{"disabled", "private", "enabled"}
	// roles in the order of the expectation tables.
	roles = []string{"anonymous", "non-member", "external", "external guest", "guest", "reporter",
		"developer", "maintainer", "owner", "admin"}
)

type fixture struct {
	client   *ent.Client
	policy   *authz.Policy
	group    *ent.Namespace
	actors   map[string]*authz.Actor
	projects map[string]*ent.Project // by key(visibility, level, archived)
}

func key(visibility, level string, archived bool) string {
	return fmt.Sprintf("%s-%s-%t", visibility, level, archived)
}

// openDB opens a fresh, migrated database: SQLite in a temporary directory, or a new PostgreSQL
// database when ANVIL_TEST_DATABASE_URL is set.
func openDB(t *testing.T) *ent.Client {
	t.Helper()
	d, err := db.Open(servertest.Database(t), t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	require.NoError(t, d.Migrate(context.Background()))
	return d.Client
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	c := openDB(t)
	f := &fixture{client: c, policy: authz.New(c), actors: map[string]*authz.Actor{"anonymous": authz.Anonymous},
		projects: map[string]*ent.Project{}}
	users := map[string]*ent.User{}
	for _, role := range roles[1:] {
		name := fmt.Sprintf("u%d", len(users))
		u, err := c.User.Create().SetUsername(name).SetName(role).SetEmail(name + "@example.com").
			SetAdmin(role == "admin").SetExternal(role == "external" || role == "external guest").Save(ctx)
		require.NoError(t, err)
		users[role] = u
		f.actors[role] = &authz.Actor{User: u}
	}
	var err error
	f.group, err = c.Namespace.Create().SetName("g").SetPath("g").SetFullPath("g").
		SetKind(namespace.KindGroup).SetVisibility(namespace.VisibilityPublic).Save(ctx)
	require.NoError(t, err)
	require.NoError(t, c.Member.Create().SetUserID(users["owner"].ID).SetNamespaceID(f.group.ID).
		SetAccessLevel(int(authz.Owner)).Exec(ctx))
	members := map[string]authz.Level{"external guest": authz.Guest, "guest": authz.Guest,
		"reporter": authz.Reporter, "developer": authz.Developer, "maintainer": authz.Maintainer}
	for _, vis := range visibilities {
		for _, level := range featureLevels {
			for _, archived := range []bool{false, true} {
				k := key(vis, level, archived)
				p, err := withFeatures(c.Project.Create().SetName(k).SetPath(k).SetNamespaceID(f.group.ID).
					SetVisibility(project.Visibility(vis)).SetArchived(archived), level).Save(ctx)
				require.NoError(t, err)
				f.projects[k] = p
				for role, l := range members {
					require.NoError(t, c.Member.Create().SetUserID(users[role].ID).SetProjectID(p.ID).
						SetAccessLevel(int(l)).Exec(ctx))
				}
			}
		}
	}
	return f
}

// withFeatures sets every feature's access level.
func withFeatures(c *ent.ProjectCreate, level string) *ent.ProjectCreate {
	return c.SetIssuesAccessLevel(level).SetRepositoryAccessLevel(level).SetMergeRequestsAccessLevel(level).
		SetForkingAccessLevel(level).SetWikiAccessLevel(level).SetBuildsAccessLevel(level).
		SetSnippetsAccessLevel(level).SetPagesAccessLevel(level).SetAnalyticsAccessLevel(level).
		SetContainerRegistryAccessLevel(level).SetSecurityAndComplianceAccessLevel(level).
		SetReleasesAccessLevel(level).SetEnvironmentsAccessLevel(level).SetFeatureFlagsAccessLevel(level).
		SetInfrastructureAccessLevel(level).SetMonitorAccessLevel(level).SetModelExperimentsAccessLevel(level).
		SetModelRegistryAccessLevel(level).SetRequirementsAccessLevel(level).SetOperationsAccessLevel(level)
}
