package containerregistry

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/registry"
)

// Credentials are who asks for a registry token and what their credentials allow (GitLab's
// authentication abilities): an account password allows everything, an access token what its
// scopes say, no credentials reading public images.
type Credentials struct {
	Actor     *authz.Actor
	Abilities []authz.Ability
}

// The authentication abilities of each kind of credentials, as GitLab's Gitlab::Auth gives them.
var (
	readAbilities = []authz.Ability{authz.ReadContainerImage}
	fullAbilities = []authz.Ability{authz.ReadContainerImage, authz.CreateContainerImage,
		authz.UpdateContainerImage, authz.DestroyContainerImage, authz.AdminContainerImage}
	scopeAbilities = map[string][]authz.Ability{
		"api":            fullAbilities,
		"read_api":       readAbilities,
		"read_registry":  readAbilities,
		"write_registry": {authz.CreateContainerImage},
	}
)

// AnonymousCredentials are a request without credentials: it may pull public images.
func AnonymousCredentials() Credentials {
	return Credentials{Actor: authz.Anonymous, Abilities: readAbilities}
}

// PasswordCredentials are a user who signed in with the account password: everything the
// user's roles allow.
func PasswordCredentials(a *authz.Actor) Credentials {
	return Credentials{Actor: a, Abilities: fullAbilities}
}

// TokenCredentials are a user signed in with an access token of the given scopes.
func TokenCredentials(a *authz.Actor, scopes []string) Credentials {
	var abilities []authz.Ability
	for _, sc := range scopes {
		for _, ab := range scopeAbilities[sc] {
			if !slices.Contains(abilities, ab) {
				abilities = append(abilities, ab)
			}
		}
	}
	return Credentials{Actor: a, Abilities: abilities}
}

// ErrDenied refuses a token request outright (GitLab's DENIED "access forbidden"): credentials
// that allow nothing in the registry, or an anonymous request that names no scope.
var ErrDenied = errors.New("access forbidden")

// actionAbility is the project ability each action of a repository scope needs (and the
// authentication ability the credentials must carry).
var actionAbility = map[string]authz.Ability{
	"pull":   authz.ReadContainerImage,
	"push":   authz.CreateContainerImage,
	"delete": authz.DestroyContainerImage,
	"*":      authz.AdminContainerImage,
}

// defaultTokenTTL is container_registry_token_expire_delay's default (minutes).
const defaultTokenTTL = 5

// IssueToken answers GET /jwt/auth: a registry bearer token granting, of each requested scope
// ("repository:<image path>:<actions>", "registry:catalog:*"), the actions the caller may take
// now, decided by the project's container_registry_access_level and the caller's role through
// the policy. Actions the caller may not take are left out, not refused, as GitLab does: the
// registry then answers the client with insufficient_scope.
func (s *Service) IssueToken(ctx context.Context, c Credentials, scopes []string) (string, error) {
	if len(c.Abilities) == 0 {
		return "", ErrDenied
	}
	if c.Actor.IsAnonymous() && len(scopes) == 0 {
		return "", ErrDenied
	}
	var access []registry.Access
	for _, sc := range scopes {
		a, err := s.grant(ctx, c, sc)
		if err != nil {
			return "", err
		}
		if a != nil {
			access = append(access, *a)
		}
	}
	ttl := defaultTokenTTL
	if err := s.Settings.Get(ctx, "container_registry_token_expire_delay", &ttl); err != nil || ttl <= 0 {
		ttl = defaultTokenTTL
	}
	subject := ""
	if !c.Actor.IsAnonymous() {
		subject = c.Actor.User.Username
	}
	return s.Registry.Keys().Sign(registry.TokenClaims{Subject: subject, Access: access, TTL: time.Duration(ttl) * time.Minute})
}

// grant decides one scope; nil when nothing of it is granted.
func (s *Service) grant(ctx context.Context, c Credentials, scope string) (*registry.Access, error) {
	typ, rest, ok := strings.Cut(scope, ":")
	if !ok {
		return nil, nil
	}
	name, actionList, ok := strings.Cut(rest, ":")
	if !ok {
		return nil, nil
	}
	actions := strings.Split(actionList, ",")
	switch typ {
	case "registry":
		if c.Actor.IsAdmin() && name == "catalog" && len(actions) == 1 && actions[0] == "*" {
			return &registry.Access{Type: "registry", Name: "catalog", Actions: []string{"*"}}, nil
		}
		return nil, nil
	case "repository":
		return s.grantRepository(ctx, c, name, actions)
	}
	return nil, nil
}

// grantRepository keeps the actions on the image path the caller may take.
func (s *Service) grantRepository(ctx context.Context, c Credentials, path string, actions []string) (*registry.Access, error) {
	p, _, err := s.projectOf(ctx, path)
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	level, _, err := s.Policy.ProjectLevel(ctx, c.Actor, p)
	if err != nil {
		return nil, err
	}
	var granted []string
	for _, action := range actions {
		ability, ok := actionAbility[action]
		if !ok || slices.Contains(granted, action) || !slices.Contains(c.Abilities, ability) {
			continue
		}
		if authz.CanProject(c.Actor, p, level, ability) {
			granted = append(granted, action)
		}
	}
	if len(granted) == 0 {
		return nil, nil
	}
	return &registry.Access{Type: "repository", Name: path, Actions: granted}, nil
}
