package namespaces

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/groups"

	"entgo.io/ent/dialect/sql"
)

// Query returns the namespaces matching p that GET /namespaces lists for actor, unordered and
// unpaginated: every namespace for administrators; otherwise the actor's personal namespace
// and the groups it is a direct member of with at least Guest (Owner with OwnedOnly), as
// GitLab's User#namespaces. Anonymous callers get nothing (the route refuses them before).
func (s *Service) Query(ctx context.Context, actor *authz.Actor, p ListParams) (*ent.NamespaceQuery, error) {
	q := db.ClientFrom(ctx, s.client).Namespace.Query()
	if !actor.IsAdmin() {
		q = q.Where(ofUser(actor, p.OwnedOnly))
	}
	if p.TopLevelOnly {
		q = q.Where(namespace.ParentIDIsNil())
	}
	if pred := groups.Search(p.Search, p.FullPathSearch); pred != nil {
		q = q.Where(pred)
	}
	return q, nil
}

// ofUser keeps the actor's personal namespace and the groups it belongs to directly.
func ofUser(actor *authz.Actor, ownedOnly bool) predicate.Namespace {
	if actor.IsAnonymous() {
		return namespace.IDLT(0)
	}
	uid := actor.UserID()
	minLevel := authz.Guest
	if ownedOnly {
		minLevel = authz.Owner
	}
	memberships := []predicate.Member{
		member.UserID(uid), member.State("active"), member.AccessLevelGTE(int(minLevel)),
		member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGTE(today())),
	}
	return namespace.Or(
		namespace.And(namespace.KindEQ(namespace.KindUser), namespace.OwnerID(uid)),
		namespace.And(namespace.KindEQ(namespace.KindGroup),
			predicate.Namespace(db.In(namespace.FieldID, member.Table, member.FieldNamespaceID, selectors(memberships)...))),
	)
}

// selectors turns member predicates into the selector functions db.In takes.
func selectors(preds []predicate.Member) []func(*sql.Selector) {
	out := make([]func(*sql.Selector), len(preds))
	for i, p := range preds {
		out[i] = p
	}
	return out
}

// today is the first instant of the current UTC day: a membership lasts to the end of its
// expires_at day.
func today() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }
