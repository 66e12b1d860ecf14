package notes

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"
)

// MergeRequestNoteable is the merge request kind of noteable: a merge request of a project by
// iid, read with the merge request service's rules, its discussion lock, resolvable threads,
// and its user_notes_count kept in step.
type MergeRequestNoteable struct {
	client *ent.Client
	mrs    *mergerequests.Service
}

// NewMergeRequestNoteable returns the merge request noteable.
func NewMergeRequestNoteable(client *ent.Client, mrs *mergerequests.Service) *MergeRequestNoteable {
	return &MergeRequestNoteable{client: client, mrs: mrs}
}

// Find returns the merge request ref.ID (an iid) of project ref.Parent as
// mergerequests.Service.Find does.
func (n *MergeRequestNoteable) Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Target, error) {
	mr, level, err := n.mrs.Find(ctx, actor, ref.Parent, ref.ID, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	return MergeRequestTarget(actor, level, mr), nil
}

// UserNotesChanged keeps the merge request's user_notes_count (and its updated_at).
func (n *MergeRequestNoteable) UserNotesChanged(ctx context.Context, t *Target, delta int) error {
	return db.ClientFrom(ctx, n.client).MergeRequest.UpdateOneID(t.ID).AddUserNotesCount(delta).Exec(ctx)
}

// MergeRequestTarget is the merge request mr (loaded with mergerequests.Load) as a noteable for
// actor, whose level in its project is level.
func MergeRequestTarget(actor *authz.Actor, level authz.Level, mr *ent.MergeRequest) *Target {
	proj := mr.Edges.Project
	iid, pid := mr.Iid, mr.ProjectID
	can := func(a authz.Ability) bool { return proj != nil && authz.CanProject(actor, proj, level, a) }
	return &Target{
		Type: TypeMergeRequest, ID: mr.ID, IID: &iid, ProjectID: &pid, Title: mr.Title, Object: mr,
		Access: Access{
			Comment:        !actor.IsAnonymous() && can(authz.CreateNote),
			Locked:         mr.DiscussionLocked != nil && *mr.DiscussionLocked,
			Member:         actor.IsAdmin() || level >= authz.Guest,
			ReadInternal:   can(authz.ReadInternalNote),
			AdminNotes:     can(authz.AdminNote),
			BackDate:       can(authz.SetNoteCreatedAt),
			Resolvable:     true,
			ResolveThreads: proj != nil && mergerequests.CanUpdate(actor, proj, level, mr),
		},
	}
}
