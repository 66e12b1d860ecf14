package storagemoves

import (
	"context"
	"errors"
	"fmt"
	"time"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/projectrepositorystoragemove"
	"anvil/internal/db"
	"anvil/internal/git"
)

// States of a move (GitLab's state machine).
const (
	stateScheduled     = projectrepositorystoragemove.StateScheduled
	stateStarted       = projectrepositorystoragemove.StateStarted
	stateReplicated    = projectrepositorystoragemove.StateReplicated
	stateFinished      = projectrepositorystoragemove.StateFinished
	stateFailed        = projectrepositorystoragemove.StateFailed
	stateCleanupFailed = projectrepositorystoragemove.StateCleanupFailed
)

// Run works the move moveID to its end. It is the job's entry point: idempotent, and safe to
// call again after a crash at any point, because every step starts from the state recorded in
// the database and re-checks the disk:
//
//   - scheduled → started;
//   - started: a copy left on the destination by an interrupted attempt is removed, the
//     repository is copied afresh (internal/git MirrorFrom: every ref and the objects they
//     reach, each object checked), the refs' checksums of both ends compared, then one
//     transaction points the project at the destination, makes it writable again and records
//     replicated with the checksum. A failed copy or a checksum mismatch removes the copy and
//     records failed (the project stays where it was, writable again);
//   - replicated: the source is removed if it still has the checksum copied (a write that
//     slipped in after the copy leaves it in place, cleanup_failed, nothing lost) and the
//     destination is there; finished.
//
// A move of a project to the storage it is on switches nothing and removes nothing. Run
// returns an error only when the move should be retried (the database or the context failed);
// a move that failed for good is recorded as such and returns nil, as does a Run of a move
// this process is already running.
func (s *Service) Run(ctx context.Context, moveID int) error {
	if _, busy := s.running.LoadOrStore(moveID, struct{}{}); busy {
		return nil
	}
	defer s.running.Delete(moveID)
	for {
		m, err := s.client.ProjectRepositoryStorageMove.Get(ctx, moveID)
		if ent.IsNotFound(err) {
			return nil // the project, and its moves with it, are gone
		}
		if err != nil {
			return err
		}
		switch m.State {
		case stateScheduled:
			if _, err := s.transition(ctx, s.client, m, stateScheduled, stateStarted); err != nil {
				return err
			}
		case stateStarted:
			if err := s.replicate(ctx, m); err != nil {
				return err
			}
		case stateReplicated:
			if err := s.cleanup(ctx, m); err != nil {
				return err
			}
		default: // initial (never scheduled), or ended: finished, failed, cleanup_failed
			return nil
		}
	}
}

// replicate copies the repository to the destination and switches the project to it.
func (s *Service) replicate(ctx context.Context, m *ent.ProjectRepositoryStorageMove) error {
	p, err := s.client.Project.Get(ctx, m.ProjectID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	src, dst := m.SourceStorageName, m.DestinationStorageName
	switch {
	case p.RepositoryStorage != src:
		return s.fail(ctx, m, fmt.Errorf("the project is on storage %q, not %q", p.RepositoryStorage, src))
	case src == dst:
		return s.switchOver(ctx, m, p, "")
	case p.DiskPath == "":
		return s.fail(ctx, m, errors.New("the project has no repository"))
	}
	sum, err := s.copy(ctx, p.DiskPath, src, dst)
	if err != nil {
		if ctx.Err() != nil {
			return err // interrupted, not failed: the next run starts the copy again
		}
		s.discard(ctx, dst, p.DiskPath)
		return s.fail(ctx, m, err)
	}
	return s.switchOver(ctx, m, p, sum)
}

// copyAttempts bounds the copies of one run: a write that was already past the read-only
// guard when the move was scheduled may land on the source during a copy, which then no longer
// matches; the copy is made again (that write is in the next one).
const copyAttempts = 3

// copy makes a fresh copy of the repository at relPath on src at the same path on dst and
// returns the refs' checksum both ends agree on.
func (s *Service) copy(ctx context.Context, relPath, src, dst string) (string, error) {
	from, err := s.storage.Repository(src, relPath)
	if err != nil {
		return "", err
	}
	if !from.Exists() {
		return "", fmt.Errorf("no repository at %s on %q", relPath, src)
	}
	for attempt := 1; ; attempt++ {
		sum, err := s.copyOnce(ctx, from, relPath, dst)
		if !errors.Is(err, errMismatch) || attempt == copyAttempts {
			return sum, err
		}
		s.log.WarnContext(ctx, "repository changed during its copy; copying again", "disk_path", relPath, "attempt", attempt)
	}
}

// errMismatch: the copy's refs differ from the source's.
var errMismatch = errors.New("checksum mismatch")

// copyOnce copies from to relPath on dst, replacing whatever is there, and verifies the copy.
func (s *Service) copyOnce(ctx context.Context, from *git.Repository, relPath, dst string) (string, error) {
	// A copy left by an interrupted attempt is not trusted: the copy starts again.
	if ok, err := s.storage.Exists(dst, relPath); err != nil {
		return "", err
	} else if ok {
		if err := s.storage.Remove(ctx, dst, relPath); err != nil {
			return "", err
		}
	}
	head, err := from.Head(ctx)
	if err != nil {
		return "", err
	}
	to, err := s.storage.Create(ctx, dst, relPath, head)
	if err != nil {
		return "", err
	}
	if err := to.MirrorFrom(ctx, from); err != nil {
		return "", err
	}
	return sameChecksum(ctx, from, to)
}

// sameChecksum returns the refs' checksum of a and b, or an error when they differ.
func sameChecksum(ctx context.Context, a, b *git.Repository) (string, error) {
	want, err := a.RefsChecksum(ctx)
	if err != nil {
		return "", err
	}
	got, err := b.RefsChecksum(ctx)
	if err != nil {
		return "", err
	}
	if got != want {
		return "", fmt.Errorf("%w: source %s, destination %s", errMismatch, want, got)
	}
	return want, nil
}

// switchOver points the project at the destination, makes it writable and records replicated
// with checksum, in one transaction (GitLab's started → replicated). A project that moved or
// went meanwhile leaves the copy unused: it is removed and the move fails.
func (s *Service) switchOver(ctx context.Context, m *ent.ProjectRepositoryStorageMove, p *ent.Project, checksum string) error {
	var lost bool
	err := db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		n, err := tx.Project.Update().
			Where(project.ID(p.ID), project.RepositoryStorage(m.SourceStorageName)).
			SetRepositoryStorage(m.DestinationStorageName).SetRepositoryReadOnly(false).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			lost = true
			return nil
		}
		_, err = tx.ProjectRepositoryStorageMove.Update().
			Where(projectrepositorystoragemove.ID(m.ID), projectrepositorystoragemove.StateEQ(stateStarted)).
			SetState(stateReplicated).SetChecksum(checksum).Save(ctx)
		return err
	})
	if err != nil {
		return err
	}
	if lost {
		if m.SourceStorageName != m.DestinationStorageName {
			s.discard(ctx, m.DestinationStorageName, p.DiskPath)
		}
		return s.fail(ctx, m, errors.New("the project moved or was deleted during the copy"))
	}
	s.log.InfoContext(ctx, "repository storage move replicated", "move_id", m.ID, "project_id", p.ID,
		"source", m.SourceStorageName, "destination", m.DestinationStorageName)
	return nil
}

// cleanup removes the source repository of a replicated move and records finished, or
// cleanup_failed when the source cannot (or must not) be removed.
func (s *Service) cleanup(ctx context.Context, m *ent.ProjectRepositoryStorageMove) error {
	if m.SourceStorageName == m.DestinationStorageName {
		_, err := s.transition(ctx, s.client, m, stateReplicated, stateFinished)
		return err
	}
	p, err := s.client.Project.Get(ctx, m.ProjectID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	from, err := s.storage.Repository(m.SourceStorageName, p.DiskPath)
	if err != nil {
		return s.cleanupFailed(ctx, m, err)
	}
	// The source is the last copy if the destination went missing since the switch.
	if ok, err := s.storage.Exists(m.DestinationStorageName, p.DiskPath); err != nil || !ok {
		if err == nil {
			err = errors.New("the destination repository is missing: the source is kept")
		}
		return s.cleanupFailed(ctx, m, err)
	}
	if from.Exists() {
		sum, err := from.RefsChecksum(ctx)
		if err == nil && sum != m.Checksum {
			err = fmt.Errorf("the source changed after the copy (checksum %s, copied %s): kept for an administrator", sum, m.Checksum)
		}
		if err == nil {
			err = s.storage.Remove(ctx, m.SourceStorageName, p.DiskPath)
		}
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			return s.cleanupFailed(ctx, m, err)
		}
	}
	if _, err := s.transition(ctx, s.client, m, stateReplicated, stateFinished); err != nil {
		return err
	}
	s.log.InfoContext(ctx, "repository storage move finished", "move_id", m.ID, "project_id", m.ProjectID)
	return nil
}

// fail records a started move as failed and makes the project writable again where it is
// (GitLab's do_fail from started).
func (s *Service) fail(ctx context.Context, m *ent.ProjectRepositoryStorageMove, cause error) error {
	s.log.ErrorContext(ctx, "repository storage move failed", "move_id", m.ID, "project_id", m.ProjectID,
		"source", m.SourceStorageName, "destination", m.DestinationStorageName, "err", cause)
	return db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		ok, err := s.transition(ctx, tx, m, m.State, stateFailed)
		if err != nil || !ok {
			return err
		}
		_, err = s.setReadOnly(ctx, tx, m.ProjectID, false, m.SourceStorageName)
		return err
	})
}

// cleanupFailed records that the source of a replicated move stays (GitLab's do_fail from
// replicated).
func (s *Service) cleanupFailed(ctx context.Context, m *ent.ProjectRepositoryStorageMove, cause error) error {
	s.log.ErrorContext(ctx, "repository storage move clean-up failed", "move_id", m.ID, "project_id", m.ProjectID,
		"source", m.SourceStorageName, "err", cause)
	_, err := s.transition(ctx, s.client, m, stateReplicated, stateCleanupFailed)
	return err
}

// transition moves m from one state to another if it is still in from; it reports whether it
// did (another runner may have moved it first).
func (s *Service) transition(ctx context.Context, c *ent.Client, m *ent.ProjectRepositoryStorageMove, from, to projectrepositorystoragemove.State) (bool, error) {
	n, err := c.ProjectRepositoryStorageMove.Update().
		Where(projectrepositorystoragemove.ID(m.ID), projectrepositorystoragemove.StateEQ(from)).
		SetState(to).Save(ctx)
	return n == 1, err
}

// discard removes an unused copy on the destination; a failure is logged (the storage sweep
// or the next attempt removes it).
func (s *Service) discard(ctx context.Context, storageName, relPath string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if ok, err := s.storage.Exists(storageName, relPath); err != nil || !ok {
		return
	}
	if err := s.storage.Remove(ctx, storageName, relPath); err != nil {
		s.log.ErrorContext(ctx, "remove unused repository copy", "storage", storageName, "disk_path", relPath, "err", err)
	}
}
