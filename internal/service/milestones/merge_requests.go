package milestones

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/filter"
	"anvil/internal/pagination"
	"anvil/internal/service/mergerequests"
)

// MergeRequests lists the merge requests of a milestone the actor may read: a project
// milestone's in the project, a group milestone's in the group's own projects (not its
// subgroups'), by label priority as GitLab's milestone API asks its finder.
func (s *Service) MergeRequests(ctx context.Context, actor *authz.Actor, o Owner, id string, page pagination.Offset) (pagination.Result[*ent.MergeRequest], error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadMilestone)
	if err != nil {
		return pagination.Result[*ent.MergeRequest]{Page: page}, err
	}
	m, err := s.find(ctx, own, id)
	if err != nil {
		return pagination.Result[*ent.MergeRequest]{Page: page}, err
	}
	parent := mergerequests.Parent{HideForbidden: true}
	if own.group != nil {
		parent.GroupRef, parent.WithoutSubgroups = strconv.Itoa(own.group.ID), true
	} else {
		parent.ProjectRef = strconv.Itoa(own.project.ID)
	}
	return s.mrs.List(ctx, actor, parent, mergerequests.ListParams{MilestoneID: filter.Field[int]{Is: filter.Of(m.ID)}},
		mergerequests.Order{By: "label_priority"}, page)
}
