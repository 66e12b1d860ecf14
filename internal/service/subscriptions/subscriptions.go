// Package subscriptions keeps users' explicit choices to be notified, or not, about an issue,
// merge request or epic (GitLab's subscriptions). Without a choice, whether a user is
// subscribed is the owning domain's rule (GitLab: participation), so Explicit answers
// "no choice" as nil and each domain falls back on its own.
package subscriptions

import (
	"context"

	"anvil/ent"
	"anvil/ent/subscription"
)

// The subscribable kinds, GitLab's class names.
const (
	Issue        = subscription.SubscribableTypeIssue
	MergeRequest = subscription.SubscribableTypeMergeRequest
	Epic         = subscription.SubscribableTypeEpic
)

// Explicit returns the user's explicit choice about the target, or nil when there is none.
func Explicit(ctx context.Context, c *ent.Client, kind subscription.SubscribableType, id, userID int) (*bool, error) {
	row, err := c.Subscription.Query().Where(subscription.SubscribableTypeEQ(kind), subscription.SubscribableID(id),
		subscription.UserID(userID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &row.Subscribed, nil
}

// Set records the user's choice about the target (in the caller's transaction, if any).
func Set(ctx context.Context, c *ent.Client, kind subscription.SubscribableType, id int, projectID *int, userID int, subscribed bool) error {
	n, err := c.Subscription.Update().Where(subscription.SubscribableTypeEQ(kind), subscription.SubscribableID(id),
		subscription.UserID(userID)).SetSubscribed(subscribed).Save(ctx)
	if err != nil || n > 0 {
		return err
	}
	return c.Subscription.Create().SetSubscribableType(kind).SetSubscribableID(id).SetNillableProjectID(projectID).
		SetUserID(userID).SetSubscribed(subscribed).Exec(ctx)
}

// DeleteFor removes every choice about a target (it is being deleted).
func DeleteFor(ctx context.Context, c *ent.Client, kind subscription.SubscribableType, id int) error {
	_, err := c.Subscription.Delete().Where(subscription.SubscribableTypeEQ(kind), subscription.SubscribableID(id)).Exec(ctx)
	return err
}
