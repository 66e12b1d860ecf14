// Package routes keeps the old paths of moved projects and namespaces (GitLab's redirect
// routes). A rename or a transfer leaves a redirect from each old full path, the moved
// project's or group's and every group's and project's below it, to its row; a project or
// namespace created at a path, or moved onto it, takes that path and the paths below it back.
// Finders look redirects up only after the live paths miss, so a live path always wins.
package routes

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/redirectroute"
	"anvil/internal/authz"
)

// Source kinds of a redirect.
const (
	Project   = redirectroute.SourceTypeProject
	Namespace = redirectroute.SourceTypeNamespace
)

// Claim removes the redirects at fullPath and below it: a project or namespace now lives there.
// Call it in the transaction that creates the row or moves it to fullPath.
func Claim(ctx context.Context, c *ent.Client, fullPath string) error {
	lower := strings.ToLower(fullPath)
	_, err := c.RedirectRoute.Delete().
		Where(redirectroute.Or(redirectroute.LowerPath(lower), redirectroute.LowerPathHasPrefix(lower+"/"))).
		Exec(ctx)
	return err
}

// MoveProject records that the project id moves from oldFull to newFull: the new path (and
// anything below it) is claimed and the old one redirects to the project. Call it in the move's
// transaction. A change of case only leaves no redirect: paths match regardless of case.
func MoveProject(ctx context.Context, c *ent.Client, id int, oldFull, newFull string) error {
	if err := Claim(ctx, c, newFull); err != nil {
		return err
	}
	if strings.EqualFold(oldFull, newFull) {
		return nil
	}
	return keep(ctx, c, []*ent.RedirectRouteCreate{create(c, Project, id, oldFull)})
}

// MoveNamespace records that the namespace id moves from oldFull to newFull, with every
// namespace and project below it: each keeps a redirect from its old full path. Call it in the
// move's transaction before the full paths below change (the descendants are found by their
// old paths).
func MoveNamespace(ctx context.Context, c *ent.Client, id int, oldFull, newFull string) error {
	if err := Claim(ctx, c, newFull); err != nil {
		return err
	}
	if strings.EqualFold(oldFull, newFull) {
		return nil
	}
	below, err := c.Namespace.Query().Where(authz.Descendants(oldFull)).
		Select(namespace.FieldID, namespace.FieldFullPath).All(ctx)
	if err != nil {
		return err
	}
	paths := map[int]string{id: oldFull}
	ids := []int{id}
	creates := []*ent.RedirectRouteCreate{create(c, Namespace, id, oldFull)}
	for _, ns := range below {
		paths[ns.ID] = ns.FullPath
		ids = append(ids, ns.ID)
		creates = append(creates, create(c, Namespace, ns.ID, ns.FullPath))
	}
	projects, err := c.Project.Query().Where(project.NamespaceIDIn(ids...)).
		Select(project.FieldID, project.FieldNamespaceID, project.FieldPath).All(ctx)
	if err != nil {
		return err
	}
	for _, p := range projects {
		creates = append(creates, create(c, Project, p.ID, paths[p.NamespaceID]+"/"+p.Path))
	}
	return keep(ctx, c, creates)
}

// Resolve returns the id of the source of kind whose old full path is path (any case).
func Resolve(ctx context.Context, c *ent.Client, kind redirectroute.SourceType, path string) (int, bool, error) {
	r, err := c.RedirectRoute.Query().
		Where(redirectroute.LowerPath(strings.ToLower(path)), redirectroute.SourceTypeEQ(kind)).Only(ctx)
	if ent.IsNotFound(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return r.SourceID, true, nil
}

// create builds one redirect.
func create(c *ent.Client, kind redirectroute.SourceType, id int, path string) *ent.RedirectRouteCreate {
	return c.RedirectRoute.Create().SetSourceType(kind).SetSourceID(id).SetPath(path).SetLowerPath(strings.ToLower(path))
}

// batch bounds the rows of one insert (PostgreSQL takes at most 65,535 arguments a statement).
const batch = 1000

// keep inserts the redirects; an old path that already redirects now redirects to the new
// source (the last move of a path wins).
func keep(ctx context.Context, c *ent.Client, creates []*ent.RedirectRouteCreate) error {
	for len(creates) > 0 {
		n := min(batch, len(creates))
		err := c.RedirectRoute.CreateBulk(creates[:n]...).
			OnConflictColumns(redirectroute.FieldLowerPath).
			UpdateSourceType().UpdateSourceID().UpdatePath().UpdateUpdatedAt().
			Exec(ctx)
		if err != nil {
			return err
		}
		creates = creates[n:]
	}
	return nil
}
