package members

import (
	"context"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/project"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
)

// inviteLimit is GitLab's cap on users added in one request.
const inviteLimit = 100

// Add makes one user a direct member of the source. As in GitLab: 404 User Not Found for an
// unknown user, 409 Member already exists, 403 unless the actor manages members (and owners,
// for the Owner role), then 400 with the validation failures.
func (s *Service) Add(ctx context.Context, actor *authz.Actor, ref Ref, in AddInput) (*Entry, error) {
	src, err := s.resolve(ctx, actor, ref, false)
	if err != nil {
		return nil, err
	}
	u, err := s.findUser(ctx, in.UserID, in.Username)
	if err != nil {
		return nil, err
	}
	existing, err := s.existing(ctx, src, u.ID)
	if err != nil {
		return nil, err
	}
	if existing != nil && !stale(existing) {
		return nil, apperr.Conflict("Member already exists")
	}
	if err := s.authorizeGrant(ctx, actor, src, in.AccessLevel); err != nil {
		return nil, err
	}
	fields, err := s.validate(ctx, src, u, in.AccessLevel, in.ExpiresAt, nil)
	if err != nil {
		return nil, err
	}
	if fields != nil {
		return nil, apperr.Validation(fields)
	}
	var m *ent.Member
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		var err error
		m, err = s.create(ctx, c, src, u, actor, in.AccessLevel, in.ExpiresAt, existing)
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, apperr.Conflict("Member already exists")
	}
	if err != nil {
		return nil, err
	}
	m.Edges.User = u
	return &Entry{Member: m, User: u, AccessLevel: m.AccessLevel, CreatedBy: actor.User}, nil
}

// existing returns any row of the user on the source, expired or Minimal Access included.
func (s *Service) existing(ctx context.Context, src *Source, userID int) (*ent.Member, error) {
	m, err := db.ClientFrom(ctx, s.client).Member.Query().Where(src.direct(), member.UserID(userID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return m, err
}

// stale reports whether a row has expired: GitLab would have purged it, so it is replaced.
func stale(m *ent.Member) bool { return m.ExpiresAt != nil && m.ExpiresAt.Before(today()) }

// create inserts a membership, replacing a stale row of the same user.
func (s *Service) create(ctx context.Context, c *ent.Client, src *Source, u *ent.User, actor *authz.Actor, level int, expires *time.Time, old *ent.Member) (*ent.Member, error) {
	if old != nil {
		if err := c.Member.DeleteOneID(old.ID).Exec(ctx); err != nil {
			return nil, err
		}
	}
	cr := c.Member.Create().SetUserID(u.ID).SetAccessLevel(level).SetNillableExpiresAt(expires)
	if actor.User != nil {
		cr.SetCreatedByID(actor.User.ID)
	}
	if src.Kind == GroupKind {
		cr.SetNamespaceID(src.Group.ID)
	} else {
		cr.SetProjectID(src.Project.ID)
	}
	m, err := cr.Save(ctx)
	if err != nil || !joinsProject(src, u) {
		return m, err
	}
	return m, events.Record(ctx, c, events.Joined(src.Project.ID, u.ID))
}

// joinsProject reports whether adding u to src is a "joined" event: GitLab records one for
// project memberships only, and none for the holder of a personal project's namespace.
func joinsProject(src *Source, u *ent.User) bool {
	if src.Kind != ProjectKind {
		return false
	}
	ns := src.Project.Edges.Namespace
	return ns == nil || ns.OwnerID == nil || *ns.OwnerID != u.ID
}

// AddMany adds or updates several users at once (comma-separated user_id or username), as
// GitLab's bulk path does: unknown ids are skipped, existing members get the new level, and
// failures are reported per user in the result rather than as an HTTP error.
func (s *Service) AddMany(ctx context.Context, actor *authz.Actor, ref Ref, in AddManyInput) (*AddManyResult, error) {
	src, err := s.resolve(ctx, actor, ref, false)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeGrant(ctx, actor, src, in.AccessLevel); err != nil {
		return nil, err
	}
	invites := uniq(append(append([]string{}, in.UserIDs...), in.Usernames...))
	switch {
	case len(invites) == 0:
		return &AddManyResult{Status: "error", Message: "No users specified."}, nil
	case len(invites) > inviteLimit:
		return &AddManyResult{Status: "error", Message: "Too many users specified (limit is " + strconv.Itoa(inviteLimit) + ")"}, nil
	}
	users, err := s.usersFor(ctx, in.UserIDs, in.Usernames)
	if err != nil {
		return nil, err
	}
	var errs []string
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if src.Kind == GroupKind {
			// Updates of existing owners below check the last owner under this lock.
			if err := lockHierarchy(ctx, c, src.Group); err != nil {
				return err
			}
		}
		for _, u := range users {
			msgs, err := s.upsert(ctx, c, actor, src, u, in)
			if err != nil {
				return err
			}
			if len(msgs) > 0 {
				errs = append(errs, u.Username+": "+toSentence(msgs))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return &AddManyResult{Status: "error", Message: toSentence(errs)}, nil
	}
	return &AddManyResult{Status: "success"}, nil
}

// upsert adds u or updates its membership for a bulk add, returning the user's failures.
func (s *Service) upsert(ctx context.Context, c *ent.Client, actor *authz.Actor, src *Source, u *ent.User, in AddManyInput) ([]string, error) {
	old, err := s.existing(ctx, src, u.ID)
	if err != nil {
		return nil, err
	}
	if old != nil && !stale(old) {
		old.Edges.User = u
		level := in.AccessLevel
		if err := s.authorizeChange(ctx, actor, src, old, &level); err != nil {
			if isDenied(err) {
				return []string{"not authorized to update member"}, nil
			}
			return nil, err
		}
	}
	var current *ent.Member
	if old != nil && !stale(old) {
		current = old
	}
	fields, err := s.validate(ctx, src, u, in.AccessLevel, in.ExpiresAt, current)
	if err != nil || fields != nil {
		return fieldMessages(fields), err
	}
	if current != nil {
		return nil, c.Member.UpdateOneID(current.ID).SetAccessLevel(in.AccessLevel).
			SetNillableExpiresAt(in.ExpiresAt).Exec(ctx)
	}
	_, err = s.create(ctx, c, src, u, actor, in.AccessLevel, in.ExpiresAt, old)
	return nil, err
}

// usersFor loads the users named by ids (digits only; other entries are ignored) and usernames.
func (s *Service) usersFor(ctx context.Context, ids, usernames []string) ([]*ent.User, error) {
	var nums []int
	for _, id := range ids {
		if n, err := strconv.Atoi(strings.TrimSpace(id)); err == nil {
			nums = append(nums, n)
		}
	}
	var names []string
	for _, n := range usernames {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return db.ClientFrom(ctx, s.client).User.Query().
		Where(user.Or(user.IDIn(nums...), user.UsernameIn(names...))).Order(user.ByID()).All(ctx)
}

func uniq(in []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(in))
	for _, v := range in {
		if v = strings.TrimSpace(v); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Update changes a direct member's access level and expiry: 404 Not found, 403 under the
// member policy, 400 with validation failures.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref Ref, userID int, in UpdateInput) (*Entry, error) {
	src, err := s.resolve(ctx, actor, ref, false)
	if err != nil {
		return nil, err
	}
	m, err := s.directMember(ctx, src, userID)
	if err != nil {
		return nil, err
	}
	level := in.AccessLevel
	if err := s.authorizeChange(ctx, actor, src, m, &level); err != nil {
		return nil, err
	}
	expires := m.ExpiresAt
	if in.ExpiresAt.Given() {
		expires = in.ExpiresAt.Ptr()
	}
	fields, err := s.validate(ctx, src, m.Edges.User, level, expires, m)
	if err != nil {
		return nil, err
	}
	if fields != nil {
		return nil, apperr.Validation(fields)
	}
	var saved *ent.Member
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if src.Kind == GroupKind && authz.Level(level) != authz.Owner {
			if err := s.recheckLastOwner(ctx, c, src.Group, m); err != nil {
				return err
			}
		}
		up := c.Member.UpdateOneID(m.ID).SetAccessLevel(level)
		if expires == nil {
			up.ClearExpiresAt()
		} else {
			up.SetExpiresAt(*expires)
		}
		var err error
		saved, err = up.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	saved.Edges.User = m.Edges.User
	e := &Entry{Member: saved, User: saved.Edges.User, AccessLevel: saved.AccessLevel}
	return e, s.decorate(ctx, []*Entry{e}, false, nil)
}

// Remove deletes a direct member and, for groups unless opts.SkipSubresources, the user's
// memberships of the group's subgroups and projects. Members may remove themselves; a group's
// last owner cannot be removed (403).
func (s *Service) Remove(ctx context.Context, actor *authz.Actor, ref Ref, userID int, opts RemoveOptions) error {
	src, err := s.resolve(ctx, actor, ref, false)
	if err != nil {
		return err
	}
	m, err := s.directMember(ctx, src, userID)
	if err != nil {
		return err
	}
	if opts.UnmodifiedSince != nil && m.UpdatedAt.Truncate(time.Second).After(*opts.UnmodifiedSince) {
		return apperr.PreconditionFailed()
	}
	if err := s.authorizeChange(ctx, actor, src, m, nil); err != nil {
		return err
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if src.Kind == GroupKind {
			if err := s.recheckLastOwner(ctx, c, src.Group, m); err != nil {
				return err
			}
		}
		if err := c.Member.DeleteOneID(m.ID).Exec(ctx); err != nil {
			return err
		}
		if src.Kind == ProjectKind {
			if err := s.left(ctx, m.UserID, &src.Project.ID, nil); err != nil {
				return err
			}
			return events.Record(ctx, c, events.Left(src.Project.ID, m.UserID, stale(m)))
		}
		if err := s.left(ctx, m.UserID, nil, &src.Group.ID); err != nil {
			return err
		}
		if opts.SkipSubresources {
			return nil
		}
		return s.removeBelow(ctx, c, src.Group, userID, false)
	})
}

// removeBelow deletes the user's memberships of the group's descendants (and of the group
// itself when self is true) and of their projects.
func (s *Service) removeBelow(ctx context.Context, c *ent.Client, group *ent.Namespace, userID int, self bool) error {
	ids, err := s.hierarchy(ctx, group)
	if err != nil {
		return err
	}
	groups := ids[:0:0]
	for _, id := range ids {
		if self || id != group.ID {
			groups = append(groups, id)
		}
	}
	// The project memberships that end are "left" events (GitLab destroys each membership).
	left, err := c.Member.Query().Where(member.UserID(userID), member.HasProjectWith(project.NamespaceIDIn(ids...))).All(ctx)
	if err != nil {
		return err
	}
	_, err = c.Member.Delete().Where(member.UserID(userID), member.Or(
		member.NamespaceIDIn(groups...),
		member.HasProjectWith(project.NamespaceIDIn(ids...)),
	)).Exec(ctx)
	if err != nil {
		return err
	}
	entries := make([]events.Entry, 0, len(left))
	for _, m := range left {
		entries = append(entries, events.Left(*m.ProjectID, m.UserID, stale(m)))
	}
	return events.Record(ctx, c, entries...)
}
