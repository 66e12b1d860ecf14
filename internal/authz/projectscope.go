package authz

import (
	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
)

// The helpers below answer per-row questions from a Scope loaded once per request, so that a
// listing of a hundred projects costs the same handful of queries as a listing of one.

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
func CanReadProjectIn(a *Actor, p *ent.Project, level Level) bool {
	return a.IsAdmin() || level >= Guest || canSeeVisibility(a, string(p.Visibility))
}

// CanReadGroupIn reports whether the actor may read the group ns according to s.
func CanReadGroupIn(a *Actor, s *Scope, ns *ent.Namespace) bool {
	if a.IsAdmin() || canSeeVisibility(a, string(ns.Visibility)) {
		return true
	}
	if a.IsAnonymous() || s == nil {
		return false
	}
	return s.GroupLevels[ns.ID] >= Minimal || s.ReadableGroupPaths[ns.FullPath]
}

// VisibleProjectsIn is VisibleProjects computed from an already loaded scope.
func VisibleProjectsIn(a *Actor, s *Scope) predicate.Project {
	if a.IsAdmin() {
		return project.IDGT(0)
	}
	if a.IsAnonymous() || s == nil {
		return openProjects(a)
	}
	preds := []predicate.Project{openProjects(a)}
	if ids := s.GroupIDs(Guest); len(ids) > 0 {
		preds = append(preds, project.NamespaceIDIn(ids...))
	}
	if ids := s.ProjectIDs(Guest); len(ids) > 0 {
		preds = append(preds, project.IDIn(ids...))
	}
	return project.Or(preds...)
}

// ProjectsWithLevelIn is ProjectsWithLevel computed from an already loaded scope.
func ProjectsWithLevelIn(a *Actor, s *Scope, minLevel Level) predicate.Project {
	if a.IsAnonymous() || s == nil {
		return project.IDLT(0)
	}
	preds := []predicate.Project{project.IDLT(0)}
	if ids := s.GroupIDs(minLevel); len(ids) > 0 {
		preds = append(preds, project.NamespaceIDIn(ids...))
	}
	if ids := s.ProjectIDs(minLevel); len(ids) > 0 {
		preds = append(preds, project.IDIn(ids...))
	}
	return project.Or(preds...)
}

// VisibleGroupsIn is VisibleGroups computed from an already loaded scope.
func VisibleGroupsIn(a *Actor, s *Scope) predicate.Namespace {
	base := namespace.KindEQ(namespace.KindGroup)
	if a.IsAdmin() {
		return base
	}
	if a.IsAnonymous() || s == nil {
		return namespace.And(base, openGroups(a))
	}
	preds := []predicate.Namespace{openGroups(a)}
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
	return namespace.And(base, namespace.Or(preds...))
}
