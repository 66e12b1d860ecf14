package events

import (
	"context"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
)

// KeysetUnavailableMessage is GitLab's refusal of a keyset page of events (its events API
// pages by offset only).
const KeysetUnavailableMessage = "Keyset pagination is not yet available for this type of request"

// List lists the events under p's parent that the caller may see, in o's order, one offset
// page: a user's (p.User), a project's (p.Project), else the caller's own (or with scope=all
// those of the caller's projects).
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Page) (pagination.Result[*ent.Event], error) {
	if page.Keyset {
		return pagination.Result[*ent.Event]{}, apperr.NotAllowed(KeysetUnavailableMessage)
	}
	switch {
	case p.User != "":
		return s.listUser(ctx, actor, p, o, page.Offset)
	case p.Project != "":
		return s.listProject(ctx, actor, p, o, page.Offset)
	}
	return s.listOwn(ctx, actor, p, o, page.Offset)
}

// listOwn lists the caller's own events (GET /events), or with scope=all every event of the
// projects the caller is a member of; either way only what the caller may see. Anonymous
// callers get 401.
func (s *Service) listOwn(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Offset) (pagination.Result[*ent.Event], error) {
	if actor.IsAnonymous() {
		return pagination.Result[*ent.Event]{}, apperr.Unauthorized()
	}
	scope, err := s.policy.Scope(ctx, actor, authz.Guest)
	if err != nil {
		return pagination.Result[*ent.Event]{}, err
	}
	own := event.AuthorID(actor.User.ID)
	if p.Scope == "all" {
		own = inProjects(authz.ProjectsWithLevelIn(actor, scope, authz.Guest))
	}
	return s.page(ctx, s.query(ctx, p, own, visibleTo(actor, scope)), o, page)
}

// listUser lists the contribution events of the user p.User (id or username; GET
// /users/:id/events) that the caller may see: 404 User Not Found for a user the caller cannot
// see, and no events for a private profile unless the caller is the user or an administrator.
func (s *Service) listUser(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Offset) (pagination.Result[*ent.Event], error) {
	u, err := s.users.FindRef(ctx, actor, p.User)
	if err != nil {
		return pagination.Result[*ent.Event]{}, err
	}
	if !authz.CanUser(actor, u, authz.ReadUserProfile) {
		return pagination.Result[*ent.Event]{Items: []*ent.Event{}, Page: page}, nil
	}
	scope, err := s.policy.Scope(ctx, actor, authz.Guest)
	if err != nil {
		return pagination.Result[*ent.Event]{}, err
	}
	return s.page(ctx, s.query(ctx, p, event.AuthorID(u.ID), visibleTo(actor, scope)), o, page)
}

// listProject lists the events of the project p.Project (GET /projects/:id/events) that the
// caller may see: 404 Project Not Found for a project the caller cannot read.
func (s *Service) listProject(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Offset) (pagination.Result[*ent.Event], error) {
	proj, level, readable, err := s.projects.LookupLevel(ctx, actor, p.Project)
	if err != nil {
		return pagination.Result[*ent.Event]{}, err
	}
	if err := authz.Check(actor, proj, level, readable, authz.ReadProject); err != nil {
		return pagination.Result[*ent.Event]{}, err
	}
	// The same rule as every feed (visibleTo), here for one project: pushes only for callers
	// who may read its code.
	scope, err := s.policy.Scope(ctx, actor, authz.Guest)
	if err != nil {
		return pagination.Result[*ent.Event]{}, err
	}
	return s.page(ctx, s.query(ctx, p, event.ProjectID(proj.ID), visibleTo(actor, scope)), o, page)
}

// page counts (up to GitLab's bound), orders by creation (the id, which grows with it) and
// reads one page with the authors and push payloads the presentation needs.
func (s *Service) page(ctx context.Context, q *ent.EventQuery, o Order, page pagination.Offset) (pagination.Result[*ent.Event], error) {
	var r pagination.Result[*ent.Event]
	if o.Sort != "" && o.Sort != "asc" && o.Sort != "desc" {
		return r, apperr.NotAllowedValue("sort")
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return r, err
	}
	if o.Sort == "asc" {
		q.Order(ent.Asc(event.FieldID))
	} else {
		q.Order(ent.Desc(event.FieldID))
	}
	rows, err := q.WithAuthor().WithPushData().Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return r, err
	}
	return pagination.Result[*ent.Event]{Items: rows, Total: pagination.BoundedTotal(n), Page: page}, nil
}

// ActionName is GitLab's action_name of e: a push's ("pushed new", "deleted", "pushed to"),
// "accepted" for a merge, "commented on", "removed due to membership expiration from", and
// "opened" for created targets other than a project.
func ActionName(e *ent.Event) string {
	if e.TargetType != nil && *e.TargetType == TargetDesign {
		switch e.Action {
		case event.ActionCreated:
			return "uploaded"
		case event.ActionUpdated:
			return "revised"
		case event.ActionDestroyed:
			return "deleted"
		}
	}
	switch e.Action {
	case event.ActionPushed:
		if pd := e.Edges.PushData; pd != nil {
			switch pd.Action {
			case "created":
				return "pushed new"
			case "removed":
				return "deleted"
			}
		}
		return "pushed to"
	case event.ActionMerged:
		return "accepted"
	case event.ActionExpired:
		return "removed due to membership expiration from"
	case event.ActionCommented:
		return "commented on"
	case event.ActionCreated:
		switch {
		case e.TargetType == nil:
			return "created" // a project's creation; "imported" once imports exist
		case *e.TargetType == TargetWikiPage:
			return "created"
		}
		return "opened"
	case event.ActionUpdated:
		if e.TargetType != nil && *e.TargetType == TargetWikiPage {
			return "updated"
		}
		return "opened"
	case event.ActionReopened:
		return "opened"
	}
	return string(e.Action)
}

// TargetIID is the target's iid, or its id for kinds without one (GitLab's target_iid).
func TargetIID(e *ent.Event) *int {
	if e.TargetIid != nil {
		return e.TargetIid
	}
	return e.TargetID
}
