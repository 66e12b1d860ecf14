package authz

import (
	"context"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/projectgrouplink"
	"anvil/internal/apperr"
	"anvil/internal/db"
)

// Policy answers authorization questions from the database.
type Policy struct {
	client *ent.Client
}

// New returns a policy reading through client, or through the transaction the context of a
// question carries, so that a check inside a service's transaction sees what the transaction
// wrote (a membership just added, a project just moved).
func New(client *ent.Client) *Policy { return &Policy{client: client} }

// db is the client a question asked in ctx reads through.
func (p *Policy) db(ctx context.Context) *ent.Client { return db.ClientFrom(ctx, p.client) }

// Ancestors returns the full paths of a namespace and its ancestors, top-level first.
func Ancestors(fullPath string) []string {
	parts := strings.Split(fullPath, "/")
	out := make([]string, 0, len(parts))
	for i := range parts {
		out = append(out, strings.Join(parts[:i+1], "/"))
	}
	return out
}

// activeMembership keeps memberships that have not expired. A membership expires at the end
// of its expires_at day.
func activeMembership() predicate.Member {
	today := time.Now().UTC().Truncate(24 * time.Hour)
	return member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGTE(today))
}

func activeGroupLink() predicate.GroupGroupLink {
	today := time.Now().UTC().Truncate(24 * time.Hour)
	return groupgrouplink.Or(groupgrouplink.ExpiresAtIsNil(), groupgrouplink.ExpiresAtGTE(today))
}

func activeProjectLink() predicate.ProjectGroupLink {
	today := time.Now().UTC().Truncate(24 * time.Hour)
	return projectgrouplink.Or(projectgrouplink.ExpiresAtIsNil(), projectgrouplink.ExpiresAtGTE(today))
}

// OwnsPersonalNamespace reports whether ns is userID's personal namespace: its owner is the
// Owner of every project in it.
func OwnsPersonalNamespace(ns *ent.Namespace, userID int) bool {
	return ns.Kind == namespace.KindUser && ns.OwnerID != nil && *ns.OwnerID == userID
}

// ancestorIDs returns the ids of ns and its ancestors.
func (p *Policy) ancestorIDs(ctx context.Context, ns *ent.Namespace) ([]int, error) {
	if ns.ParentID == nil {
		return []int{ns.ID}, nil
	}
	return p.db(ctx).Namespace.Query().Where(namespace.FullPathIn(Ancestors(ns.FullPath)...)).IDs(ctx)
}

// membershipLevel is the user's highest active membership level among a direct membership of
// the project projectID (0: none) and memberships of the namespaces ids, read in one query.
func (p *Policy) membershipLevel(ctx context.Context, userID, projectID int, ids []int) (Level, error) {
	var where []predicate.Member
	if projectID != 0 {
		where = append(where, member.ProjectID(projectID))
	}
	if len(ids) > 0 {
		where = append(where, member.NamespaceIDIn(ids...))
	}
	if len(where) == 0 {
		return NoAccess, nil
	}
	var rows []struct {
		Max *int `json:"max"`
	}
	err := p.db(ctx).Member.Query().
		Where(member.UserID(userID), member.Or(where...), activeMembership(), member.State("active")).
		Aggregate(ent.Max(member.FieldAccessLevel)).Scan(ctx, &rows)
	if err != nil || len(rows) == 0 || rows[0].Max == nil {
		return NoAccess, err
	}
	return Level(*rows[0].Max), nil
}

// GroupAccess is the user's effective access level in a group: memberships in the group and its
// ancestors, and shares of those groups with groups the user belongs to. Administrators get Owner
// for permission purposes; anonymous callers get NoAccess.
func (p *Policy) GroupAccess(ctx context.Context, a *Actor, ns *ent.Namespace) (Level, error) {
	if a.IsAnonymous() {
		return NoAccess, nil
	}
	if ns.Kind == namespace.KindUser {
		if OwnsPersonalNamespace(ns, a.User.ID) {
			return Owner, nil
		}
		return NoAccess, nil
	}
	ids, err := p.ancestorIDs(ctx, ns)
	if err != nil {
		return NoAccess, err
	}
	level, err := p.membershipLevel(ctx, a.User.ID, 0, ids)
	if err != nil {
		return NoAccess, err
	}
	return p.groupShareLevel(ctx, a.User.ID, ids, level)
}

// groupShareLevel raises level by the shares of the groups ids with other groups: the user's
// level in a group it was shared with, capped at the share's access.
func (p *Policy) groupShareLevel(ctx context.Context, userID int, ids []int, level Level) (Level, error) {
	links, err := p.db(ctx).GroupGroupLink.Query().
		Where(groupgrouplink.SharedGroupIDIn(ids...), activeGroupLink()).
		WithSharedWithGroup().All(ctx)
	if err != nil {
		return NoAccess, err
	}
	for _, l := range links {
		if Level(l.GroupAccess) <= level {
			continue
		}
		shared, err := p.inheritedLevel(ctx, userID, l.Edges.SharedWithGroup)
		if err != nil {
			return NoAccess, err
		}
		level = max(level, min(shared, Level(l.GroupAccess)))
	}
	return level, nil
}

// inheritedLevel is the user's level in ns from memberships of ns and its ancestors.
func (p *Policy) inheritedLevel(ctx context.Context, userID int, ns *ent.Namespace) (Level, error) {
	ids, err := p.ancestorIDs(ctx, ns)
	if err != nil {
		return NoAccess, err
	}
	return p.membershipLevel(ctx, userID, 0, ids)
}

// ProjectAccess is the user's effective access level in a project: a direct membership, the
// namespace's access (group inheritance and group shares, or ownership of a personal namespace),
// and shares of the project with groups. The direct and inherited memberships are read in one
// query, and the project's shares are taken from the project when it was loaded with them.
func (p *Policy) ProjectAccess(ctx context.Context, a *Actor, proj *ent.Project) (Level, error) {
	if a.IsAnonymous() {
		return NoAccess, nil
	}
	ns, err := p.namespaceOf(ctx, proj)
	if err != nil {
		return NoAccess, err
	}
	level := NoAccess
	var groupIDs []int
	if ns.Kind == namespace.KindUser {
		if OwnsPersonalNamespace(ns, a.User.ID) {
			level = Owner
		}
	} else if groupIDs, err = p.ancestorIDs(ctx, ns); err != nil {
		return NoAccess, err
	}
	member, err := p.membershipLevel(ctx, a.User.ID, proj.ID, groupIDs)
	if err != nil {
		return NoAccess, err
	}
	level = max(level, member)
	if len(groupIDs) > 0 {
		if level, err = p.groupShareLevel(ctx, a.User.ID, groupIDs, level); err != nil {
			return NoAccess, err
		}
	}
	return p.projectShareLevel(ctx, a, proj, level)
}

// projectShareLevel raises level by the project's shares with groups: the user's level in a
// group the project is shared with, capped at the share's access.
func (p *Policy) projectShareLevel(ctx context.Context, a *Actor, proj *ent.Project, level Level) (Level, error) {
	links, err := p.projectLinks(ctx, proj)
	if err != nil {
		return NoAccess, err
	}
	for _, l := range links {
		if Level(l.GroupAccess) <= level {
			continue
		}
		shared, err := p.inheritedLevel(ctx, a.User.ID, l.Edges.Group)
		if err != nil {
			return NoAccess, err
		}
		level = max(level, min(shared, Level(l.GroupAccess)))
	}
	return level, nil
}

// projectLinks returns the project's active shares with groups (with the groups): those
// eager-loaded on the project when they were (ent leaves an empty, non-nil slice when there are
// none), else from the database.
func (p *Policy) projectLinks(ctx context.Context, proj *ent.Project) ([]*ent.ProjectGroupLink, error) {
	if loaded := proj.Edges.GroupLinks; loaded != nil && linkGroupsLoaded(loaded) {
		today := time.Now().UTC().Truncate(24 * time.Hour)
		active := make([]*ent.ProjectGroupLink, 0, len(loaded))
		for _, l := range loaded {
			if l.ExpiresAt == nil || !l.ExpiresAt.Before(today) {
				active = append(active, l)
			}
		}
		return active, nil
	}
	return p.db(ctx).ProjectGroupLink.Query().
		Where(projectgrouplink.ProjectID(proj.ID), activeProjectLink()).WithGroup().All(ctx)
}

// linkGroupsLoaded reports whether every link carries its group.
func linkGroupsLoaded(links []*ent.ProjectGroupLink) bool {
	for _, l := range links {
		if l.Edges.Group == nil {
			return false
		}
	}
	return true
}

func (p *Policy) namespaceOf(ctx context.Context, proj *ent.Project) (*ent.Namespace, error) {
	if proj.Edges.Namespace != nil {
		return proj.Edges.Namespace, nil
	}
	ns, err := p.db(ctx).Namespace.Get(ctx, proj.NamespaceID)
	if err != nil {
		return nil, err
	}
	proj.Edges.Namespace = ns
	return ns, nil
}

// canSeeVisibility reports whether visibility alone lets the actor read an item.
func canSeeVisibility(a *Actor, visibility string) bool {
	switch visibility {
	case "public":
		return true
	case "internal":
		return !a.IsAnonymous() && !a.IsExternal()
	}
	return false
}

// ProjectLevel returns the actor's level in the project and whether the actor may read it.
func (p *Policy) ProjectLevel(ctx context.Context, a *Actor, proj *ent.Project) (Level, bool, error) {
	if a.IsAdmin() {
		return Admin, true, nil
	}
	level, err := p.ProjectAccess(ctx, a, proj)
	if err != nil {
		return NoAccess, false, err
	}
	return level, canReadProject(a, proj, level), nil
}

// Project checks an ability on a project. It answers 404 Project Not Found when the actor cannot
// read the project, and 403 when it can read it but not do this.
func (p *Policy) Project(ctx context.Context, a *Actor, proj *ent.Project, ability Ability) error {
	level, readable, err := p.ProjectLevel(ctx, a, proj)
	if err != nil {
		return err
	}
	return Check(a, proj, level, readable, ability)
}

// Check decides an ability on a project from the actor's level and readability computed
// beforehand, answering as Project does.
func Check(a *Actor, proj *ent.Project, level Level, readable bool, ability Ability) error {
	if !readable {
		return apperr.NotFound("Project")
	}
	if ability == ReadProject {
		return nil
	}
	if !CanProject(a, proj, level, ability) {
		if a.IsAnonymous() {
			return apperr.Unauthorized()
		}
		return apperr.Forbidden("")
	}
	return nil
}

// CheckRepository is Check for the routes that ask for the repository feature first (GitLab's
// require_repository_enabled! on the branches, tags and commits APIs): 404 Project Not Found
// for a project the actor cannot read, 404 Repository Not Found when the repository feature is
// not available to it (disabled, or private and the actor no member), then Check's answer.
func CheckRepository(a *Actor, proj *ent.Project, level Level, readable bool, ability Ability) error {
	if !readable {
		return apperr.NotFound("Project")
	}
	if err := RequireFeature(a, proj, level, FeatureRepository); err != nil {
		return err
	}
	return Check(a, proj, level, readable, ability)
}

// GroupLevel returns the actor's level in the group and whether the actor may read it. Members of
// a descendant group or project may read its ancestors, as in GitLab.
func (p *Policy) GroupLevel(ctx context.Context, a *Actor, ns *ent.Namespace) (Level, bool, error) {
	if a.IsAdmin() {
		return Admin, true, nil
	}
	level, err := p.GroupAccess(ctx, a, ns)
	if err != nil {
		return NoAccess, false, err
	}
	if level >= Minimal || CanReadGroupIn(a, nil, ns) {
		return level, true, nil
	}
	// Members of a descendant group or of a project inside read it too.
	scope, err := p.scopeOf(ctx, a)
	if err != nil {
		return level, false, err
	}
	return level, CanReadGroupIn(a, scope, ns), nil
}

// Group checks an ability on a group: 404 Group Not Found when the actor cannot read it, 403 when
// it can read it but not do this.
func (p *Policy) Group(ctx context.Context, a *Actor, ns *ent.Namespace, ability Ability) error {
	level, readable, err := p.GroupLevel(ctx, a, ns)
	if err != nil {
		return err
	}
	if !readable {
		return apperr.NotFound("Group")
	}
	if ability == ReadGroup || CanGroup(a, ns, level, ability) {
		return nil
	}
	if a.IsAnonymous() {
		return apperr.Unauthorized()
	}
	return apperr.Forbidden("")
}

// CanGroup decides a group ability from an already computed level.
func CanGroup(a *Actor, ns *ent.Namespace, level Level, ability Ability) bool {
	if a.IsAdmin() {
		return true
	}
	switch ability {
	case CreateProjects:
		return level >= creationLevel(ns.ProjectCreationLevel)
	case CreateSubgroup:
		return level >= creationLevel(ns.SubgroupCreationLevel)
	case TransferProjects:
		return level >= Maintainer && level >= creationLevel(ns.ProjectCreationLevel)
	case DestroyEpic:
		// GitLab's (owner | planner): Reporters, Developers and Maintainers may not.
		return level == Planner || level >= Owner
	case ReadGroupMember:
		// GitLab hides a private group's members from readers without access of their own
		// (members of its subgroups or projects, who may still read the group itself).
		return level > NoAccess || ns.Visibility != namespace.VisibilityPrivate
	}
	need, ok := groupMinLevel[ability]
	return ok && level >= need
}
