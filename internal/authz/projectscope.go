package authz

import (
	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"

	"entgo.io/ent/dialect/sql"
)

// "Which projects and groups may this actor see" is written here once, as predicates over a
// Scope loaded once per request, so that a listing of a hundred projects costs the same handful
// of queries as a listing of one; the per-row helpers answer the same question for rows
// already read. A nil scope stands for an actor without memberships (anonymous callers, and
// administrators, whose reach needs none).

// ProjectLevelIn is the actor's effective level in p according to s: the namespace's level
// (inheritance, group shares, personal namespace ownership) or the project's own (direct
// membership, project shares), whichever is higher. Administrators get Admin.
func ProjectLevelIn(a *Actor, s *Scope, p *ent.Project) Level {
	if a.IsAdmin() {
		return Admin
	}
	if a.IsAnonymous() || s == nil {
		return NoAccess
	}
	return max(s.GroupLevels[p.NamespaceID], s.ProjectLevels[p.ID])
}

// CanReadProjectIn reports whether the actor may read p, given its level from ProjectLevelIn.
func CanReadProjectIn(a *Actor, p *ent.Project, level Level) bool { return canReadProject(a, p, level) }

// CanReadGroupIn reports whether the actor may read the group ns according to s: by its
// visibility, as a member, or as a member of one of its descendants or of a project inside it.
func CanReadGroupIn(a *Actor, s *Scope, ns *ent.Namespace) bool {
	if a.IsAdmin() || canSeeVisibility(a, string(ns.Visibility)) {
		return true
	}
	if a.IsAnonymous() || s == nil {
		return false
	}
	return s.GroupLevels[ns.ID] >= Minimal || s.ReadableGroupPaths[ns.FullPath]
}

// VisibleProjectsIn selects the projects the actor may read: all for administrators, else those
// its visibility shows it (OpenProjects) and those where it is at least a Guest.
func VisibleProjectsIn(a *Actor, s *Scope) predicate.Project {
	if a.IsAdmin() {
		return project.IDGT(0)
	}
	preds := append([]predicate.Project{OpenProjects(a)}, memberProjects(s, Guest)...)
	if len(preds) == 1 {
		return preds[0]
	}
	return project.Or(preds...)
}

// ProjectsWithLevelIn selects the projects where the actor's level is at least minLevel
// (GitLab's membership and min_access_level filters).
func ProjectsWithLevelIn(a *Actor, s *Scope, minLevel Level) predicate.Project {
	if a.IsAnonymous() {
		return project.IDLT(0)
	}
	return project.Or(append([]predicate.Project{project.IDLT(0)}, memberProjects(s, minLevel)...)...)
}

// memberProjects are the terms selecting the projects where s reaches minLevel: those of its
// namespaces, and its own projects.
func memberProjects(s *Scope, minLevel Level) []predicate.Project {
	if s == nil {
		return nil
	}
	var preds []predicate.Project
	if ids := s.GroupIDs(minLevel); len(ids) > 0 {
		preds = append(preds, project.NamespaceIDIn(ids...))
	}
	if ids := s.ProjectIDs(minLevel); len(ids) > 0 {
		preds = append(preds, project.IDIn(ids...))
	}
	return preds
}

// FeatureAvailableIn selects the projects whose feature f is available to the actor
// (FeatureAvailable as a predicate, for with_issues_enabled and its kind; readability is
// decided apart).
func FeatureAvailableIn(a *Actor, s *Scope, f Feature) predicate.Project {
	column := string(f) + "_access_level"
	level := func(value string) predicate.Project { return predicate.Project(sql.FieldEQ(column, value)) }
	if a.IsAdmin() {
		return project.Not(level(FeatureDisabled))
	}
	return project.Or(level(FeatureEnabled), level(FeaturePublic),
		project.And(level(FeaturePrivate), ProjectsWithLevelIn(a, s, privateFeatureLevel(f))))
}

// VisibleGroupsIn selects the groups the actor may read: all for administrators, else those
// their visibility shows it (OpenGroups) and those its memberships reach (memberGroups).
func VisibleGroupsIn(a *Actor, s *Scope) predicate.Namespace {
	base := namespace.KindEQ(namespace.KindGroup)
	if a.IsAdmin() {
		return base
	}
	preds := append([]predicate.Namespace{OpenGroups(a)}, memberGroups(s)...)
	return namespace.And(base, namespace.Or(preds...))
}

// MemberGroupsIn selects the groups the actor's memberships make readable: those it belongs to
// (Minimal Access included) and the ancestors of every group and project it belongs to.
func MemberGroupsIn(a *Actor, s *Scope) predicate.Namespace {
	if a.IsAnonymous() {
		return namespace.IDLT(0)
	}
	return namespace.Or(append([]predicate.Namespace{namespace.IDLT(0)}, memberGroups(s)...)...)
}

// memberGroups are the terms of MemberGroupsIn.
func memberGroups(s *Scope) []predicate.Namespace {
	if s == nil {
		return nil
	}
	var preds []predicate.Namespace
	if ids := s.GroupIDs(Minimal); len(ids) > 0 {
		preds = append(preds, namespace.IDIn(ids...))
	}
	if len(s.ReadableGroupPaths) > 0 {
		paths := make([]string, 0, len(s.ReadableGroupPaths))
		for p := range s.ReadableGroupPaths {
			paths = append(paths, p)
		}
		preds = append(preds, namespace.FullPathIn(paths...))
	}
	return preds
}

// GroupsWithLevelIn selects the groups where the actor's level is at least minLevel.
func GroupsWithLevelIn(a *Actor, s *Scope, minLevel Level) predicate.Namespace {
	if a.IsAnonymous() || s == nil {
		return namespace.IDLT(0)
	}
	ids := s.GroupIDs(minLevel)
	if len(ids) == 0 {
		return namespace.IDLT(0)
	}
	return namespace.And(namespace.KindEQ(namespace.KindGroup), namespace.IDIn(ids...))
}

// CodeReadableProjectsIn selects the projects whose code the actor may read (download_code as
// a predicate: Reporter, or the reach of the project's visibility, and the repository feature
// available to the actor), for listings that show code, such as push events.
func CodeReadableProjectsIn(a *Actor, s *Scope) predicate.Project {
	repo := FeatureAvailableIn(a, s, FeatureRepository)
	if a.IsAdmin() {
		return repo
	}
	return project.And(project.Or(OpenProjects(a), ProjectsWithLevelIn(a, s, Reporter)), repo)
}
