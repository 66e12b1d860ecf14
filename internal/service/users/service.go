// Package users holds the user operations: create, find, list, update, delete, state changes
// and custom attributes. Every operation takes the acting user and checks it here.
package users

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/settings"

	"golang.org/x/crypto/bcrypt"
)

// Service is the user service.
type Service struct {
	client   *ent.Client
	settings *settings.Service
	// BcryptCost is the password hashing cost; tests lower it.
	BcryptCost int
}

// New returns the user service.
func New(client *ent.Client, st *settings.Service) *Service {
	return &Service{client: client, settings: st, BcryptCost: bcrypt.DefaultCost}
}

// usernameRe is GitLab's namespace path rule: letters, digits, '_', '-', '.'; not starting with
// '-' or ending with '.', '.git' or '.atom'.
var usernameRe = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_\-\.]*$`)

// ValidPath reports whether s is a valid user or group path.
func ValidPath(s string) bool {
	return len(s) <= 255 && usernameRe.MatchString(s) && !strings.HasSuffix(s, ".") &&
		!strings.HasSuffix(s, ".git") && !strings.HasSuffix(s, ".atom") && !strings.Contains(s, "..")
}

// HashPassword hashes a password with bcrypt.
func (s *Service) HashPassword(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), s.BcryptCost)
	return string(h), err
}

// CheckPassword reports whether pw is the user's password.
func CheckPassword(u *ent.User, pw string) bool {
	return u.PasswordHash != "" && bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(pw)) == nil
}

// ValidatePassword applies the password rules: the instance minimum length, at most 128
// characters, not blank.
func (s *Service) ValidatePassword(ctx context.Context, pw string) error {
	var minLen int
	if err := s.settings.Get(ctx, "minimum_password_length", &minLen); err != nil || minLen < 8 {
		minLen = 8
	}
	switch {
	case strings.TrimSpace(pw) == "":
		return apperr.FieldError("password", "can't be blank")
	case len([]rune(pw)) < minLen:
		return apperr.FieldError("password", "is too short (minimum is "+strconv.Itoa(minLen)+" characters)")
	case len([]rune(pw)) > 128:
		return apperr.FieldError("password", "is too long (maximum is 128 characters)")
	}
	return nil
}

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

// CanRead reports whether the actor may see u at all (GitLab's read_user): everyone may,
// except that blocked-pending-approval and banned users are hidden from non-administrators.
func CanRead(a *authz.Actor, u *ent.User) bool {
	if a.IsAdmin() || a.UserID() == u.ID {
		return true
	}
	return u.State != user.StateBanned && u.State != user.StateBlockedPendingApproval
}

// namespaceTaken reports whether a top-level namespace already uses path.
func namespaceTaken(ctx context.Context, c *ent.Client, path string, exceptID int) (bool, error) {
	q := c.Namespace.Query().Where(namespace.FullPathEqualFold(path))
	if exceptID > 0 {
		q = q.Where(namespace.IDNEQ(exceptID))
	}
	return q.Exist(ctx)
}
