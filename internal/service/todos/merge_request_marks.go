package todos

import (
	"context"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/predicate"
	"anvil/ent/todo"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"

	"entgo.io/ent/dialect/sql"
)

// MergeRequestReader finds the merge requests an actor may read (the merge request service).
type MergeRequestReader interface {
	Find(ctx context.Context, actor *authz.Actor, ref, iidText string, ability authz.Ability) (*ent.MergeRequest, authz.Level, error)
}

// MarkMergeRequest adds a "marked" to-do on the merge request iid of project ref for the caller
// (POST /projects/:id/merge_requests/:merge_request_iid/todo), as MarkIssue does for issues:
// created is false when the caller already has a pending to-do on it (GitLab's 304).
func (s *Service) MarkMergeRequest(ctx context.Context, actor *authz.Actor, ref, iid string) (t *ent.Todo, v *View, created bool, err error) {
	if actor.IsAnonymous() {
		return nil, nil, false, apperr.Unauthorized()
	}
	mr, _, err := s.mrs.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, nil, false, err
	}
	id, err := s.mark(ctx, actor, TargetMergeRequest, mr.ID, mr.ProjectID)
	if err != nil || id == 0 {
		return nil, nil, false, err
	}
	t, v, err = s.one(ctx, id)
	return t, v, err == nil, err
}

// mark adds the caller's "marked" to-do on a target unless one is pending; the new to-do's id,
// 0 when none was added.
func (s *Service) mark(ctx context.Context, actor *authz.Actor, targetType string, targetID, projectID int) (int, error) {
	var id int
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		pending, err := c.Todo.Query().Where(todo.UserID(actor.UserID()), todo.TargetType(targetType),
			todo.TargetID(targetID), todo.StateEQ(todo.StatePending)).Exist(ctx)
		if err != nil || pending {
			return err
		}
		row, err := c.Todo.Create().SetUserID(actor.UserID()).SetAuthorID(actor.UserID()).SetProjectID(projectID).
			SetTargetType(targetType).SetTargetID(targetID).SetAction(todo.ActionMarked).Save(ctx)
		if err != nil {
			return err
		}
		id = row.ID
		return nil
	})
	return id, err
}

// readableMergeRequests keeps the merge request to-dos whose merge request the caller may read:
// in a project where the merge requests feature is available to it.
func (s *Service) readableMergeRequests(ctx context.Context, actor *authz.Actor) (predicate.Todo, error) {
	if actor.IsAdmin() {
		return todo.IDGT(0), nil
	}
	scope, err := s.recorder.policy.Scope(ctx, actor, authz.Guest)
	if err != nil {
		return nil, err
	}
	available := authz.FeatureAvailableIn(actor, scope, authz.FeatureMergeRequests)
	inProjects := mergerequest.HasProjectWith(available)
	return predicate.Todo(db.In(todo.FieldTargetID, mergerequest.Table, mergerequest.FieldID,
		func(s *sql.Selector) { inProjects(s) })), nil
}

// loadMergeRequests reads the merge requests of ids for the presenter (mergerequests.Load).
func loadMergeRequests(ctx context.Context, c *ent.Client, ids []int) (map[int]*ent.MergeRequest, error) {
	out := map[int]*ent.MergeRequest{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := mergerequests.Load(c.MergeRequest.Query().Where(mergerequest.IDIn(ids...))).All(ctx)
	for _, mr := range list {
		out[mr.ID] = mr
	}
	return out, err
}
