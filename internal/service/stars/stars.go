// Package stars holds starring: a user stars or unstars a project, the users who starred a
// project, and the cleanup of a deleted user's stars. A project's star_count counts its stars
// and moves with them in the same transaction; the starred filters of project listings live in
// the projects finder.
package stars

import (
	"context"
	"errors"
	"strconv"

	"anvil/ent"
	"anvil/ent/projectstar"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/projects"
	"anvil/internal/service/users"
	"anvil/internal/service/wire"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// Service is the star service.
type Service struct {
	client   *ent.Client
	projects *projects.Service
	users    *users.Service
}

// New returns the star service.
func New(client *ent.Client, p *projects.Service, u *users.Service) *Service {
	wire.Require("stars", wire.D("client", client), wire.D("projects", p), wire.D("users", u))
	return &Service{client: client, projects: p, users: u}
}

// StarredBy resolves the user of GET /users/:user_id/starred_projects (id or username) into the
// projects finder's StarredBy filter: the user's id, or -1 (nothing) when the user keeps a
// private profile the actor may not read, as GitLab answers an empty list then. An unknown user,
// or one the actor may not see, is 404 User Not Found.
func (s *Service) StarredBy(ctx context.Context, actor *authz.Actor, userRef string) (int, error) {
	u, err := s.users.FindByRef(ctx, userRef)
	if err != nil {
		return 0, err
	}
	if !authz.CanUser(actor, u, authz.ReadUser) {
		return 0, apperr.NotFound("User")
	}
	if !authz.CanUser(actor, u, authz.ReadUserProfile) {
		return -1, nil
	}
	return u.ID, nil
}

// errUnchanged rolls back a star or unstar that found nothing to do.
var errUnchanged = errors.New("star unchanged")

// Star stars the project ref for the actor, who must be signed in and able to read it (404
// otherwise). It returns the project with its View, read after the change, and whether the
// star is new: starring a project twice changes nothing (GitLab answers 304 Not Modified).
func (s *Service) Star(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *projects.View, bool, error) {
	return s.toggle(ctx, actor, ref, true)
}

// Unstar removes the actor's star from the project ref; changed is false when there was none.
func (s *Service) Unstar(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *projects.View, bool, error) {
	return s.toggle(ctx, actor, ref, false)
}

func (s *Service) toggle(ctx context.Context, actor *authz.Actor, ref string, star bool) (*ent.Project, *projects.View, bool, error) {
	if actor.IsAnonymous() {
		return nil, nil, false, errUnauthorized()
	}
	p, err := s.projects.Find(ctx, actor, ref, authz.ReadProject)
	if err != nil {
		return nil, nil, false, err
	}
	uid := actor.UserID()
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		mine := c.ProjectStar.Query().Where(projectstar.UserID(uid), projectstar.ProjectID(p.ID))
		if star {
			exists, err := mine.Exist(ctx)
			if err != nil || exists {
				return orUnchanged(err, exists)
			}
			if err := c.ProjectStar.Create().SetUserID(uid).SetProjectID(p.ID).Exec(ctx); err != nil {
				return orUnchanged(err, ent.IsConstraintError(err))
			}
			return s.addStarCount(ctx, c, []int{p.ID}, 1)
		}
		n, err := c.ProjectStar.Delete().Where(projectstar.UserID(uid), projectstar.ProjectID(p.ID)).Exec(ctx)
		if err != nil || n == 0 {
			return orUnchanged(err, n == 0)
		}
		return s.addStarCount(ctx, c, []int{p.ID}, -1)
	})
	if errors.Is(err, errUnchanged) {
		return p, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	p, v, err := s.projects.Get(ctx, actor, strconv.Itoa(p.ID))
	return p, v, true, err
}

// orUnchanged is err, or errUnchanged when unchanged holds (a concurrent star of the same
// project by the same user loses the unique index and is no change either).
func orUnchanged(err error, unchanged bool) error {
	if unchanged {
		return errUnchanged
	}
	return err
}

// addStarCount moves the star_count of the projects by delta with one UPDATE that leaves
// updated_at alone: a star is no change to the project (GitLab keeps the count as a counter
// cache, which does not touch the row's timestamps). ent's update builders always set
// updated_at, so the statement is built here.
func (s *Service) addStarCount(ctx context.Context, c *ent.Client, ids []int, delta int) error {
	if len(ids) == 0 {
		return nil
	}
	d := dialect.SQLite
	if db.Networked(s.client) {
		d = dialect.Postgres
	}
	query, args := sql.Dialect(d).Update("projects").Add("star_count", delta).Where(sql.InInts("id", ids...)).Query()
	_, err := c.ExecContext(ctx, query, args...)
	return err
}

// StarrersParams are the filters of GET /projects/:id/starrers.
type StarrersParams struct {
	// Search (search) matches the user's name or username, or the full public email.
	Search string
}

// Starrers lists the stars of the project ref, oldest first, with their users: users with a
// private profile appear only to themselves and administrators. 404 when the actor cannot read
// the project.
func (s *Service) Starrers(ctx context.Context, actor *authz.Actor, ref string, p StarrersParams, page pagination.Offset) (pagination.Result[*ent.ProjectStar], error) {
	res := pagination.Result[*ent.ProjectStar]{Page: page}
	proj, err := s.projects.Find(ctx, actor, ref, authz.ReadProject)
	if err != nil {
		return res, err
	}
	var who []func(*sql.Selector)
	if !actor.IsAdmin() {
		who = append(who, user.Or(user.PrivateProfile(false), user.ID(actor.UserID())))
	}
	if p.Search != "" {
		who = append(who, users.Search(p.Search, false))
	}
	q := db.ClientFrom(ctx, s.client).ProjectStar.Query().Where(projectstar.ProjectID(proj.ID))
	if len(who) > 0 {
		q = q.Where(func(s *sql.Selector) { db.In(projectstar.FieldUserID, user.Table, user.FieldID, who...)(s) })
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	rows, err := q.Order(projectstar.ByID()).WithUser().Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	return res, nil
}

// errUnauthorized is the answer to an anonymous star.
func errUnauthorized() error { return apperr.Unauthorized() }
