package versions

import (
	"context"
	"errors"

	"anvil/internal/authz"
	"anvil/internal/service/mergerequests"
)

// Observer records the first diff version of a merge request in its creation's transaction,
// so the created merge request answers with its diff_refs and changes_count.
func (s *Service) Observer() mergerequests.Observer { return createdObserver{s} }

type createdObserver struct{ s *Service }

// MergeRequestChanged implements mergerequests.Observer.
func (o createdObserver) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch mergerequests.Change) error {
	if ch.Action != mergerequests.ActionCreated || ch.After == nil {
		return nil
	}
	_, err := o.s.Record(ctx, ch.After, actorID(actor))
	if errors.Is(err, ErrNoSource) {
		return nil // the creation checked the branch; a race leaves the merge request without a version
	}
	return err
}

// actorID is the actor's user id, nil for none.
func actorID(a *authz.Actor) *int {
	if a == nil || a.IsAnonymous() {
		return nil
	}
	id := a.User.ID
	return &id
}
