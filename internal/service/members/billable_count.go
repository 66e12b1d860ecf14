package members

import (
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/db"
)

// BillableCount is the number of users who take a seat in ns (the namespace listing's
// billable_members_count): for a group, the billable members of the group, its subgroups and
// their projects and of the groups invited to them, as the billable members listing counts
// them; for a personal namespace, its owner and the billable members of its projects. No
// permission check: the caller decides who may see the number.
func (s *Service) BillableCount(ctx context.Context, ns *ent.Namespace) (int, error) {
	seats, err := s.seats(ctx, ns)
	if err != nil {
		return 0, err
	}
	if ns.Kind == namespace.KindUser && ns.OwnerID != nil {
		if _, counted := seats[*ns.OwnerID]; !counted {
			owner, err := db.ClientFrom(ctx, s.client).User.Get(ctx, *ns.OwnerID)
			if err != nil && !ent.IsNotFound(err) {
				return 0, err
			}
			if owner != nil && billableUser(owner) {
				return len(seats) + 1, nil
			}
		}
	}
	return len(seats), nil
}
