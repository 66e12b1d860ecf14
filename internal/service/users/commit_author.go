package users

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// CommitAuthor returns the user a commit's author email belongs to, as GitLab links a commit to
// its author (User.find_by_any_email with confirmed emails): the user whose confirmed email, or
// whose commit email, it is. It returns nil when no user has the email or the actor may not see
// that user (CanRead). The email itself is no secret here: it is written in the commit.
func (s *Service) CommitAuthor(ctx context.Context, actor *authz.Actor, email string) (*ent.User, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return nil, nil
	}
	u, err := db.ClientFrom(ctx, s.client).User.Query().
		Where(user.Or(
			user.And(user.EmailEqualFold(email), user.ConfirmedAtNotNil()),
			user.CommitEmailEqualFold(email),
		)).
		Order(user.ByID()).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !authz.CanUser(actor, u, authz.ReadUser) {
		return nil, nil
	}
	return u, nil
}
