package tokens

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
	"anvil/internal/service/users"
)

// CreateResourceToken handles POST /projects/:id/access_tokens and POST /groups/:id/access_tokens:
// it creates a bot user (user_type project_bot, no personal namespace) named after the token,
// makes it a member of the resource with the token's access level, and issues its token, in
// one transaction. The actor needs create_resource_access_tokens and may not grant a role
// above its own.
func (s *Service) CreateResourceToken(ctx context.Context, actor *authz.Actor, r Resource, in ResourceCreateInput) (*ResourceToken, string, error) {
	if err := checkResourceInput(&in); err != nil {
		return nil, "", err
	}
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return nil, "", err
	}
	if !t.manage {
		return nil, "", badRequest(fmt.Sprintf("User does not have permission to create %s access token", t.typ))
	}
	if authz.Level(*in.AccessLevel) > t.level {
		return nil, "", badRequest("Access level of the token contains permissions not held by the creating user")
	}
	attrs := tokenAttrs{Name: in.Name, Description: in.Description, Scopes: in.Scopes, ExpiresAt: in.ExpiresAt}
	if f := attrs.validate(); !f.empty() {
		return nil, "", badRequest(f.sentence())
	}
	var (
		tok    *ent.PersonalAccessToken
		secret string
	)
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		bot, err := s.createBot(ctx, actor, t, attrs.Name)
		if err != nil {
			return err
		}
		m := c.Member.Create().SetUserID(bot.ID).SetAccessLevel(*in.AccessLevel).SetCreatedByID(actor.UserID())
		if t.typ == ProjectResource {
			m.SetProjectID(t.id)
		} else {
			m.SetNamespaceID(t.id)
		}
		if err := m.Exec(ctx); err != nil {
			return err
		}
		if t.typ == ProjectResource {
			// The bot joins the project as any member does.
			if err := events.Record(ctx, c, events.Joined(t.id, bot.ID)); err != nil {
				return err
			}
		}
		tok, secret, err = s.insert(ctx, c, CreateInput{
			UserID: bot.ID, Name: attrs.Name, Description: in.Description, Scopes: in.Scopes, ExpiresAt: attrs.ExpiresAt,
		})
		return err
	})
	if err != nil {
		return nil, "", err
	}
	return &ResourceToken{PersonalAccessToken: tok, AccessLevel: *in.AccessLevel, ResourceType: t.typ, ResourceID: t.id}, secret, nil
}

// checkResourceInput applies the parameter rules (400 "<param> does not have a valid value")
// and defaults: Maintainer, and the longest lifetime.
func checkResourceInput(in *ResourceCreateInput) error {
	for _, sc := range in.Scopes {
		if !slices.Contains(ResourceBotScopes, sc) {
			return apperr.NotAllowedValue("scopes")
		}
	}
	if in.AccessLevel == nil {
		l := int(authz.Maintainer)
		in.AccessLevel = &l
	}
	switch authz.Level(*in.AccessLevel) {
	case authz.Guest, authz.Planner, authz.Reporter, authz.Developer, authz.Maintainer, authz.Owner:
	default:
		return apperr.NotAllowedValue("access_level")
	}
	if in.ExpiresAt == nil {
		d := today().AddDate(0, 0, MaxLifetimeDays)
		in.ExpiresAt = &d
	}
	return nil
}

// createBot makes the token's bot user, with GitLab's naming: username
// <type>_<id>_bot_<32 hex>, email <username>@noreply.<host>. Bots of external users are external.
func (s *Service) createBot(ctx context.Context, actor *authz.Actor, t *target, name string) (*ent.User, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	username := fmt.Sprintf("%s_%d_bot_%s", t.typ, t.id, hex.EncodeToString(b))
	in := users.CreateInput{
		Username: username, Name: name, Email: username + "@noreply." + s.host,
		UserType: BotType, SkipNamespace: true, ForceRandomPassword: true,
	}
	if actor.IsExternal() {
		ext := true
		in.External = &ext
	}
	if t.typ == ProjectResource {
		in.BotProjectID = &t.id
	} else {
		in.BotNamespaceID = &t.id
	}
	return s.users.Create(ctx, nil, in)
}
