package commits

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/notes"
)

// Noteable is the commit kind of noteable for the notes domain (registered as
// notes.TypeCommit): a commit of a project by id, branch or tag, its notes kept by commit id.
type Noteable struct{ s *Service }

// Noteable returns the commit noteable.
func (s *Service) Noteable() *Noteable { return &Noteable{s: s} }

// Find returns the commit ref.ID (an id, branch or tag) of project ref.Parent: 404 Project Not
// Found for a project the actor may not see, 404 Commit Not Found for a commit it may not read
// (GitLab's find_noteable: read_commit is the project's download_code) or that is not there.
// Those who read the code comment (create_note); notes on commits are never locked.
func (n *Noteable) Find(ctx context.Context, actor *authz.Actor, ref notes.Ref) (*notes.Target, error) {
	p, level, readable, err := n.s.projects.LookupLevel(ctx, actor, ref.Parent)
	if err != nil {
		return nil, err
	}
	if err := authz.CheckRepository(actor, p, level, readable, authz.DownloadCode); err != nil {
		if apperr.IsNotFound(err) && !readable {
			return nil, err
		}
		return nil, apperr.NotFound("Commit")
	}
	repo, err := n.s.repos.Repository(p)
	if err != nil {
		return nil, err
	}
	c, err := resolveCommit(ctx, repo, ref.ID)
	if err != nil {
		return nil, err
	}
	return CommitTarget(actor, p, level, c), nil
}

// CommitTarget is commit c of project p as a noteable for actor, whose level in p is level.
func CommitTarget(actor *authz.Actor, p *ent.Project, level authz.Level, c *git.Commit) *notes.Target {
	can := func(a authz.Ability) bool { return authz.CanProject(actor, p, level, a) }
	sha, pid := string(c.ID), p.ID
	return &notes.Target{
		Type: notes.TypeCommit, CommitID: &sha, ProjectID: &pid, Title: c.Subject(), Object: c,
		Access: notes.Access{
			Comment:      !actor.IsAnonymous() && can(authz.CreateNote),
			Member:       actor.IsAdmin() || level >= authz.Guest,
			ReadInternal: can(authz.ReadInternalNote),
			AdminNotes:   can(authz.AdminNote),
			BackDate:     can(authz.SetNoteCreatedAt),
		},
	}
}

// UserNotesChanged: commits keep no count of their notes.
func (n *Noteable) UserNotesChanged(context.Context, *notes.Target, int) error { return nil }

// NoteDiffs reads the diffs diff notes are placed on in a project's repository (commits and
// merge requests: notes.Service.RegisterDiffs).
type NoteDiffs struct{ s *Service }

// NoteDiffs returns the diffs of diff notes.
func (s *Service) NoteDiffs() NoteDiffs { return NoteDiffs{s: s} }

// FileDiff returns the change to the file at paths between from and to in the repository of
// t's project, nil when it did not change or a commit is not there.
func (d NoteDiffs) FileDiff(ctx context.Context, t *notes.Target, from, to string, paths []string) (*git.DiffFile, error) {
	if t.ProjectID == nil || len(paths) == 0 {
		return nil, nil
	}
	p, err := db.ClientFrom(ctx, d.s.client).Project.Get(ctx, *t.ProjectID)
	if err != nil {
		return nil, err
	}
	repo, err := d.s.repos.Repository(p)
	if err != nil {
		return nil, err
	}
	res, err := repo.Diff(ctx, from, to, git.DiffOptions{
		Paths: paths, MaxFiles: diffMaxFiles, MaxLines: diffMaxLines, MaxPatchBytes: diffMaxPatchBytes,
	})
	if err != nil {
		if isMissing(err) || errors.Is(err, git.ErrInvalidRevision) {
			return nil, nil
		}
		return nil, err
	}
	for i := range res.Files {
		f := &res.Files[i]
		for _, path := range paths {
			if f.NewPath == path || f.OldPath == path {
				return f, nil
			}
		}
	}
	return nil, nil
}
