package tokens

import (
	"context"
	"fmt"
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
// Every resource token operation needs a signed-in user (401).
func (s *Service) resolve(ctx context.Context, actor *authz.Actor, r Resource) (*target, error) {
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
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
