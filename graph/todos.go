package graph

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/todo"
	"anvil/graph/model"
	"anvil/internal/service/todos"

	"entgo.io/contrib/entgql"
)

// gidTodo is the model of a to-do's global id.
const gidTodo = "Todo"

// todoTargets maps GitLab's target class names to TodoTargetEnum.
var todoTargets = map[string]model.TodoTargetEnum{
	"Commit": model.TodoTargetEnumCommit, "Issue": model.TodoTargetEnumIssue, "WorkItem": model.TodoTargetEnumWorkitem,
	"MergeRequest": model.TodoTargetEnumMergerequest, "DesignManagement::Design": model.TodoTargetEnumDesign,
	"AlertManagement::Alert": model.TodoTargetEnumAlert, "Project": model.TodoTargetEnumProject,
	"Namespace": model.TodoTargetEnumNamespace, "Epic": model.TodoTargetEnumEpic, "User": model.TodoTargetEnumUser,
}

// todoParams maps todos(...) arguments onto the REST list's filters.
func todoParams(action []todo.Action, state []todo.State, types []model.TodoTargetEnum) todos.ListParams {
	var p todos.ListParams
	for _, a := range action {
		p.Action = append(p.Action, string(a))
	}
	for _, s := range state {
		p.State = append(p.State, string(s))
	}
	for _, t := range types {
		for class, v := range todoTargets {
			if v == t {
				p.Type = append(p.Type, class)
			}
		}
	}
	if types != nil && p.Type == nil {
		p.Type = []string{} // nothing asked for that exists
	}
	return p
}

// todoConnection pages the signed-in user's to-dos, newest first; another user's to-dos are
// nobody else's business (an empty list, as GitLab's resolver answers).
func (r *Resolver) todoConnection(ctx context.Context, u *ent.User, p todos.ListParams, after, before *entgql.Cursor[int], first, last *int) (*ent.TodoConnection, error) {
	a := actor(ctx)
	if a.IsAnonymous() || a.UserID() != u.ID {
		return &ent.TodoConnection{Edges: []*ent.TodoEdge{}}, nil
	}
	if p.Type != nil && len(p.Type) == 0 {
		return &ent.TodoConnection{Edges: []*ent.TodoEdge{}}, nil
	}
	q, err := r.svc.Todos.Query(ctx, a, p)
	if err != nil {
		return nil, err
	}
	order := &ent.TodoOrder{Field: ent.DefaultTodoOrder.Field, Direction: entgql.OrderDirectionDesc}
	if err := checkCursors(orderZero(order.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return todos.Load(q).Paginate(connection(ctx), after, first, before, last, ent.WithTodoOrder(order))
}

// todoBody is the comment that mentioned the user, else the target's title.
func (r *Resolver) todoBody(ctx context.Context, t *ent.Todo) (string, error) {
	if t.Body != nil {
		return *t.Body, nil
	}
	o, err := r.svc.Todos.Target(ctx, actor(ctx), t)
	return o.Title(), err
}

// todoTargetURL is the target's web URL (with the comment's anchor for a mention in a note).
func (r *Resolver) todoTargetURL(ctx context.Context, t *ent.Todo) (*string, error) {
	o, err := r.svc.Todos.Target(ctx, actor(ctx), t)
	if err != nil {
		return nil, err
	}
	var path string
	switch {
	case o.Issue != nil:
		path = issuePath(o.Issue)
	case o.MergeRequest != nil:
		path = mergeRequestPath(o.MergeRequest)
	case o.Epic != nil:
		path = epicPath(o.Epic.Epic)
	default:
		return nil, nil
	}
	url := r.baseURL + path
	if t.NoteID != nil {
		url += "#note_" + strconv.Itoa(*t.NoteID)
	}
	return &url, nil
}

// todoTarget is the to-do's target as a Todoable, nil when the user may not read it.
func (r *Resolver) todoTarget(ctx context.Context, t *ent.Todo) (ent.Noder, error) {
	o, err := r.svc.Todos.Target(ctx, actor(ctx), t)
	switch {
	case err != nil:
		return nil, err
	case o.Issue != nil:
		return o.Issue, nil
	case o.MergeRequest != nil:
		return o.MergeRequest, nil
	case o.Epic != nil:
		return o.Epic.Epic, nil
	}
	return nil, nil
}

// todoNodes are a page's to-dos.
func todoNodes(c *ent.TodoConnection) []*ent.Todo {
	out := make([]*ent.Todo, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
