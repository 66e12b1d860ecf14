package notes

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/issues"
)

// IssueNoteable is the issue kind of noteable: an issue of a project by iid, read with the
// issue service's rules (confidential issues included), its discussion lock, and its
// user_notes_count kept in step.
type IssueNoteable struct {
	client *ent.Client
	issues *issues.Service
}

// NewIssueNoteable returns the issue noteable.
func NewIssueNoteable(client *ent.Client, is *issues.Service) *IssueNoteable {
	return &IssueNoteable{client: client, issues: is}
}

// Find returns the issue ref.ID (an iid) of project ref.Parent as issues.Service.Find does.
func (n *IssueNoteable) Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Target, error) {
	is, level, err := n.issues.Find(ctx, actor, ref.Parent, ref.ID)
	if err != nil {
		return nil, err
	}
	return IssueTarget(actor, level, is), nil
}

// UserNotesChanged keeps the issue's user_notes_count (and, as GitLab's touch, its updated_at).
func (n *IssueNoteable) UserNotesChanged(ctx context.Context, t *Target, delta int) error {
	return db.ClientFrom(ctx, n.client).Issue.UpdateOneID(t.ID).AddUserNotesCount(delta).Exec(ctx)
}

// IssueTarget is the issue is (loaded with issues.Load) as a noteable for actor, whose level in
// its project is level.
func IssueTarget(actor *authz.Actor, level authz.Level, is *ent.Issue) *Target {
	proj := is.Edges.Project
	iid, pid := is.Iid, is.ProjectID
	can := func(a authz.Ability) bool { return proj != nil && authz.CanProject(actor, proj, level, a) }
	return &Target{
		Type: TypeIssue, ID: is.ID, IID: &iid, ProjectID: &pid, Title: is.Title, Object: is,
		Access: Access{
			Comment:      !actor.IsAnonymous() && can(authz.CreateNote),
			Locked:       is.DiscussionLocked != nil && *is.DiscussionLocked,
			Member:       actor.IsAdmin() || level >= authz.Guest,
			ReadInternal: can(authz.ReadInternalNote),
			AdminNotes:   can(authz.AdminNote),
			BackDate:     can(authz.SetNoteCreatedAt),
		},
	}
}
