package webhooks

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/personalaccesstoken"
	"anvil/ent/project"
	"anvil/ent/user"
	"anvil/internal/db"
)

// expiryNotices are the days before expiry on which a project or group access token's hooks
// hear of it (GitLab's seven-day and one-day notices; the 30- and 60-day ones are behind a
// setting GitLab's API does not expose).
var expiryNotices = []int{7, 1}

// AccessTokenExpiryJob fires the expiring_access_token events of the day, daily.
type AccessTokenExpiryJob struct{}

// Kind names the job.
func (AccessTokenExpiryJob) Kind() string { return "web_hook_access_token_expiry" }

// RunAccessTokenExpiry works an AccessTokenExpiryJob: every active project or group access
// token that expires in exactly seven days or one day (UTC dates, tokens expire at the start of
// their day) fires expiring_access_token to the hooks of its project or group subscribed to
// resource access token events. Notices are by date, not remembered per token: the job runs
// daily, and a second run the same day (a restart queues periodic jobs again) may repeat a
// notice, which at-least-once delivery allows.
func (s *Service) RunAccessTokenExpiry(ctx context.Context, _ AccessTokenExpiryJob) error {
	today := s.now().UTC().Truncate(24 * time.Hour)
	for _, days := range expiryNotices {
		day := today.AddDate(0, 0, days)
		toks, err := s.Client.PersonalAccessToken.Query().Where(personalaccesstoken.Revoked(false),
			personalaccesstoken.ExpiresAtGTE(day), personalaccesstoken.ExpiresAtLT(day.AddDate(0, 0, 1)),
			personalaccesstoken.HasUserWith(user.UserType("project_bot"))).All(ctx)
		if err != nil {
			return err
		}
		for _, t := range toks {
			if err := s.tokenExpiring(ctx, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// tokenExpiring queues the expiring_access_token event of one resource access token.
func (s *Service) tokenExpiring(ctx context.Context, t *ent.PersonalAccessToken) error {
	mb, err := s.Client.Member.Query().Where(member.UserID(t.UserID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var expires any
	if t.ExpiresAt != nil {
		expires = t.ExpiresAt.UTC().Format("2006-01-02")
	}
	payload := map[string]any{
		"object_kind": "access_token", "event_name": "expiring_access_token",
		"object_attributes": map[string]any{"user_id": t.UserID, "created_at": hookTime(t.CreatedAt),
			"id": t.ID, "name": t.Name, "expires_at": expires},
	}
	var target Target
	switch {
	case mb.ProjectID != nil:
		p, err := s.Client.Project.Query().Where(project.ID(*mb.ProjectID)).WithNamespace().Only(ctx)
		if err != nil {
			return ignoreNotFound(err)
		}
		target, payload["project"] = Target{Project: p}, s.projectData(p)
	case mb.NamespaceID != nil:
		g, err := s.Client.Namespace.Query().Where(namespace.ID(*mb.NamespaceID), namespace.KindEQ(namespace.KindGroup)).Only(ctx)
		if err != nil {
			return ignoreNotFound(err)
		}
		target = Target{Group: g}
		payload["group"] = map[string]any{"group_name": g.Name, "group_path": g.Path, "group_id": g.ID, "full_path": g.FullPath}
	default:
		return nil
	}
	return db.WithTx(ctx, s.Client, func(ctx context.Context, _ *ent.Client) error {
		return s.Trigger(ctx, target, ResourceAccessTokenEvent, payload)
	})
}
