package members

import (
	"context"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// Membership source types of GET /users/:id/memberships, as GitLab names its member sources.
const (
	SourceProject   = "Project"
	SourceNamespace = "Namespace"
)

// UserMemberships lists a user's direct memberships of groups and projects (administrators
// only: 401/403 otherwise), by membership id, with their sources loaded. sourceType
// (SourceProject or SourceNamespace) keeps one kind; empty keeps both. An unknown user is 404
// User Not Found. Expired memberships, which GitLab removes, are left out.
func (s *Service) UserMemberships(ctx context.Context, actor *authz.Actor, userID int, sourceType string, page pagination.Offset) (pagination.Result[*ent.Member], error) {
	res := pagination.Result[*ent.Member]{Page: page}
	if err := authz.UserAllowed(actor, nil, authz.AdminUsers); err != nil {
		return res, err
	}
	c := db.ClientFrom(ctx, s.client)
	exists, err := c.User.Query().Where(user.ID(userID)).Exist(ctx)
	if err != nil {
		return res, err
	}
	if !exists {
		return res, apperr.NotFound("User")
	}
	q := c.Member.Query().Where(member.UserID(userID), notExpired())
	switch sourceType {
	case SourceProject:
		q = q.Where(member.ProjectIDNotNil())
	case SourceNamespace:
		q = q.Where(member.NamespaceIDNotNil())
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	rows, err := q.Order(member.ByID()).WithNamespace().WithProject().Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	return res, nil
}
