package todos

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/epics"
)

// TargetObject is what one to-do is about, loaded as the list's View loads it (the same
// readers), for GraphQL's per-item fields: exactly one of Issue, MergeRequest and Epic is set,
// or none when the target is gone, hidden from the reader, or of a type not kept here.
type TargetObject struct {
	Issue        *ent.Issue        // issues.Load's edges
	MergeRequest *ent.MergeRequest // mergerequests.Load's edges
	Epic         *epics.View       // epics.Load's edges (its group)
}

// Title is the target's title ("" for none): a to-do's body when no comment made it.
func (o TargetObject) Title() string {
	switch {
	case o.Issue != nil:
		return o.Issue.Title
	case o.MergeRequest != nil:
		return o.MergeRequest.Title
	case o.Epic != nil:
		return o.Epic.Epic.Title
	}
	return ""
}

// Target is the object the actor's to-do t is about, as the actor may read it (the rules the
// list filters with: the issue finder's, read_merge_request in the project, the epic service's).
func (s *Service) Target(ctx context.Context, actor *authz.Actor, t *ent.Todo) (TargetObject, error) {
	var out TargetObject
	if actor.IsAnonymous() || t.UserID != actor.UserID() {
		return out, nil
	}
	switch t.TargetType {
	case TargetIssue:
		is, err := s.TargetIssue(ctx, actor, t)
		out.Issue = is
		return out, err
	case TargetMergeRequest:
		mrs, err := loadMergeRequests(ctx, db.ClientFrom(ctx, s.client), []int{t.TargetID})
		mr := mrs[t.TargetID]
		if err != nil || mr == nil {
			return out, err
		}
		ok, err := s.recorder.MergeRequestTarget(mr).Readable(ctx, actor.User)
		if ok {
			out.MergeRequest = mr
		}
		return out, err
	case TargetEpic:
		readable, err := s.epics.Readable(ctx, actor, []int{t.TargetID})
		if err != nil || len(readable) == 0 {
			return out, err
		}
		vs, err := s.epics.Views(ctx, readable)
		if v, ok := vs[t.TargetID]; ok {
			out.Epic = &v
		}
		return out, err
	}
	return out, nil
}
