package mergerequests

import (
	"context"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
)

// Pipeline is a merge request pipeline (list form). None exist yet: there is no CI.
type Pipeline struct {
	ID     int
	SHA    string
	Ref    string
	Status string
}

// Pipelines lists the pipelines of the merge request iid of project ref (GET .../pipelines):
// read_pipeline on the project (403 otherwise). There is no CI yet, so the list is empty.
func (s *Service) Pipelines(ctx context.Context, actor *authz.Actor, ref, iid string, page pagination.Offset) (pagination.Result[*Pipeline], error) {
	res := pagination.Result[*Pipeline]{Page: page, Items: []*Pipeline{}}
	if _, err := s.pipelineAccess(ctx, actor, ref, iid, authz.ReadPipeline); err != nil {
		return res, err
	}
	return res, nil
}

// CreatePipeline is POST .../pipelines (create_pipeline: Developer+, 403 otherwise). With no CI
// configuration anywhere the pipeline is never saved: GitLab's validation error, 400
// {"message":{"base":["Missing CI config file"]}}.
func (s *Service) CreatePipeline(ctx context.Context, actor *authz.Actor, ref, iid string) (*Pipeline, error) {
	if _, err := s.pipelineAccess(ctx, actor, ref, iid, authz.CreatePipeline); err != nil {
		return nil, err
	}
	return nil, apperr.FieldError("base", "Missing CI config file")
}

// pipelineAccess finds the merge request and checks the pipeline ability on its project.
func (s *Service) pipelineAccess(ctx context.Context, actor *authz.Actor, ref, iid string, ability authz.Ability) (authz.Level, error) {
	mr, level, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return 0, err
	}
	if !authz.CanProject(actor, mr.Edges.Project, level, ability) {
		if actor.IsAnonymous() {
			return 0, apperr.Unauthorized()
		}
		return 0, apperr.Forbidden("")
	}
	return level, nil
}
