package members

import (
	"context"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/predicate"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// Query returns the direct members of p.Source that the actor may list, filtered by p and
// unordered: 404 when the source is invisible, 403 when its members are hidden from the actor.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, p ListParams) (*ent.MemberQuery, error) {
	src, err := s.resolve(ctx, actor, p.Source, true)
	if err != nil {
		return nil, err
	}
	return s.directQuery(ctx, src, p), nil
}

// directQuery is the filtered query of a source's own membership rows.
func (s *Service) directQuery(ctx context.Context, src *Source, p ListParams) *ent.MemberQuery {
	q := db.ClientFrom(ctx, s.client).Member.Query().Where(src.direct(), visibleDirect(src))
	q = byUsers(q, p)
	if len(p.SkipUsers) > 0 {
		q = q.Where(member.UserIDNotIn(p.SkipUsers...))
	}
	return q
}

// byUsers applies the per-user filters: query and user_ids.
func byUsers(q *ent.MemberQuery, p ListParams) *ent.MemberQuery {
	if p.Query != "" {
		q = q.Where(member.HasUserWith(userSearch(p.Query)))
	}
	if p.UserIDs != nil {
		q = q.Where(member.UserIDIn(p.UserIDs...))
	}
	return q
}

// userSearch matches GitLab's user search: name or username containing the term, or the exact
// public email.
func userSearch(term string) predicate.User {
	return user.Or(db.ContainsFold(user.FieldName, term), db.ContainsFold(user.FieldUsername, term), user.PublicEmailEqualFold(term))
}

// List returns one page of the direct members, by membership id (with query=, as GitLab's user
// search orders: exact matches first, then by name).
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, page pagination.Offset) (pagination.Result[*Entry], error) {
	q, err := s.Query(ctx, actor, p)
	if err != nil {
		return pagination.Result[*Entry]{}, err
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return pagination.Result[*Entry]{}, err
	}
	var rows []*ent.Member
	if p.Query == "" {
		rows, err = q.WithUser().Order(member.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	} else {
		rows, err = searchPage(ctx, q, p.Query, page)
	}
	if err != nil {
		return pagination.Result[*Entry]{}, err
	}
	entries := make([]*Entry, 0, len(rows))
	for _, m := range rows {
		entries = append(entries, &Entry{Member: m, User: m.Edges.User, AccessLevel: m.AccessLevel})
	}
	if err := s.decorate(ctx, entries, p.ShowSeatInfo, nil); err != nil {
		return pagination.Result[*Entry]{}, err
	}
	return pagination.Result[*Entry]{Items: entries, Total: countOrUnknown(total), Page: page}, nil
}

// Get returns the direct member userID of the source: 404 Not found when there is none.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, ref Ref, userID int, showSeatInfo bool) (*Entry, error) {
	src, err := s.resolve(ctx, actor, ref, true)
	if err != nil {
		return nil, err
	}
	m, err := s.directMember(ctx, src, userID)
	if err != nil {
		return nil, err
	}
	e := &Entry{Member: m, User: m.Edges.User, AccessLevel: m.AccessLevel}
	return e, s.decorate(ctx, []*Entry{e}, showSeatInfo, nil)
}

// directMember loads the source's own membership of userID with its user: 404 Not found.
func (s *Service) directMember(ctx context.Context, src *Source, userID int) (*ent.Member, error) {
	m, err := db.ClientFrom(ctx, s.client).Member.Query().
		Where(src.direct(), visibleDirect(src), member.UserID(userID)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFound()
	}
	return m, err
}

// decorate loads who created each membership and, when asked, whether the user takes a seat.
// hideCreatedBy lists the entries whose creator the actor may not see.
func (s *Service) decorate(ctx context.Context, entries []*Entry, seatInfo bool, hideCreatedBy map[*Entry]bool) error {
	ids := map[int]bool{}
	for _, e := range entries {
		if e.Member.CreatedByID != nil && !hideCreatedBy[e] {
			ids[*e.Member.CreatedByID] = true
		}
	}
	if len(ids) > 0 {
		users, err := db.ClientFrom(ctx, s.client).User.Query().Where(user.IDIn(keys(ids)...)).All(ctx)
		if err != nil {
			return err
		}
		byID := make(map[int]*ent.User, len(users))
		for _, u := range users {
			byID[u.ID] = u
		}
		for _, e := range entries {
			if e.Member.CreatedByID != nil && !hideCreatedBy[e] {
				e.CreatedBy = byID[*e.Member.CreatedByID]
			}
		}
	}
	if !seatInfo {
		return nil
	}
	return s.seatInfo(ctx, entries)
}

// seatInfo sets UsingSeat: in Ultimate a user takes a seat when active, human and holding a
// role above Guest anywhere.
func (s *Service) seatInfo(ctx context.Context, entries []*Entry) error {
	ids := map[int]bool{}
	for _, e := range entries {
		ids[e.User.ID] = true
	}
	highest, err := s.highestLevels(ctx, keys(ids))
	if err != nil {
		return err
	}
	for _, e := range entries {
		using := billableUser(e.User) && highest[e.User.ID] > int(authz.Guest)
		e.UsingSeat = &using
	}
	return nil
}

// highestLevels returns each user's highest active membership level.
func (s *Service) highestLevels(ctx context.Context, userIDs []int) (map[int]int, error) {
	var rows []struct {
		UserID int `json:"user_id"`
		Max    int `json:"max"`
	}
	err := db.ClientFrom(ctx, s.client).Member.Query().
		Where(member.UserIDIn(userIDs...), notExpired(), member.State("active")).
		GroupBy(member.FieldUserID).Aggregate(ent.Max(member.FieldAccessLevel)).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	out := make(map[int]int, len(rows))
	for _, r := range rows {
		out[r.UserID] = r.Max
	}
	return out, nil
}

// billableUser reports whether a user can take a seat at all: an active human.
func billableUser(u *ent.User) bool {
	return u.State == user.StateActive && u.UserType == "human"
}

// countOrUnknown drops totals above GitLab's count limit.
func countOrUnknown(total int) int {
	if total > pagination.CountLimit {
		return -1
	}
	return total
}

// pageOf cuts one offset page out of an in-memory list.
func pageOf[T any](items []T, page pagination.Offset) pagination.Result[T] {
	start := min(page.Skip(), len(items))
	end := min(start+page.Limit(), len(items))
	return pagination.Result[T]{Items: items[start:end], Total: countOrUnknown(len(items)), Page: page}
}

func keys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
