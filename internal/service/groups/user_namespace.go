package groups

import (
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// FindUserNamespace returns the personal namespace with this id when actor may read it. GitLab
// lets only the namespace's owner and administrators read a user namespace (its owner_access
// rule), whatever its visibility says; here that is the namespace's admin ability, which only
// its owner and administrators hold. A missing namespace, a group, or one the actor may not read
// is 404 Namespace Not Found (GraphQL's node(id:) for Namespaces::UserNamespace ids).
func (s *Service) FindUserNamespace(ctx context.Context, actor *authz.Actor, id int) (*ent.Namespace, error) {
	ns, err := db.ClientFrom(ctx, s.client).Namespace.Query().
		Where(namespace.ID(id), namespace.KindEQ(namespace.KindUser)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Namespace")
	}
	if err != nil {
		return nil, err
	}
	if err := s.policy.Group(ctx, actor, ns, authz.AdminGroup); err != nil {
		if e, ok := apperr.As(err); ok && (e.Kind == apperr.KindNotFound || e.Kind == apperr.KindForbidden || e.Kind == apperr.KindUnauthorized) {
			return nil, apperr.NotFound("Namespace")
		}
		return nil, err
	}
	return ns, nil
}
