package members

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Kind says whether a membership source is a group or a project.
type Kind int

// The two kinds of membership source.
const (
	GroupKind Kind = iota + 1
	ProjectKind
)

// Ref names a membership source as the API does: its kind plus the numeric id or full path
// (already URL-decoded).
type Ref struct {
	Kind Kind
	ID   string
}

// GroupRef names a group by id or full path.
func GroupRef(id string) Ref { return Ref{Kind: GroupKind, ID: id} }

// ProjectRef names a project by id or full path.
func ProjectRef(id string) Ref { return Ref{Kind: ProjectKind, ID: id} }

// Source is a resolved group or project whose members are listed or changed.
type Source struct {
	Kind Kind
	// Group is the group for group sources.
	Group *ent.Namespace
	// Project is the project for project sources, with its namespace loaded.
	Project *ent.Project
}

// Namespace is the namespace the source's inheritance starts from: the group itself, or the
// project's namespace.
func (s *Source) Namespace() *ent.Namespace {
	if s.Kind == GroupKind {
		return s.Group
	}
	return s.Project.Edges.Namespace
}

// ID is the group or project id.
func (s *Source) ID() int {
	if s.Kind == GroupKind {
		return s.Group.ID
	}
	return s.Project.ID
}

// direct is the predicate for membership rows held directly on the source.
func (s *Source) direct() predicate.Member {
	if s.Kind == GroupKind {
		return member.NamespaceID(s.Group.ID)
	}
	return member.ProjectID(s.Project.ID)
}

// resolve finds the source the actor may read: 404 Group/Project Not Found otherwise. Member
// abilities beyond reading the source are checked by each operation.
func (s *Service) resolve(ctx context.Context, actor *authz.Actor, ref Ref, readMembers bool) (*Source, error) {
	if ref.Kind == GroupKind {
		ability := authz.ReadGroup
		if readMembers {
			ability = authz.ReadGroupMember
		}
		ns, err := s.groups.Find(ctx, actor, ref.ID, ability)
		if err != nil {
			return nil, err
		}
		return &Source{Kind: GroupKind, Group: ns}, nil
	}
	ability := authz.ReadProject
	if readMembers {
		ability = authz.ReadProjectMember
	}
	p, err := s.projects.Find(ctx, actor, ref.ID, ability)
	if err != nil {
		return nil, err
	}
	if p.Edges.Namespace == nil {
		ns, err := db.ClientFrom(ctx, s.client).Namespace.Get(ctx, p.NamespaceID)
		if err != nil {
			return nil, err
		}
		p.Edges.Namespace = ns
	}
	return &Source{Kind: ProjectKind, Project: p}, nil
}

// can checks a member ability on the source: nil, or 403 Forbidden.
func (s *Service) can(ctx context.Context, actor *authz.Actor, src *Source, group, project authz.Ability) error {
	if src.Kind == GroupKind {
		return s.policy.Group(ctx, actor, src.Group, group)
	}
	return s.policy.Project(ctx, actor, src.Project, project)
}

// allowed is can as a boolean, for rules that answer differently from 403.
func (s *Service) allowed(ctx context.Context, actor *authz.Actor, src *Source, group, project authz.Ability) (bool, error) {
	err := s.can(ctx, actor, src, group, project)
	if err == nil {
		return true, nil
	}
	if isDenied(err) {
		return false, nil
	}
	return false, err
}

// canAdminMembers reports whether the actor manages the source's members.
func (s *Service) canAdminMembers(ctx context.Context, actor *authz.Actor, src *Source) (bool, error) {
	return s.allowed(ctx, actor, src, authz.AdminGroupMember, authz.AdminProjectMember)
}

// ancestors returns ns and its ancestors, top-level first.
func (s *Service) ancestors(ctx context.Context, ns *ent.Namespace) ([]*ent.Namespace, error) {
	if ns.ParentID == nil {
		return []*ent.Namespace{ns}, nil
	}
	rows, err := db.ClientFrom(ctx, s.client).Namespace.Query().
		Where(namespace.FullPathIn(authz.Ancestors(ns.FullPath)...)).All(ctx)
	if err != nil {
		return nil, err
	}
	sortByDepth(rows)
	return rows, nil
}

// hierarchy returns the ids of a group and all its descendants.
func (s *Service) hierarchy(ctx context.Context, root *ent.Namespace) ([]int, error) {
	return db.ClientFrom(ctx, s.client).Namespace.Query().
		Where(authz.Subtree(root.FullPath)).IDs(ctx)
}

// fullName is GitLab's full_name of a namespace: the names from the top-level group down,
// joined by " / ". chain is ns and its ancestors.
func fullName(chain []*ent.Namespace) string {
	names := make([]string, 0, len(chain))
	for _, n := range chain {
		names = append(names, n.Name)
	}
	return strings.Join(names, " / ")
}

func sortByDepth(rows []*ent.Namespace) {
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && strings.Count(rows[j].FullPath, "/") < strings.Count(rows[j-1].FullPath, "/"); j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}
