package snippets

import (
	"context"
	"strconv"
	"time"

	"anvil/ent"
	"anvil/ent/predicate"
	"anvil/ent/snippet"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"

	"entgo.io/ent/dialect/sql"
)

// Scope names a snippet list.
type Scope int

// The snippet lists.
const (
	// InProject: GET /projects/:id/snippets, the project's snippets the actor may read.
	InProject Scope = iota
	// Own: GET /snippets, the actor's snippets (personal, and of projects it may read).
	Own
	// PublicPersonal: GET /snippets/public, the public personal snippets.
	PublicPersonal
	// All: GET /snippets/all, every snippet the actor may read (all for administrators).
	All
)

// ListParams are a snippet list's parameters in GitLab's names.
type ListParams struct {
	Scope Scope
	// ProjectRef is the project of InProject (id or full path).
	ProjectRef string
	// CreatedAfter and CreatedBefore (created_after, created_before of /snippets/all) bound
	// created_at, both ends excluded as GitLab's SnippetsFinder does.
	CreatedAfter, CreatedBefore *time.Time
	// RepositoryStorage (repository_storage of /snippets/all) keeps the snippets on one
	// storage; administrators only, ignored for others as GitLab does.
	RepositoryStorage string
}

// Load asks for the edges a snippet is presented with: its author, and its project with the
// project's namespace (its web_url).
func Load(q *ent.SnippetQuery) *ent.SnippetQuery {
	return q.WithAuthor().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() })
}

// visible is the actor's visibility predicate over snippets.
func (s *Service) visible(ctx context.Context, actor *authz.Actor) (predicate.Snippet, error) {
	var scope *authz.Scope
	if !actor.IsAnonymous() && !actor.IsAdmin() {
		var err error
		if scope, err = s.policy.Scope(ctx, actor, authz.Guest); err != nil {
			return nil, err
		}
	}
	return authz.VisibleSnippetsIn(actor, scope), nil
}

// ProjectFor finds the project of a project snippet route: 404 Project Not Found when the actor
// cannot read it, then 403 when its snippets are not available to the actor (GitLab's
// check_snippets_enabled, before anything else on these routes).
func (s *Service) ProjectFor(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, authz.Level, error) {
	p, level, readable, err := s.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, 0, err
	}
	if !readable {
		return nil, 0, apperr.NotFound("Project")
	}
	if actor.IsAdmin() {
		level = authz.Admin
	}
	if !authz.FeatureAvailable(actor, p, level, authz.FeatureSnippets) {
		return nil, 0, apperr.Forbidden("")
	}
	return p, level, nil
}

// List returns one page of a snippet list, newest first (GitLab's id_desc; the public list in
// its created_at order).
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, page pagination.Offset) (pagination.Result[*ent.Snippet], error) {
	res := pagination.Result[*ent.Snippet]{Page: page}
	var where []predicate.Snippet
	switch p.Scope {
	case InProject:
		proj, _, err := s.ProjectFor(ctx, actor, p.ProjectRef)
		if err != nil {
			return res, err
		}
		if actor.IsAnonymous() {
			return res, apperr.Unauthorized()
		}
		where = append(where, snippet.ProjectID(proj.ID))
	case Own, All:
		if actor.IsAnonymous() {
			return res, apperr.Unauthorized()
		}
		if p.Scope == Own {
			where = append(where, snippet.AuthorID(actor.UserID()))
		}
		if p.CreatedAfter != nil {
			where = append(where, snippet.CreatedAtGT(*p.CreatedAfter))
		}
		if p.CreatedBefore != nil {
			where = append(where, snippet.CreatedAtLT(*p.CreatedBefore))
		}
		if p.RepositoryStorage != "" && actor.IsAdmin() {
			where = append(where, snippet.RepositoryStorage(p.RepositoryStorage))
		}
	case PublicPersonal:
		if actor.IsAnonymous() {
			return res, apperr.Unauthorized()
		}
		where = append(where, snippet.ProjectIDIsNil(), snippet.VisibilityEQ(snippet.VisibilityPublic))
	}
	vis, err := s.visible(ctx, actor)
	if err != nil {
		return res, err
	}
	q := db.ClientFrom(ctx, s.client).Snippet.Query().Where(vis).Where(where...)
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	if p.Scope == PublicPersonal {
		q = q.Order(sql.OrderByField(snippet.FieldCreatedAt, sql.OrderDesc()).ToFunc())
	}
	rows, err := Load(q.Order(ent.Desc(snippet.FieldID))).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	return res, nil
}

// ProjectQuery selects the snippets of project ref the actor may read, unordered (GraphQL
// paginates it), with ProjectFor's answers for the project.
// ids and visibility, when given, keep the snippets of those ids or that visibility.
func (s *Service) ProjectQuery(ctx context.Context, actor *authz.Actor, ref string, ids []int, visibility string) (*ent.SnippetQuery, error) {
	proj, _, err := s.ProjectFor(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	vis, err := s.visible(ctx, actor)
	if err != nil {
		return nil, err
	}
	q := db.ClientFrom(ctx, s.client).Snippet.Query().Where(vis, snippet.ProjectID(proj.ID))
	if ids != nil {
		q.Where(snippet.IDIn(ids...))
	}
	if visibility != "" {
		q.Where(snippet.VisibilityEQ(snippet.Visibility(visibility)))
	}
	return q, nil
}

// FindInProject returns snippet idText of project ref if the actor may read it: the project's
// answers of ProjectFor, then 404 Snippet Not Found. The project and the actor's level in it
// come along for the abilities of a change.
func (s *Service) FindInProject(ctx context.Context, actor *authz.Actor, ref, idText string) (*ent.Snippet, authz.Level, error) {
	proj, level, err := s.ProjectFor(ctx, actor, ref)
	if err != nil {
		return nil, 0, err
	}
	sn, err := s.findIn(ctx, actor, proj, level, idText)
	return sn, level, err
}

// findIn returns snippet idText of proj (where the actor's level is level) if the actor may
// read it, 404 Snippet Not Found otherwise.
func (s *Service) findIn(ctx context.Context, actor *authz.Actor, proj *ent.Project, level authz.Level, idText string) (*ent.Snippet, error) {
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, apperr.NotFound("Snippet")
	}
	sn, err := Load(db.ClientFrom(ctx, s.client).Snippet.Query().Where(snippet.ID(id), snippet.ProjectID(proj.ID))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Snippet")
	}
	if err != nil {
		return nil, err
	}
	sn.Edges.Project = proj
	if !authz.CanProjectSnippet(actor, proj, level, sn, authz.ReadSnippet) {
		return nil, apperr.NotFound("Snippet")
	}
	return sn, nil
}

// Find returns any snippet the actor may read by its id (GET /snippets/:id and its raw
// forms): personal snippets by their visibility, project snippets as in their project;
// 404 Snippet Not Found otherwise.
func (s *Service) Find(ctx context.Context, actor *authz.Actor, idText string) (*ent.Snippet, error) {
	sn, _, err := s.find(ctx, actor, idText, authz.ReadSnippet)
	return sn, err
}

// find returns snippet idText when the actor may read it, deciding ability too (false when
// it may not); the level is the actor's in the snippet's project (NoAccess for a personal one).
func (s *Service) find(ctx context.Context, actor *authz.Actor, idText string, ability authz.Ability) (*ent.Snippet, bool, error) {
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, false, apperr.NotFound("Snippet")
	}
	sn, err := Load(db.ClientFrom(ctx, s.client).Snippet.Query().Where(snippet.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, false, apperr.NotFound("Snippet")
	}
	if err != nil {
		return nil, false, err
	}
	if sn.ProjectID == nil {
		if !authz.CanPersonalSnippet(actor, sn, authz.ReadSnippet) {
			return nil, false, apperr.NotFound("Snippet")
		}
		return sn, authz.CanPersonalSnippet(actor, sn, ability), nil
	}
	proj := sn.Edges.Project
	if proj == nil || proj.PendingDelete {
		return nil, false, apperr.NotFound("Snippet")
	}
	level, _, err := s.policy.ProjectLevel(ctx, actor, proj)
	if err != nil {
		return nil, false, err
	}
	if !authz.CanProjectSnippet(actor, proj, level, sn, authz.ReadSnippet) {
		return nil, false, apperr.NotFound("Snippet")
	}
	return sn, authz.CanProjectSnippet(actor, proj, level, sn, ability), nil
}

// findOwn returns snippet idText when the actor wrote it and may read it (PUT and DELETE
// /snippets/:id find among the actor's own snippets: 404 Snippet Not Found for any other), and
// whether it has ability on it.
func (s *Service) findOwn(ctx context.Context, actor *authz.Actor, idText string, ability authz.Ability) (*ent.Snippet, bool, error) {
	if actor.IsAnonymous() {
		return nil, false, apperr.Unauthorized()
	}
	sn, can, err := s.find(ctx, actor, idText, ability)
	if err != nil {
		return nil, false, err
	}
	if sn.AuthorID == nil || *sn.AuthorID != actor.UserID() {
		return nil, false, apperr.NotFound("Snippet")
	}
	return sn, can, nil
}

// UserAgentDetail returns the snippet of GET .../user_agent_detail: administrators only (401
// for anonymous callers, 403 for others), any snippet by id (of project ref when given), 404
// Not found otherwise, and 404 UserAgentDetail Not Found when its creation was not recorded.
func (s *Service) UserAgentDetail(ctx context.Context, actor *authz.Actor, projectRef, idText string) (*ent.Snippet, error) {
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	if !actor.IsAdmin() {
		return nil, apperr.Forbidden("")
	}
	where := []predicate.Snippet{}
	if projectRef != "" {
		proj, _, err := s.ProjectFor(ctx, actor, projectRef)
		if err != nil {
			return nil, err
		}
		where = append(where, snippet.ProjectID(proj.ID))
	}
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, apperr.RecordNotFound()
	}
	sn, err := db.ClientFrom(ctx, s.client).Snippet.Query().Where(snippet.ID(id)).Where(where...).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, err
	}
	if sn.UserAgent == "" && sn.IPAddress == "" {
		return nil, apperr.NotFound("UserAgentDetail")
	}
	return sn, nil
}
