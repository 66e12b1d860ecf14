// Package milestones holds project and group milestones: the lists with GitLab's filters
// (MilestonesFinder), reading, creating, updating (state_event close/activate) and deleting
// them, and a milestone's issues and merge requests.
package milestones

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/milestone"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/groups"
	"anvil/internal/service/issues"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/projects"
	"anvil/internal/service/wire"
)

// Service is the milestone service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	groups   *groups.Service
	issues   *issues.Service
	mrs      *mergerequests.Service
}

// New returns the milestone service.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, g *groups.Service, is *issues.Service, mrs *mergerequests.Service) *Service {
	wire.Require("milestones", wire.D("client", client), wire.D("policy", policy), wire.D("projects", p),
		wire.D("groups", g), wire.D("issues", is), wire.D("merge requests", mrs))
	return &Service{client: client, policy: policy, projects: p, groups: g, issues: is, mrs: mrs}
}

// Owner names the project or the group whose milestones an operation addresses.
type Owner struct {
	Group bool
	Ref   string
}

// owner is a resolved Owner.
type owner struct {
	project *ent.Project   // a project's milestones
	group   *ent.Namespace // a group's milestones
}

// FullPath is the owner's full path (web URLs).
func (o owner) FullPath() string {
	if o.group != nil {
		return o.group.FullPath
	}
	return projects.FullPath(o.project)
}

// resolve finds the owner if the actor has ability there (404 for an owner it cannot see).
func (s *Service) resolve(ctx context.Context, actor *authz.Actor, o Owner, ability authz.Ability) (owner, error) {
	if o.Group {
		g, err := s.groups.Find(ctx, actor, o.Ref, ability)
		return owner{group: g}, err
	}
	p, err := s.projects.Find(ctx, actor, o.Ref, ability)
	return owner{project: p}, err
}

// Get returns the milestone id of the owner: 404 Not found when the owner has no such
// milestone (GitLab's parent.milestones.find).
func (s *Service) Get(ctx context.Context, actor *authz.Actor, o Owner, id string) (*ent.Milestone, string, error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadMilestone)
	if err != nil {
		return nil, "", err
	}
	m, err := s.find(ctx, own, id)
	return m, own.FullPath(), err
}

// find reads the owner's milestone id.
func (s *Service) find(ctx context.Context, own owner, id string) (*ent.Milestone, error) {
	n, err := strconv.Atoi(id)
	if err != nil {
		return nil, apperr.Invalid("milestone_id")
	}
	q := db.ClientFrom(ctx, s.client).Milestone.Query().Where(milestone.ID(n))
	if own.group != nil {
		q = q.Where(milestone.GroupID(own.group.ID))
	} else {
		q = q.Where(milestone.ProjectID(own.project.ID))
	}
	m, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return m, err
}
