package graph

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
	"anvil/internal/service/commits"

	"github.com/99designs/gqlgen/graphql"
)

// repositoryOf opens a project's repository for the caller: the same check as every REST
// repository route (repos.Open with download_code). GitLab's Repository type is authorized with
// read_code, so a caller who may not read the code (a Guest of a private project, a disabled
// repository feature) gets null rather than an error.
func (r *Resolver) repositoryOf(ctx context.Context, p *ent.Project) (*model.Repository, error) {
	proj, _, err := r.svc.Repos.Open(ctx, actor(ctx), strconv.Itoa(p.ID), authz.DownloadCode)
	if err != nil {
		if hidden(err) {
			return nil, nil
		}
		return nil, err
	}
	fullPath, err := projectFullPath(ctx, proj)
	if err != nil {
		return nil, err
	}
	return &model.Repository{Project: proj, FullPath: fullPath}, nil
}

// hidden reports whether err denies the caller something it may not see or do: GraphQL shows
// such fields as null.
func hidden(err error) bool {
	e, ok := apperr.As(err)
	return ok && (e.Kind == apperr.KindNotFound || e.Kind == apperr.KindForbidden || e.Kind == apperr.KindUnauthorized)
}

// isClientError reports whether err is an application error (always about the request), as
// opposed to a failure.
func isClientError(err error) bool {
	_, ok := apperr.As(err)
	return ok
}

// repoRef names a repository's project for the services.
func repoRef(repo *model.Repository) string { return strconv.Itoa(repo.Project.ID) }

// rootRef is the default branch: the branch HEAD names, null when there is no repository.
func (r *Resolver) rootRef(ctx context.Context, repo *model.Repository) (*string, error) {
	head, ok, err := r.svc.Repos.RootRef(ctx, repo.Project)
	if err != nil || !ok {
		return nil, err
	}
	return &head, nil
}

// qualifiedRef is the revision a ref argument names: with refType, the full ref name
// (refs/heads/<ref> or refs/tags/<ref>), so that a branch and a tag of the same name are told
// apart; "" when no ref was given.
func qualifiedRef(ref *string, refType *model.RefType) string {
	if ref == nil || *ref == "" {
		return ""
	}
	switch {
	case refType == nil:
		return *ref
	case *refType == model.RefTypeHeads:
		return git.BranchRef(*ref)
	default:
		return git.TagRef(*ref)
	}
}

// branchNames is GitLab's branchNames: the branch names matching a glob pattern, in name
// order, offset and limit applied (branches.Service.Names); null for an empty pattern.
func (r *Resolver) branchNames(ctx context.Context, repo *model.Repository, pattern string, offset, limit int) ([]string, error) {
	if pattern == "" {
		return nil, nil
	}
	if offset < 0 || limit < 0 {
		return nil, badInput("offset and limit must be non-negative")
	}
	if !r.svc.Repos.Exists(repo.Project) {
		return []string{}, nil
	}
	return r.svc.Branches.Names(ctx, actor(ctx), repoRef(repo), pattern, offset, limit)
}

// commit is Repository.commit(ref:): the commit a SHA, branch or tag names, null when it names
// none.
func (r *Resolver) commit(ctx context.Context, repo *model.Repository, ref string) (*model.Commit, error) {
	d, err := orNull(r.svc.Commits.Get(ctx, actor(ctx), repoRef(repo), ref, false))
	if d == nil {
		return nil, err
	}
	return r.commitOf(repo, d.Commit), nil
}

// commits is Repository.commits: the commits of a ref, newest first, through the commit
// service's listing (GET .../repository/commits). The service pages by offset; cursors are list
// positions, and each page reads the commits before it again, as git log --skip does.
func (r *Resolver) commitList(ctx context.Context, repo *model.Repository, p commits.ListParams, first *int, after *ent.Cursor) (*model.CommitConnection, error) {
	w, err := arrayWindow(1<<30, after, nil, first, nil)
	if err != nil {
		return nil, err
	}
	p.Project = repoRef(repo)
	res, _, err := r.svc.Commits.List(ctx, actor(ctx), p, commits.Order{}, pagination.Page{Offset: pagination.Offset{Page: 1, PerPage: w.end + 1}})
	if err != nil {
		return nil, err
	}
	items := res.Items
	w.end = min(w.end, len(items))
	w.start = min(w.start, w.end)
	w.hasNext = len(items) > w.end
	conn := &model.CommitConnection{Edges: []*model.CommitEdge{}, Nodes: []*model.Commit{}, PageInfo: w.pageInfo()}
	for i := w.start; i < w.end; i++ {
		c := r.commitOf(repo, items[i])
		conn.Nodes = append(conn.Nodes, c)
		conn.Edges = append(conn.Edges, &model.CommitEdge{Cursor: cursorAt(i), Node: c})
	}
	return conn, nil
}

// webPath is a repository page of a project: /<project>/-/<kind>/<ref>/<path>, each path segment
// escaped.
func webPath(repo *model.Repository, kind, ref, path string) string {
	out := "/" + repo.FullPath + "/-/" + kind + "/" + escapeSegments(ref)
	if path != "" {
		out += "/" + escapeSegments(path)
	}
	return out
}

// escapeSegments escapes each "/"-separated segment of a path.
func escapeSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// nodeSelects reports whether the connection being resolved asks its nodes (through nodes or
// edges.node) for one of fields, so that costly fields are only computed when asked for.
func nodeSelects(ctx context.Context, fields ...string) bool {
	fc := graphql.GetFieldContext(ctx)
	oc := graphql.GetOperationContext(ctx)
	if fc == nil || oc == nil {
		return true
	}
	wanted := func(sel []graphql.CollectedField) bool {
		for _, f := range sel {
			for _, name := range fields {
				if f.Name == name {
					return true
				}
			}
		}
		return false
	}
	for _, f := range graphql.CollectFields(oc, fc.Field.Selections, nil) {
		switch f.Name {
		case "nodes":
			if wanted(graphql.CollectFields(oc, f.Selections, nil)) {
				return true
			}
		case "edges":
			for _, e := range graphql.CollectFields(oc, f.Selections, nil) {
				if e.Name == "node" && wanted(graphql.CollectFields(oc, e.Selections, nil)) {
					return true
				}
			}
		}
	}
	return false
}
