package members

import (
	"context"
	"strconv"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// botType is the user_type of project and group access token users.
const botType = "project_bot"

// authorizeGrant checks that the actor may add members at level to the source: managing
// members, and for the Owner role, managing owners. Both refusals are 403.
func (s *Service) authorizeGrant(ctx context.Context, actor *authz.Actor, src *Source, level int) error {
	if authz.Level(level) == authz.Owner {
		if err := s.can(ctx, actor, src, authz.ManageOwners, authz.ManageOwners); err != nil {
			return err
		}
	}
	return s.can(ctx, actor, src, authz.AdminGroupMember, authz.AdminProjectMember)
}

// authorizeChange checks that the actor may update (newLevel set) or remove (newLevel nil) the
// membership m, with GitLab's member policy: a group's last owner and a personal project's
// owner cannot be changed or removed; members may leave; bots are managed through their
// tokens; only those who manage owners touch the Owner role.
func (s *Service) authorizeChange(ctx context.Context, actor *authz.Actor, src *Source, m *ent.Member, newLevel *int) error {
	if src.Kind == GroupKind {
		last, err := s.lastOwner(ctx, src.Group, m)
		if err != nil {
			return err
		}
		if last {
			return apperr.Forbidden("")
		}
	} else if ns := src.Project.Edges.Namespace; ns.Kind == namespace.KindUser && ns.OwnerID != nil && *ns.OwnerID == m.UserID {
		return apperr.Forbidden("")
	}
	removingSelf := newLevel == nil && actor.UserID() == m.UserID
	if !removingSelf {
		if m.Edges.User != nil && m.Edges.User.UserType == botType {
			return apperr.Forbidden("")
		}
		if err := s.can(ctx, actor, src, authz.AdminGroupMember, authz.AdminProjectMember); err != nil {
			return err
		}
	}
	if authz.Level(m.AccessLevel) == authz.Owner || (newLevel != nil && authz.Level(*newLevel) == authz.Owner) {
		return s.can(ctx, actor, src, authz.ManageOwners, authz.ManageOwners)
	}
	return nil
}

// lastOwner reports whether m is the only Owner membership of the group and its ancestors
// (bots aside): removing or demoting it would leave the group without an owner.
func (s *Service) lastOwner(ctx context.Context, group *ent.Namespace, m *ent.Member) (bool, error) {
	if authz.Level(m.AccessLevel) != authz.Owner {
		return false, nil
	}
	owners, err := s.ownerIDs(ctx, group)
	if err != nil {
		return false, err
	}
	return len(owners) == 1 && owners[0] == m.UserID, nil
}

// ownerIDs returns the users holding Owner in the group or its ancestors, bots aside.
func (s *Service) ownerIDs(ctx context.Context, group *ent.Namespace) ([]int, error) {
	chain, err := s.ancestors(ctx, group)
	if err != nil {
		return nil, err
	}
	return db.ClientFrom(ctx, s.client).Member.Query().
		Where(member.NamespaceIDIn(nsIDs(chain)...), member.AccessLevel(int(authz.Owner)), notExpired(),
			member.HasUserWith(user.UserTypeNEQ(botType))).
		Unique(true).Select(member.FieldUserID).Ints(ctx)
}

// lockHierarchy serialises owner changes in a group hierarchy until the transaction ends: a
// no-op update takes the top-level group's row lock on PostgreSQL (SQLite transactions already
// hold the write lock), so two owners removing each other cannot both pass the last-owner check.
func lockHierarchy(ctx context.Context, c *ent.Client, group *ent.Namespace) error {
	top := authz.Ancestors(group.FullPath)[0]
	_, err := c.ExecContext(ctx, "UPDATE "+namespace.Table+" SET "+namespace.FieldFullPath+" = "+namespace.FieldFullPath+
		" WHERE "+namespace.FieldFullPath+" = $1", top)
	return err
}

// recheckLastOwner repeats the last-owner check inside the transaction, after lockHierarchy.
func (s *Service) recheckLastOwner(ctx context.Context, c *ent.Client, group *ent.Namespace, m *ent.Member) error {
	if authz.Level(m.AccessLevel) != authz.Owner {
		return nil
	}
	if err := lockHierarchy(ctx, c, group); err != nil {
		return err
	}
	last, err := s.lastOwner(ctx, group, m)
	if err != nil {
		return err
	}
	if last {
		return apperr.Forbidden("")
	}
	return nil
}

// validate applies the membership validations GitLab reports as {"message":{field:[...]}}:
// expiry not in the past, a known access level, no level below one inherited from an ancestor
// group, and bots in one place only. existing is the row being updated, nil on create.
func (s *Service) validate(ctx context.Context, src *Source, u *ent.User, level int, expires *time.Time, existing *ent.Member) (map[string][]string, error) {
	fields := map[string][]string{}
	if expires != nil && expires.Before(today()) {
		fields["expires_at"] = append(fields["expires_at"], "cannot be a date in the past")
	}
	if !validLevel(src, level) {
		fields["access_level"] = append(fields["access_level"], "is not included in the list")
		if authz.Level(level) == authz.Minimal && src.Kind == GroupKind {
			fields["access_level"] = append(fields["access_level"], "supported on top level groups only")
		}
	}
	inherited, group, err := s.highestAncestorMembership(ctx, src, u.ID)
	if err != nil {
		return nil, err
	}
	if inherited != nil && inherited.AccessLevel > level {
		fields["access_level"] = append(fields["access_level"],
			"should be greater than or equal to "+HumanAccess(inherited.AccessLevel)+" inherited membership from group "+group.Name)
	}
	if u.UserType == botType {
		q := db.ClientFrom(ctx, s.client).Member.Query().Where(member.UserID(u.ID))
		if existing != nil {
			q = q.Where(member.IDNEQ(existing.ID))
		}
		taken, err := q.Exist(ctx)
		if err != nil {
			return nil, err
		}
		if taken {
			fields["user_id"] = append(fields["user_id"], "project bots cannot be added to other groups / projects")
		}
	}
	if len(fields) == 0 {
		return nil, nil
	}
	return fields, nil
}

// highestAncestorMembership returns the user's highest membership of the groups above the
// source (a group's ancestors; a project's namespace and its ancestors) and its group.
func (s *Service) highestAncestorMembership(ctx context.Context, src *Source, userID int) (*ent.Member, *ent.Namespace, error) {
	ns := src.Namespace()
	if ns.Kind != namespace.KindGroup {
		return nil, nil, nil
	}
	chain, err := s.ancestors(ctx, ns)
	if err != nil {
		return nil, nil, err
	}
	if src.Kind == GroupKind {
		chain = chain[:len(chain)-1]
	}
	if len(chain) == 0 {
		return nil, nil, nil
	}
	m, err := db.ClientFrom(ctx, s.client).Member.Query().
		Where(member.UserID(userID), member.NamespaceIDIn(nsIDs(chain)...), notExpired()).
		Order(member.ByAccessLevel(), member.ByID()).All(ctx)
	if err != nil || len(m) == 0 {
		return nil, nil, err
	}
	top := m[len(m)-1]
	for _, n := range chain {
		if top.NamespaceID != nil && n.ID == *top.NamespaceID {
			return top, n, nil
		}
	}
	return nil, nil, nil
}

// findUser resolves user_id (digits) or username: 404 User Not Found.
func (s *Service) findUser(ctx context.Context, id, username string) (*ent.User, error) {
	q := db.ClientFrom(ctx, s.client).User.Query()
	if username != "" {
		q = q.Where(user.UsernameEqualFold(username))
	} else {
		n, err := strconv.Atoi(id)
		if err != nil {
			return nil, apperr.NotFound("User")
		}
		q = q.Where(user.ID(n))
	}
	u, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("User")
	}
	return u, err
}

// fieldMessages turns validation failures into Rails full messages ("Access level is not
// included in the list"), as bulk adds report them.
func fieldMessages(fields map[string][]string) []string {
	var out []string
	for _, f := range []string{"expires_at", "access_level", "user_id"} {
		for _, msg := range fields[f] {
			out = append(out, humanAttribute(f)+" "+msg)
		}
	}
	return out
}

func humanAttribute(field string) string {
	switch field {
	case "expires_at":
		return "Expires at"
	case "access_level":
		return "Access level"
	}
	return "User"
}
