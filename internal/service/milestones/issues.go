package milestones

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/filter"
	"anvil/internal/pagination"
	"anvil/internal/service/issues"
)

// Issues lists the issues of a milestone the actor may read: a project milestone's in the
// project, a group milestone's in the group's own projects (not its subgroups'), as GitLab.
func (s *Service) Issues(ctx context.Context, actor *authz.Actor, o Owner, id string, page pagination.Offset) (pagination.Result[*ent.Issue], error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadMilestone)
	if err != nil {
		return pagination.Result[*ent.Issue]{Page: page}, err
	}
	m, err := s.find(ctx, own, id)
	if err != nil {
		return pagination.Result[*ent.Issue]{Page: page}, err
	}
	parent := issues.Parent{ProjectRef: o.Ref}
	if own.group != nil {
		parent = issues.Parent{GroupRef: strconv.Itoa(own.group.ID), WithoutSubgroups: true}
	} else {
		parent.ProjectRef = strconv.Itoa(own.project.ID)
	}
	return s.issues.List(ctx, actor, parent, issues.ListParams{MilestoneID: filter.Field[int]{Is: filter.Of(m.ID)}},
		issues.Order{By: "created_at"}, page)
}
