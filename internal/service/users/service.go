// Package users holds the user operations: create, find, list, update, delete, state changes
// and custom attributes. Every operation takes the acting user and checks it here.
package users

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/db"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Service is the user service.
type Service struct {
	client   *ent.Client
	settings *settings.Service
	// hasher hashes and checks passwords; dummy is what sign-ins without a real hash compare
	// against.
	hasher Hasher
	dummy  dummyHash
	// projects takes part in deleting a user's projects: the other domains' rows go in the
	// deletion's transaction and the repositories after it.
	projects ProjectCleanup
}

// ProjectCleanup is what deleting a user's projects needs of the project domain
// (projects.Service).
type ProjectCleanup interface {
	// DeleteDependents removes the rows other domains keep for p, in the transaction of c.
	DeleteDependents(ctx context.Context, c *ent.Client, p *ent.Project) error
	// RemoveRepository queues the removal of p's repository in the deletion's transaction.
	RemoveRepository(ctx context.Context, p *ent.Project) error
}

// New returns the user service; p removes deleted users' projects with the project domain's
// clean-up, h hashes and checks passwords (Bcrypt in production).
func New(client *ent.Client, st *settings.Service, p ProjectCleanup, h Hasher) *Service {
	wire.Require("users", wire.D("client", client), wire.D("settings", st), wire.D("projects", p), wire.D("hasher", h))
	return &Service{client: client, settings: st, hasher: h, projects: p}
}

// usernameRe is GitLab's namespace path rule: letters, digits, '_', '-', '.'; not starting with
// '-' or ending with '.', '.git' or '.atom'.
var usernameRe = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_\-\.]*$`)

// ValidPath reports whether s is a valid user or group path.
func ValidPath(s string) bool {
	return len(s) <= 255 && usernameRe.MatchString(s) && !strings.HasSuffix(s, ".") &&
		!strings.HasSuffix(s, ".git") && !strings.HasSuffix(s, ".atom") && !strings.Contains(s, "..")
}

// HashPassword hashes a password with the service's hasher.
func (s *Service) HashPassword(pw string) (string, error) { return s.hasher.Hash(pw) }

// CheckPassword reports whether pw is the user's password (bcrypt, as every stored hash is).
// Sign-ins go through PasswordSignIn, which also counts failures and locks accounts.
func CheckPassword(u *ent.User, pw string) bool { return Bcrypt{}.Compare(u.PasswordHash, pw) }

// Get returns a user by id, without permission checks.
func (s *Service) Get(ctx context.Context, id int) (*ent.User, error) {
	u, err := db.ClientFrom(ctx, s.client).User.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("User")
	}
	return u, err
}

// FindByRef finds a user by id (digits) or username (case-insensitive).
func (s *Service) FindByRef(ctx context.Context, ref string) (*ent.User, error) {
	if id, err := strconv.Atoi(ref); err == nil {
		return s.Get(ctx, id)
	}
	u, err := db.ClientFrom(ctx, s.client).User.Query().Where(user.UsernameEqualFold(ref)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("User")
	}
	return u, err
}

// nonInternalTypes are the user types of people and of the bots behind access tokens; every
// other type (ghost, support and alert bots, ...) is an internal user.
var nonInternalTypes = []string{"human", "project_bot", "group_bot", "service_account"}

// projectBotTypes are the bot users of project and group access tokens (GitLab shows both as
// project_bot).
var projectBotTypes = []string{"project_bot", "group_bot"}

// IsInternal reports whether u is an internal user, which cannot be blocked or deactivated.
func IsInternal(u *ent.User) bool { return !slices.Contains(nonInternalTypes, u.UserType) }
