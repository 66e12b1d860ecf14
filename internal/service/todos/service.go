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

// Service lists and resolves to-dos.
type Service struct {
	client   *ent.Client
	recorder *Recorder
	issues   IssueReader
	mrs      MergeRequestReader
}

// New returns the to-do service; recorder is the one observing issue changes.
func New(client *ent.Client, recorder *Recorder, is IssueReader, mrs MergeRequestReader) *Service {
	wire.Require("todos", wire.D("client", client), wire.D("recorder", recorder), wire.D("issues", is),
		wire.D("merge requests", mrs))
	return &Service{client: client, recorder: recorder, issues: is, mrs: mrs}
}

// Recorder is the service's recorder (for the domains that mention users: notes).
func (s *Service) Recorder() *Recorder { return s.recorder }
