// Package todos is the to-do list (GitLab's todos): the Recorder creates to-dos inside the
// transactions of the changes that call for them (assignments, mentions; an issues.Observer,
// and NoteAdded for comments) and resolves them (closing, editing, deleting a target); the
// Service lists the caller's to-dos with GitLab's filters, marks them done, adds one on an
// issue (POST .../todo), and counts what GET /user_counts shows.
package todos

import (
	"context"

	"anvil/ent"
	"anvil/ent/predicate"
	"anvil/internal/authz"
	"anvil/internal/service/epics"
	"anvil/internal/service/issues"
	"anvil/internal/service/wire"
)

// IssueReader finds and selects the issues an actor may read (the issue service).
type IssueReader interface {
	Find(ctx context.Context, actor *authz.Actor, ref, iidText string) (*ent.Issue, authz.Level, error)
	Readable(ctx context.Context, actor *authz.Actor) (predicate.Issue, error)
	Query(ctx context.Context, actor *authz.Actor, parent issues.Parent, p issues.ListParams) (*ent.IssueQuery, error)
	FindVisible(ctx context.Context, actor *authz.Actor, id int) (*ent.Issue, error)
}

// EpicReader tells which epics an actor may read and loads them for presenting (the epic
// service).
type EpicReader interface {
	Readable(ctx context.Context, actor *authz.Actor, ids []int) ([]int, error)
	Views(ctx context.Context, ids []int) (map[int]epics.View, error)
}

// Service lists and resolves to-dos.
type Service struct {
	client   *ent.Client
	recorder *Recorder
	issues   IssueReader
	mrs      MergeRequestReader
	epics    EpicReader
}

// New returns the to-do service; recorder is the one observing issue changes.
func New(client *ent.Client, recorder *Recorder, is IssueReader, mrs MergeRequestReader, ep EpicReader) *Service {
	wire.Require("todos", wire.D("client", client), wire.D("recorder", recorder), wire.D("issues", is),
		wire.D("merge requests", mrs), wire.D("epics", ep))
	return &Service{client: client, recorder: recorder, issues: is, mrs: mrs, epics: ep}
}

// Recorder is the service's recorder (for the domains that mention users: notes).
func (s *Service) Recorder() *Recorder { return s.recorder }
