package storagemoves

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/projectrepositorystoragemove"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git/storage"
	"anvil/internal/service/projects"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// msgNotIncluded is Rails' inclusion validation message.
const msgNotIncluded = "is not included in the list"

// Schedule is POST /projects/:id/repository_storage_moves (administrators): it schedules the
// move of the project's repository to destination (nil: a storage picked by weight, as
// GitLab's pick_repository_storage). Unknown storages and a project already read-only are
// GitLab's validation errors.
func (s *Service) Schedule(ctx context.Context, actor *authz.Actor, ref string, destination *string) (*ent.ProjectRepositoryStorageMove, *projects.View, error) {
	if err := authz.CheckAdmin(actor); err != nil {
		return nil, nil, err
	}
	p, err := s.projects.Lookup(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	dest := ""
	if destination != nil {
		dest = *destination
	}
	var move *ent.ProjectRepositoryStorageMove
	err = db.WithTx(ctx, s.client, func(ctx context.Context, _ *ent.Client) error {
		move, err = s.schedule(ctx, p, dest)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	// The move as scheduled, as GitLab answers (the run may already have gone further).
	v, err := s.view(ctx, actor, move)
	return move, v, err
}

// ScheduleMove implements projects.StorageMover: PUT /projects/:id with a new
// repository_storage, inside the update's transaction.
func (s *Service) ScheduleMove(ctx context.Context, p *ent.Project, destination string) error {
	_, err := s.schedule(ctx, p, destination)
	return err
}

// ScheduleAll is POST /project_repository_storage_moves (administrators): a move to
// destination (empty: picked by weight per project) for every project on source that is not
// already moving, as GitLab's bulk scheduling does. Unknown storage names are parameter errors.
func (s *Service) ScheduleAll(ctx context.Context, actor *authz.Actor, source string, destination *string) error {
	if err := authz.CheckAdmin(actor); err != nil {
		return err
	}
	if !s.KnownStorage(source) {
		return apperr.NotAllowedValue("source_storage_name")
	}
	dest := ""
	if destination != nil {
		if !s.KnownStorage(*destination) {
			return apperr.NotAllowedValue("destination_storage_name")
		}
		dest = *destination
	}
	ids, err := s.client.Project.Query().Where(project.RepositoryStorage(source), project.RepositoryReadOnly(false),
		project.PendingDelete(false), project.DiskPathNEQ("")).Order(ent.Asc(project.FieldID)).IDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		err := db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
			p, err := tx.Project.Get(ctx, id)
			if ent.IsNotFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			_, err = s.schedule(ctx, p, dest)
			return err
		})
		// A project that started moving meanwhile keeps its move; the others go on.
		if err != nil && !apperr.Is(err, apperr.KindValidation) {
			return err
		}
	}
	return nil
}

// schedule creates a scheduled move of p to destination and makes p read-only, in the
// transaction in ctx; the scheduler runs the move once that transaction commits (GitLab's
// schedule event: initial → scheduled with the container made read-only).
func (s *Service) schedule(ctx context.Context, p *ent.Project, destination string) (*ent.ProjectRepositoryStorageMove, error) {
	if destination == "" {
		picked, err := s.storage.Pick()
		if err != nil && !errors.Is(err, storage.ErrNoStorage) {
			return nil, err
		}
		destination = picked
	}
	e := map[string][]string{}
	if !s.KnownStorage(p.RepositoryStorage) {
		e["source_storage_name"] = []string{msgNotIncluded}
	}
	if !s.KnownStorage(destination) {
		e["destination_storage_name"] = []string{msgNotIncluded}
	}
	if p.RepositoryReadOnly {
		e["project"] = []string{"is read-only"}
	}
	if len(e) > 0 {
		return nil, apperr.Validation(e)
	}
	c := db.ClientFrom(ctx, s.client)
	if ok, err := s.setReadOnly(ctx, c, p.ID, true, p.RepositoryStorage); err != nil {
		return nil, err
	} else if !ok {
		return nil, apperr.FieldError("project", "Repository already read-only")
	}
	move, err := c.ProjectRepositoryStorageMove.Create().SetProjectID(p.ID).
		SetState(projectrepositorystoragemove.StateScheduled).
		SetSourceStorageName(p.RepositoryStorage).SetDestinationStorageName(destination).Save(ctx)
	if err != nil {
		return nil, err
	}
	move.Edges.Project = p
	if err := s.scheduler.ScheduleStorageMove(ctx, move.ID); err != nil {
		return nil, err
	}
	return move, nil
}

// setReadOnly sets the project's repository_read_only to on if it is not already and the
// project still sits on storageName; it reports whether it changed the row. The UPDATE leaves
// updated_at alone, as GitLab's update_column does.
func (s *Service) setReadOnly(ctx context.Context, c *ent.Client, projectID int, on bool, storageName string) (bool, error) {
	d := dialect.SQLite
	if db.Networked(s.client) {
		d = dialect.Postgres
	}
	query, args := sql.Dialect(d).Update(project.Table).Set(project.FieldRepositoryReadOnly, on).
		Where(sql.And(sql.EQ(project.FieldID, projectID), sql.EQ(project.FieldRepositoryReadOnly, !on),
			sql.EQ(project.FieldRepositoryStorage, storageName))).Query()
	res, err := c.ExecContext(ctx, query, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
