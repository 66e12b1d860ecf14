// Package epics holds a group's epics (GitLab Premium's, on in every tier here): the list with
// GitLab's EpicsFinder filters over the group and its subgroups, reading, creating, updating
// (state_event, labels, dates, parent) and deleting epics, the epic tree (child epics, with
// cycles and depth refused as GitLab refuses them), an epic's issues, and the epics' dates
// (fixed, or inherited from the milestones of their issues).
package epics

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/epic"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/groups"
	"anvil/internal/service/issues"
	"anvil/internal/service/notes"
	"anvil/internal/service/wire"
)

// MaxDepth is the deepest an epic tree may be, counting the root (GitLab's MAX_HIERARCHY_DEPTH).
const MaxDepth = 7

// Service is the epic service.
type Service struct {
	client *ent.Client
	policy *authz.Policy
	groups *groups.Service
	issues *issues.Service
	notes  *notes.Service
	obs    observers
}

// New returns the epic service; its notes are the notes domain's (an epic's go with it).
func New(client *ent.Client, policy *authz.Policy, g *groups.Service, is *issues.Service, nt *notes.Service) *Service {
	wire.Require("epics", wire.D("client", client), wire.D("policy", policy), wire.D("groups", g),
		wire.D("issues", is), wire.D("notes", nt))
	return &Service{client: client, policy: policy, groups: g, issues: is, notes: nt}
}

// Group is a group the actor addresses with the actor's level there (the request's group,
// GitLab's user_group).
type Group struct {
	*ent.Namespace
	Level authz.Level
}

// Can reports whether the actor may do ability in the group.
func (g Group) Can(actor *authz.Actor, ability authz.Ability) bool {
	return authz.CanGroup(actor, g.Namespace, g.Level, ability)
}

// group finds the group ref if the actor may read it (404 otherwise) and do ability there
// (403, or 401 for anonymous callers).
func (s *Service) group(ctx context.Context, actor *authz.Actor, ref string, ability authz.Ability) (Group, error) {
	ns, err := s.groups.Find(ctx, actor, ref, authz.ReadGroup)
	if err != nil {
		return Group{}, err
	}
	level, _, err := s.policy.GroupLevel(ctx, actor, ns)
	if err != nil {
		return Group{}, err
	}
	g := Group{Namespace: ns, Level: level}
	if ability != authz.ReadGroup && !g.Can(actor, ability) {
		if actor.IsAnonymous() {
			return g, apperr.Unauthorized()
		}
		return g, apperr.Forbidden("")
	}
	return g, nil
}

// View is an epic with what presenting it needs beyond its edges: the group the request
// addressed (references are relative to it).
type View struct {
	Epic  *ent.Epic
	Group *ent.Namespace
	// Dates are the epic's start and due dates, fixed or inherited.
	Dates Dates
}

// Load asks for the edges an epic is presented with, and its votes.
func Load(q *ent.EpicQuery) *ent.EpicQuery {
	return withVotes(q).WithAuthor().WithGroup().WithParent(func(pq *ent.EpicQuery) { pq.WithGroup() }).
		WithLabelLinks(func(lq *ent.EpicLabelQuery) { lq.WithLabel() })
}

// Get returns the epic iid of group ref (read_epic; a confidential epic only for those who read
// confidential epics: 404 for others).
func (s *Service) Get(ctx context.Context, actor *authz.Actor, ref, iid string) (View, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return View{}, err
	}
	e, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, g.Namespace, e)
}

// find reads the epic iid of g that the actor may read, with Load's edges.
func (s *Service) find(ctx context.Context, actor *authz.Actor, g Group, iidText string) (*ent.Epic, error) {
	n, err := strconv.Atoi(iidText)
	if err != nil {
		return nil, apperr.Invalid("epic_iid")
	}
	e, err := Load(db.ClientFrom(ctx, s.client).Epic.Query().Where(epic.GroupID(g.ID), epic.Iid(n))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Epic")
	}
	if err != nil {
		return nil, err
	}
	if e.Confidential && !g.Can(actor, authz.ReadConfidentialEpic) {
		return nil, apperr.NotFound("Epic")
	}
	return e, nil
}

// view wraps an epic for presenting from group g.
func (s *Service) view(ctx context.Context, g *ent.Namespace, e *ent.Epic) (View, error) {
	ds, err := s.dates(ctx, []*ent.Epic{e})
	if err != nil {
		return View{}, err
	}
	return View{Epic: e, Group: g, Dates: ds[e.ID]}, nil
}

// reload reads an epic again with Load's edges and wraps it.
func (s *Service) reload(ctx context.Context, g *ent.Namespace, id int) (View, error) {
	e, err := Load(db.ClientFrom(ctx, s.client).Epic.Query().Where(epic.ID(id))).Only(ctx)
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, g, e)
}

// DefaultColor is GitLab's color of an epic created without one.
const DefaultColor = "#1068bf"
