package tokens

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/personalaccesstoken"
	"anvil/ent/predicate"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/users"
)

// User types of token owners.
const (
	humanType = "human"
	// BotType is the user_type of the bot behind every project and group access token.
	BotType = "project_bot"
)

// ResourceType says whether a resource access token belongs to a project or a group.
type ResourceType string

// The resources that have access tokens.
const (
	ProjectResource ResourceType = "project"
	GroupResource   ResourceType = "group"
)

// Resource names a project or group by id or URL-decoded full path.
type Resource struct {
	Type ResourceType
	Ref  string
}

// ResourceToken is a project or group access token with what GitLab shows about its bot.
type ResourceToken struct {
	*ent.PersonalAccessToken
	// AccessLevel is the bot's role in the resource.
	AccessLevel int
	// ResourceType and ResourceID name the project or group.
	ResourceType ResourceType
	ResourceID   int
}

// ResourceCreateInput holds POST /projects/:id/access_tokens and POST /groups/:id/access_tokens.
type ResourceCreateInput struct {
	Name        string
	Description string
	Scopes      []string
	// ExpiresAt defaults to MaxLifetimeDays from today.
	ExpiresAt *time.Time
	// AccessLevel is the bot's role; nil means Maintainer.
	AccessLevel *int
}

// target is a resolved resource with the actor's standing in it.
type target struct {
	typ     ResourceType
	id      int
	project *ent.Project
	group   *ent.Namespace
	// level is the actor's effective role, capped at Owner (administrators count as Owner).
	level authz.Level
	// manage is whether the actor holds create_resource_access_tokens (Maintainer for
	// projects, Owner for groups, or administrator).
	manage bool
}

// resolve finds the resource (404 when the actor cannot read it) and the actor's standing.
func (s *Service) resolve(ctx context.Context, actor *authz.Actor, r Resource) (*target, error) {
	t := &target{typ: r.Type}
	var (
		level authz.Level
		err   error
	)
	switch r.Type {
	case ProjectResource:
		if t.project, err = s.projects.Find(ctx, actor, r.Ref, authz.ReadProject); err != nil {
			return nil, err
		}
		t.id = t.project.ID
		if level, _, err = s.policy.ProjectLevel(ctx, actor, t.project); err != nil {
			return nil, err
		}
		t.manage = authz.CanProject(actor, t.project, level, authz.CreateProjectToken)
	case GroupResource:
		if t.group, err = s.groups.Find(ctx, actor, r.Ref, authz.ReadGroup); err != nil {
			return nil, err
		}
		t.id = t.group.ID
		if level, _, err = s.policy.GroupLevel(ctx, actor, t.group); err != nil {
			return nil, err
		}
		t.manage = authz.CanGroup(actor, t.group, level, authz.CreateProjectToken)
	default:
		return nil, apperr.NotFound("")
	}
	t.level = min(level, authz.Owner)
	return t, nil
}

// memberOf is the predicate for memberships of the resource.
func (t *target) memberOf() predicate.Member {
	if t.typ == ProjectResource {
		return member.ProjectID(t.id)
	}
	return member.NamespaceID(t.id)
}

// tokensOf is the resource's bot tokens: tokens of project_bot users that are members of it, as
// GitLab's resource.bots.
func (s *Service) tokensOf(ctx context.Context, t *target) *ent.PersonalAccessTokenQuery {
	return db.ClientFrom(ctx, s.client).PersonalAccessToken.Query().Where(
		personalaccesstoken.Impersonation(false),
		personalaccesstoken.HasUserWith(user.UserType(BotType), user.HasMembershipsWith(t.memberOf())),
	)
}

// findResourceToken returns the resource's token with id ref, nil when there is none.
func (s *Service) findResourceToken(ctx context.Context, t *target, ref string) (*ent.PersonalAccessToken, error) {
	id, err := strconv.Atoi(ref)
	if err != nil {
		return nil, nil
	}
	tok, err := s.tokensOf(ctx, t).Where(personalaccesstoken.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return tok, err
}

// tokenNotFound is GitLab's not_found! with its sentence as the resource name.
func tokenNotFound(t *target, ref string) error {
	return apperr.NotFound(fmt.Sprintf("Could not find %s access token with token_id: %s", t.typ, ref))
}

// ResourceQuery returns the access tokens of a project or group, unordered, filtered by state
// (active, inactive or empty). Readers of the resource without the right to manage its
// tokens get 401, as in GitLab.
func (s *Service) ResourceQuery(ctx context.Context, actor *authz.Actor, r Resource, state string) (*ent.PersonalAccessTokenQuery, error) {
	t, err := s.manageable(ctx, actor, r)
	if err != nil {
		return nil, err
	}
	return byState(s.tokensOf(ctx, t), state), nil
}

// manageable resolves a resource whose tokens the actor may read: 404 when the resource is
// invisible, 401 when the actor may not manage its tokens.
func (s *Service) manageable(ctx context.Context, actor *authz.Actor, r Resource) (*target, error) {
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return nil, err
	}
	if !t.manage {
		return nil, apperr.Unauthorized()
	}
	return t, nil
}

// ListResource handles GET /projects/:id/access_tokens and GET /groups/:id/access_tokens.
func (s *Service) ListResource(ctx context.Context, actor *authz.Actor, r Resource, state string, page pagination.Offset) (pagination.Result[*ResourceToken], error) {
	var out pagination.Result[*ResourceToken]
	t, err := s.manageable(ctx, actor, r)
	if err != nil {
		return out, err
	}
	res, err := paginate(ctx, byState(s.tokensOf(ctx, t), state), "", page)
	if err != nil {
		return out, err
	}
	items, err := s.decorate(ctx, t, res.Items...)
	if err != nil {
		return out, err
	}
	return pagination.Result[*ResourceToken]{Items: items, Total: res.Total, Page: res.Page}, nil
}

// decorate adds each bot's role in the resource.
func (s *Service) decorate(ctx context.Context, t *target, toks ...*ent.PersonalAccessToken) ([]*ResourceToken, error) {
	ids := make([]int, 0, len(toks))
	for _, tok := range toks {
		ids = append(ids, tok.UserID)
	}
	levels := map[int]int{}
	if len(ids) > 0 {
		ms, err := db.ClientFrom(ctx, s.client).Member.Query().Where(member.UserIDIn(ids...), t.memberOf()).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			levels[m.UserID] = m.AccessLevel
		}
	}
	out := make([]*ResourceToken, 0, len(toks))
	for _, tok := range toks {
		out = append(out, &ResourceToken{PersonalAccessToken: tok, AccessLevel: levels[tok.UserID], ResourceType: t.typ, ResourceID: t.id})
	}
	return out, nil
}

// GetResource handles GET /projects/:id/access_tokens/:token_id (and the group route).
func (s *Service) GetResource(ctx context.Context, actor *authz.Actor, r Resource, tokenID string) (*ResourceToken, error) {
	t, err := s.manageable(ctx, actor, r)
	if err != nil {
		return nil, err
	}
	tok, err := s.findResourceToken(ctx, t, tokenID)
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, tokenNotFound(t, tokenID)
	}
	return s.decorateOne(ctx, t, tok)
}

func (s *Service) decorateOne(ctx context.Context, t *target, tok *ent.PersonalAccessToken) (*ResourceToken, error) {
	out, err := s.decorate(ctx, t, tok)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

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

// RevokeResource handles DELETE /projects/:id/access_tokens/:token_id (and the group route).
// The bot keeps its membership, as in GitLab, so the revoked token still lists as inactive.
func (s *Service) RevokeResource(ctx context.Context, actor *authz.Actor, r Resource, tokenID string) error {
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return err
	}
	tok, err := s.findResourceToken(ctx, t, tokenID)
	if err != nil {
		return err
	}
	if tok == nil {
		return tokenNotFound(t, tokenID)
	}
	if !t.manage {
		bot, err := s.users.Get(ctx, tok.UserID)
		if err != nil {
			return err
		}
		return badRequest(actor.User.Name + " cannot delete " + bot.Name)
	}
	return s.revoke(ctx, tok)
}

// RotateResource handles POST /projects/:id/access_tokens/:token_id/rotate (and the group
// route). Without the right to manage tokens, or for an unknown token, only administrators
// learn it does not exist (404); others get 401. A token whose bot outranks the actor cannot
// be rotated by it.
func (s *Service) RotateResource(ctx context.Context, actor *authz.Actor, r Resource, tokenID string, in RotateInput) (*ResourceToken, string, error) {
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return nil, "", err
	}
	var tok *ent.PersonalAccessToken
	if t.manage {
		if tok, err = s.findResourceToken(ctx, t, tokenID); err != nil {
			return nil, "", err
		}
	}
	if tok == nil {
		return nil, "", hiddenToken(actor)
	}
	cur, err := s.decorateOne(ctx, t, tok)
	if err != nil {
		return nil, "", err
	}
	if !actor.IsAdmin() && authz.Level(cur.AccessLevel) > t.level {
		return nil, "", badRequest("Not eligible to rotate token with access level higher than the user")
	}
	return s.rotateResource(ctx, t, tok, in)
}

// RotateResourceSelf handles POST /projects/:id/access_tokens/self/rotate (and the group
// route): a bot rotates the token it authenticated with. Non-bots get 405; a token of another
// resource gets 401.
func (s *Service) RotateResourceSelf(ctx context.Context, actor *authz.Actor, r Resource, in RotateInput) (*ResourceToken, string, error) {
	if actor.Token == nil || actor.IsAnonymous() || actor.User.UserType != BotType {
		return nil, "", apperr.Message(http.StatusMethodNotAllowed, "405 Method Not Allowed")
	}
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return nil, "", err
	}
	tok, err := s.findResourceToken(ctx, t, strconv.Itoa(actor.Token.ID))
	if err != nil {
		return nil, "", err
	}
	if tok == nil {
		return nil, "", apperr.Unauthorized()
	}
	return s.rotateResource(ctx, t, tok, in)
}

func (s *Service) rotateResource(ctx context.Context, t *target, tok *ent.PersonalAccessToken, in RotateInput) (*ResourceToken, string, error) {
	next, secret, err := s.rotate(ctx, tok, in)
	if err != nil {
		return nil, "", err
	}
	out, err := s.decorateOne(ctx, t, next)
	if err != nil {
		return nil, "", err
	}
	return out, secret, nil
}
