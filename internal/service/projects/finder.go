package projects

import (
	"context"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/ent/projectstar"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
)

// ListParams are the filters of GET /projects, GET /users/:user_id/projects and
// GET /groups/:id/projects, in GitLab's spelling. The zero value filters nothing.
type ListParams struct {
	// Search matches path, name and description (search); with SearchNamespaces also the
	// namespace's path and name (search_namespaces). Words shorter than three characters
	// only match whole values, as GitLab's fuzzy search does.
	Search           string
	SearchNamespaces bool
	// Owned keeps projects the caller owns (owned); Membership keeps projects the caller is a
	// member of, directly or through groups (membership); MinAccessLevel keeps projects where
	// the caller's level is at least this (min_access_level).
	Owned          bool
	Membership     bool
	MinAccessLevel int
	// Starred keeps the projects the caller starred (starred); anonymous callers have none.
	Starred bool
	// StarredBy keeps the projects this user starred (GET /users/:user_id/starred_projects); a
	// negative id matches nothing.
	StarredBy int
	// Imported keeps projects the caller imported (imported); none are imported.
	Imported bool
	// Visibility keeps one visibility level: private, internal or public (visibility).
	Visibility string
	// Archived keeps archived (true) or active (false) projects (archived); nil keeps both.
	Archived *bool
	// Active keeps projects that are neither archived nor marked for deletion (true), or only
	// those that are (false) (active); nil keeps both.
	Active *bool
	// IDs keeps only these projects (GraphQL's projects(ids:)).
	IDs []int
	// IDAfter and IDBefore bound the id (id_after, id_before); keyset pages use them.
	IDAfter, IDBefore *int
	// LastActivityAfter/Before bound last_activity_at (last_activity_after/before).
	LastActivityAfter, LastActivityBefore *time.Time
	// UpdatedAfter/Before bound updated_at (updated_after/before).
	UpdatedAfter, UpdatedBefore *time.Time
	// Topics keeps projects having every topic (topic).
	Topics []string
	// TopicID keeps projects with the topic of this id (topic_id); Anvil has no topic ids.
	TopicID *int
	// WithIssuesEnabled keeps projects whose issues the caller can use (with_issues_enabled);
	// WithMergeRequestsEnabled keeps projects with merge requests on (with_merge_requests_enabled).
	WithIssuesEnabled        bool
	WithMergeRequestsEnabled bool
	// WithProgrammingLanguage (with_programming_language): language detection does not exist,
	// so nothing matches.
	WithProgrammingLanguage string
	// RepositoryStorage keeps projects on one storage (repository_storage, administrators).
	RepositoryStorage string

	// UserID restricts to the personal projects of this user (GET /users/:user_id/projects).
	UserID int
	// GroupID restricts to the projects of this group (GET /groups/:id/projects); the caller
	// has already checked that the group is readable.
	GroupID int
	// IncludeSubgroups adds the projects of the group's descendants (include_subgroups).
	IncludeSubgroups bool
	// IncludeAncestorGroups adds the projects of the group's ancestors (include_ancestor_groups).
	IncludeAncestorGroups bool
	// WithShared adds projects shared with the group (with_shared).
	WithShared bool
	// SharedOnly keeps only the projects shared with the group (GET /groups/:id/projects/shared,
	// GroupDetail's shared_projects).
	SharedOnly bool
}

// Order is a project listing's order_by and sort.
type Order struct {
	// By is id, name, path, created_at (default), updated_at, last_activity_at, similarity,
	// star_count or a statistics column (order_by).
	By string
	// Sort is asc or desc (default) (sort).
	Sort string
}

// StatisticsOrders are the order_by values that sort by storage statistics, for administrators.
var StatisticsOrders = []string{"storage_size", "repository_size", "wiki_size", "packages_size"}

// Orders are the accepted order_by values.
var Orders = append([]string{"id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity", "star_count"}, StatisticsOrders...)

// Query returns the projects matching p that actor may read, unordered and unpaginated.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, p ListParams) (*ent.ProjectQuery, error) {
	scope, err := s.scope(ctx, actor)
	if err != nil {
		return nil, err
	}
	return s.query(ctx, actor, scope, p, Order{})
}

// scope loads the actor's reach once per request; administrators and anonymous callers need none.
func (s *Service) scope(ctx context.Context, actor *authz.Actor) (*authz.Scope, error) {
	if actor.IsAnonymous() {
		return nil, nil
	}
	return s.policy.Scope(ctx, actor, authz.Guest)
}

func (s *Service) query(ctx context.Context, actor *authz.Actor, scope *authz.Scope, p ListParams, o Order) (*ent.ProjectQuery, error) {
	if p.UpdatedAfter != nil || p.UpdatedBefore != nil {
		if o.By != "" && o.By != "updated_at" {
			return nil, apperr.BadRequest("`updated_at` filter and `updated_at` sorting must be paired")
		}
	}
	q := db.ClientFrom(ctx, s.client).Project.Query().
		Where(project.PendingDelete(false), authz.VisibleProjectsIn(actor, scope))
	parent, err := s.byParent(ctx, p)
	if err != nil {
		return nil, err
	}
	q = q.Where(parent...)
	q = q.Where(byMembership(actor, scope, p)...)
	q = q.Where(byAttributes(actor, p)...)
	q = q.Where(byFeatures(actor, scope, p)...)
	if p.Search != "" {
		q = q.Where(bySearch(p.Search, p.SearchNamespaces))
	}
	if o.By == "similarity" && p.Search != "" && !actor.IsAnonymous() {
		// GitLab limits similarity ordering to the caller's own projects to keep it cheap.
		q = q.Where(authz.ProjectsWithLevelIn(actor, scope, authz.Guest))
	}
	return q, nil
}

// none is a predicate no row satisfies.
func none() predicate.Project { return project.IDLT(0) }

// byParent restricts to a user's personal namespace or to a group (with its subgroups,
// ancestors and shares as asked).
func (s *Service) byParent(ctx context.Context, p ListParams) ([]predicate.Project, error) {
	var out []predicate.Project
	if p.UserID != 0 {
		out = append(out, project.HasNamespaceWith(namespace.OwnerID(p.UserID), namespace.KindEQ(namespace.KindUser)))
	}
	if p.GroupID != 0 && p.SharedOnly {
		return append(out, project.HasGroupLinksWith(projectgrouplink.GroupID(p.GroupID))), nil
	}
	if p.GroupID != 0 {
		in := []predicate.Project{project.NamespaceID(p.GroupID)}
		if p.IncludeSubgroups || p.IncludeAncestorGroups {
			g, err := db.ClientFrom(ctx, s.client).Namespace.Query().Where(namespace.ID(p.GroupID)).
				Select(namespace.FieldFullPath).Only(ctx)
			if err != nil {
				return nil, err
			}
			in = append(in, project.HasNamespaceWith(relatives(g.FullPath, p.IncludeSubgroups, p.IncludeAncestorGroups)))
		}
		if p.WithShared {
			in = append(in, project.HasGroupLinksWith(projectgrouplink.GroupID(p.GroupID)))
		}
		out = append(out, project.Or(in...))
	}
	return out, nil
}

// relatives matches the descendants and/or ancestors of the group at fullPath.
func relatives(fullPath string, descendants, ancestors bool) predicate.Namespace {
	var preds []predicate.Namespace
	if descendants {
		preds = append(preds, authz.Descendants(fullPath))
	}
	if ancestors {
		preds = append(preds, namespace.FullPathIn(authz.Ancestors(fullPath)...))
	}
	return namespace.Or(preds...)
}

// byMembership applies owned, membership, min_access_level, starred and imported.
func byMembership(actor *authz.Actor, scope *authz.Scope, p ListParams) []predicate.Project {
	var out []predicate.Project
	if p.Owned {
		out = append(out, authz.ProjectsWithLevelIn(actor, scope, authz.Owner))
	}
	if p.Membership {
		out = append(out, authz.ProjectsWithLevelIn(actor, scope, authz.Guest))
	}
	if p.MinAccessLevel > 0 {
		out = append(out, authz.ProjectsWithLevelIn(actor, scope, authz.Level(p.MinAccessLevel)))
	}
	if p.Starred {
		out = append(out, starredBy(actor.UserID()))
	}
	if p.StarredBy != 0 {
		out = append(out, starredBy(p.StarredBy))
	}
	if p.Imported || p.WithProgrammingLanguage != "" || p.TopicID != nil {
		out = append(out, none())
	}
	return out
}

// starredBy keeps the projects userID starred (none for 0, an anonymous caller, or below).
func starredBy(userID int) predicate.Project {
	if userID <= 0 {
		return none()
	}
	return predicate.Project(db.In(project.FieldID, projectstar.Table, projectstar.FieldProjectID, projectstar.UserID(userID)))
}

// byAttributes applies the filters on the project's own columns.
func byAttributes(actor *authz.Actor, p ListParams) []predicate.Project {
	var out []predicate.Project
	if p.Visibility != "" {
		out = append(out, project.VisibilityEQ(project.Visibility(p.Visibility)))
	}
	if p.Archived != nil {
		out = append(out, project.Archived(*p.Archived))
	}
	if p.Active != nil {
		out = append(out, project.Archived(!*p.Active))
	}
	if len(p.IDs) > 0 {
		out = append(out, project.IDIn(p.IDs...))
	}
	if p.IDAfter != nil {
		out = append(out, project.IDGT(*p.IDAfter))
	}
	if p.IDBefore != nil {
		out = append(out, project.IDLT(*p.IDBefore))
	}
	if p.LastActivityAfter != nil {
		out = append(out, project.LastActivityAtGT(*p.LastActivityAfter))
	}
	if p.LastActivityBefore != nil {
		out = append(out, project.LastActivityAtLT(*p.LastActivityBefore))
	}
	if p.UpdatedAfter != nil {
		out = append(out, project.UpdatedAtGTE(*p.UpdatedAfter))
	}
	if p.UpdatedBefore != nil {
		out = append(out, project.UpdatedAtLTE(*p.UpdatedBefore))
	}
	for _, t := range p.Topics {
		if t = strings.TrimSpace(t); t != "" {
			topic := t
			out = append(out, func(s *sql.Selector) { s.Where(sqljson.ValueContains(s.C(project.FieldTopics), topic)) })
		}
	}
	if p.RepositoryStorage != "" && actor.IsAdmin() {
		out = append(out, project.RepositoryStorage(p.RepositoryStorage))
	}
	return out
}

// byFeatures applies with_issues_enabled and with_merge_requests_enabled: the projects whose
// feature is available to the actor.
func byFeatures(actor *authz.Actor, scope *authz.Scope, p ListParams) []predicate.Project {
	var out []predicate.Project
	if p.WithIssuesEnabled {
		out = append(out, authz.FeatureAvailableIn(actor, scope, authz.FeatureIssues))
	}
	if p.WithMergeRequestsEnabled {
		out = append(out, authz.FeatureAvailableIn(actor, scope, authz.FeatureMergeRequests))
	}
	return out
}

// bySearch is GitLab's fuzzy search over path, name and description (and the namespace's path
// and name with searchNamespaces): every word of three or more characters must match one
// column, case-insensitively; a query without such words must equal a path or name.
func bySearch(query string, searchNamespaces bool) predicate.Project {
	query = strings.Join(strings.Fields(query), " ")
	var words []string
	for _, w := range strings.Fields(query) {
		if len([]rune(w)) >= 3 {
			words = append(words, w)
		}
	}
	columns := []func(string, bool) predicate.Project{
		func(w string, exact bool) predicate.Project {
			if exact {
				return project.PathEqualFold(w)
			}
			return predicate.Project(db.ContainsFold(project.FieldPath, w))
		},
		func(w string, exact bool) predicate.Project {
			if exact {
				return project.NameEqualFold(w)
			}
			return predicate.Project(db.ContainsFold(project.FieldName, w))
		},
	}
	if len(words) > 0 {
		columns = append(columns, func(w string, _ bool) predicate.Project {
			return predicate.Project(db.ContainsFold(project.FieldDescription, w))
		})
	}
	if searchNamespaces {
		columns = append(columns, func(w string, exact bool) predicate.Project {
			if exact {
				return project.HasNamespaceWith(namespace.Or(namespace.FullPathEqualFold(w), namespace.NameEqualFold(w)))
			}
			return project.HasNamespaceWith(namespace.Or(db.ContainsFold(namespace.FieldFullPath, w), db.ContainsFold(namespace.FieldName, w)))
		})
	}
	var any []predicate.Project
	for _, col := range columns {
		if len(words) == 0 {
			any = append(any, col(query, true))
			continue
		}
		all := make([]predicate.Project, 0, len(words))
		for _, w := range words {
			all = append(all, col(w, false))
		}
		any = append(any, project.And(all...))
	}
	return project.Or(any...)
}
