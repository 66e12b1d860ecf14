// Package notes is the one notes domain of every noteable object (GitLab's Noteable): comments
// and system notes on issues now, and on snippets, epics, merge requests and commits as their
// domains register. A noteable's domain implements Noteable (find the object for an actor and
// say what the actor may do with its notes) and registers it under its noteable_type with
// Service.Register; everything else — the notes API, discussions (threads), internal notes,
// locked discussions, back-dating, "commented on" events, system notes — is written here once.
package notes

import (
	"context"
	"fmt"
	"sync"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/wire"
)

// Noteable types: GitLab's class names, the noteable_type of a note.
const (
	TypeIssue        = "Issue"
	TypeSnippet      = "Snippet"
	TypeEpic         = "Epic"
	TypeMergeRequest = "MergeRequest"
	TypeCommit       = "Commit"
)

// Ref names a noteable as a request does: its type, its parent (a project or group id or
// path, as in the URL) and its id or iid there (the URL's :issue_iid, :snippet_id, ...).
type Ref struct {
	Type   string
	Parent string
	ID     string
}

// Target is a noteable found for an actor: where its notes live and what the actor may do.
type Target struct {
	Type string // the noteable_type
	// ID is the noteable's row (noteable_id); CommitID names a commit instead (ID is 0).
	ID       int
	CommitID *string
	// IID is the noteable's iid where notes show it (issues, merge requests: noteable_iid).
	IID *int
	// ProjectID is the project the noteable belongs to; GroupID the group of a group-level
	// noteable (epics). One of the two is set.
	ProjectID *int
	GroupID   *int
	// Title is the noteable's title (to-dos, hooks).
	Title  string
	Access Access
	// Object is the noteable's own entity (*ent.Issue, ...), for its domain's observers.
	Object any
}

// Access is what the actor may do with a target's notes, as the noteable's domain decides
// from its abilities. Reading the notes is finding the target: Find refuses a noteable the
// actor may not read.
type Access struct {
	// Comment: create_note on the noteable, before the lock is considered.
	Comment bool
	// Locked: the noteable's discussion is locked; only members (Member) may comment then.
	Locked bool
	Member bool
	// ReadInternal: read_internal_note (Reporter+): reads internal notes and marks notes internal.
	ReadInternal bool
	// AdminNotes: admin_note: changes and deletes other people's notes.
	AdminNotes bool
	// BackDate: set_note_created_at (administrators, project or group owners).
	BackDate bool
	// Resolvable: the noteable's threads can be resolved (merge requests); ResolveThreads:
	// the actor resolves others' threads (resolve_note beyond the thread's author).
	Resolvable     bool
	ResolveThreads bool
}

// mayComment applies the lock to Comment: a locked discussion takes comments from members only.
func (a Access) mayComment() bool { return a.Comment && (!a.Locked || a.Member) }

// Noteable is one kind of noteable object. Its domain implements it and registers it with
// Service.Register; the notes domain never reads the kind's tables itself.
type Noteable interface {
	// Find returns the noteable ref names as actor sees it, its Access filled in; a noteable
	// the actor may not read is the domain's usual not-found error (404).
	Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Target, error)
	// UserNotesChanged is told, in the note's transaction (ctx carries it), that the target's
	// user (non-system) notes grew or shrank by delta, for a kept count (an issue's
	// user_notes_count); a kind that keeps none returns nil.
	UserNotesChanged(ctx context.Context, t *Target, delta int) error
}

// Observer is told of each comment written, in the note's transaction (ctx carries it): the
// to-dos its mentions give, and later hooks. An error rolls the note back.
type Observer interface {
	NoteWritten(ctx context.Context, actor *authz.Actor, t *Target, n *ent.Note) error
}

// UpdateObserver is an Observer also told of each comment edited (its body changed), in the
// edit's transaction: comment hooks fire on edits too (GitLab's Notes::UpdateService).
type UpdateObserver interface {
	NoteUpdated(ctx context.Context, actor *authz.Actor, t *Target, n *ent.Note) error
}

// Service is the notes service.
type Service struct {
	client *ent.Client

	mu        sync.RWMutex
	noteables map[string]Noteable
	diffs     map[string]Diffs
	observers []Observer
}

// New returns the notes service with no noteable registered.
func New(client *ent.Client) *Service {
	wire.Require("notes", wire.D("client", client))
	return &Service{client: client, noteables: map[string]Noteable{}, diffs: map[string]Diffs{}}
}

// Register makes a noteable type's notes available; registering a type twice panics (wiring).
func (s *Service) Register(noteableType string, n Noteable) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.noteables[noteableType]; dup || n == nil {
		panic(fmt.Sprintf("notes: noteable %q registered twice or nil", noteableType))
	}
	s.noteables[noteableType] = n
}

// Observe adds an observer of the comments written (wiring, like Register).
func (s *Service) Observe(o Observer) {
	if o == nil {
		panic("notes: nil observer")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observers = append(s.observers, o)
}

// noteWritten tells every observer of a comment written.
func (s *Service) noteWritten(ctx context.Context, actor *authz.Actor, t *Target, n *ent.Note) error {
	s.mu.RLock()
	obs := s.observers
	s.mu.RUnlock()
	for _, o := range obs {
		if err := o.NoteWritten(ctx, actor, t, n); err != nil {
			return err
		}
	}
	return nil
}

// noteUpdated tells every observer of edits of a comment edited.
func (s *Service) noteUpdated(ctx context.Context, actor *authz.Actor, t *Target, n *ent.Note) error {
	s.mu.RLock()
	obs := s.observers
	s.mu.RUnlock()
	for _, o := range obs {
		if u, ok := o.(UpdateObserver); ok {
			if err := u.NoteUpdated(ctx, actor, t, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// noteable returns the registered noteable of a type.
func (s *Service) noteable(noteableType string) (Noteable, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n, ok := s.noteables[noteableType]
	if !ok {
		return nil, apperr.NotFound(noteableType)
	}
	return n, nil
}

// find resolves ref through its noteable.
func (s *Service) find(ctx context.Context, actor *authz.Actor, ref Ref) (Noteable, *Target, error) {
	n, err := s.noteable(ref.Type)
	if err != nil {
		return nil, nil, err
	}
	t, err := n.Find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	return n, t, nil
}
