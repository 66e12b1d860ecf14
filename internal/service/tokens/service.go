package tokens

import (
	"net/url"
	"slices"
	"time"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"
	"anvil/internal/service/users"
	"anvil/internal/service/wire"
)

// Scopes lists every token scope Anvil knows, in GitLab's spelling.
var Scopes = []string{
	"api", "read_api", "read_user", "create_runner", "manage_runner", "k8s_proxy", "self_rotate",
	"read_repository", "write_repository", "read_registry", "write_registry",
	"read_virtual_registry", "write_virtual_registry", "sudo", "admin_mode", "read_service_ping",
	"ai_features", "read_observability", "write_observability",
}

// adminScopes are the scopes GitLab reserves for administrators; bots never get them.
var adminScopes = []string{"sudo", "admin_mode", "read_service_ping"}

// SelfServiceScopes are the only scopes POST /user/personal_access_tokens may grant: a user
// cannot mint an api token for itself with a token.
var SelfServiceScopes = []string{"k8s_proxy", "self_rotate"}

// ResourceBotScopes are the scopes project and group access tokens may carry: every non-admin
// scope except read_user.
var ResourceBotScopes = func() []string {
	out := make([]string, 0, len(Scopes))
	for _, s := range Scopes {
		if s != "read_user" && !slices.Contains(adminScopes, s) {
			out = append(out, s)
		}
	}
	return out
}()

// MaxLifetimeDays is the longest a token may live: expires_at may be at most this many days
// ahead (GitLab's default limit, without the buffered 400-day flag).
const MaxLifetimeDays = 365

// DefaultLifetime is the expiry given to tokens created without expires_at.
const DefaultLifetime = MaxLifetimeDays * 24 * time.Hour

// RotationLifetime is the expiry of a rotated token when none is asked for.
const RotationLifetime = 7 * 24 * time.Hour

// Deps are the services the token service builds on.
type Deps struct {
	Users    *users.Service
	Policy   *authz.Policy
	Projects *projects.Service
	Groups   *groups.Service
	// ExternalURL is the instance's base URL; its host names bot users' email domain.
	ExternalURL string
}

// Service is the token service.
type Service struct {
	client   *ent.Client
	settings *settings.Service
	users    *users.Service
	policy   *authz.Policy
	projects *projects.Service
	groups   *groups.Service
	host     string
}

// New returns the token service.
func New(client *ent.Client, st *settings.Service, d Deps) *Service {
	wire.Require("tokens", wire.D("client", client), wire.D("settings", st), wire.D("users", d.Users),
		wire.D("policy", d.Policy), wire.D("projects", d.Projects), wire.D("groups", d.Groups))
	host := "localhost"
	if u, err := url.Parse(d.ExternalURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return &Service{
		client: client, settings: st, users: d.Users, policy: d.Policy,
		projects: d.Projects, groups: d.Groups, host: host,
	}
}

// today is the current UTC date at midnight, the unit token expiry is counted in.
func today() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }

// IsExpired reports whether t has expired: a token expires at the start (00:00 UTC) of its
// expires_at date, as GitLab's tokens do.
func IsExpired(t *ent.PersonalAccessToken, now time.Time) bool {
	return t.ExpiresAt != nil && !now.UTC().Before(*t.ExpiresAt)
}

// IsActive reports whether t can still be used.
func IsActive(t *ent.PersonalAccessToken) bool { return !t.Revoked && !IsExpired(t, time.Now()) }
