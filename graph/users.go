package graph

import (
	"context"

	"anvil/ent"
	"anvil/internal/service/users"
)

// findUser is user(id:, username:): exactly one of them, and null for a user the caller may
// not see, as GET /users/:id and GET /users?username= answer 404 and [].
func (r *Resolver) findUser(ctx context.Context, id, username *string) (*ent.User, error) {
	if (id == nil) == (username == nil) {
		return nil, badInput("Provide either a single username or id")
	}
	a := actor(ctx)
	if id != nil {
		uid, err := parseGIDOf(*id, gidUser)
		if err != nil {
			return nil, err
		}
		u, err := orNull(r.svc.Users.Find(ctx, a, uid, users.Load{}))
		if u == nil {
			return nil, err
		}
		return u, nil
	}
	q, err := r.svc.Users.Query(ctx, a, users.ListParams{Username: username})
	if err != nil {
		return orNull[ent.User](nil, err)
	}
	u, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return u, err
}

// userParams maps users(...) arguments onto the service's filters. A single username is the
// REST username filter, which anonymous callers may use too.
func userParams(ids, usernames []string, search *string, admins *bool) (users.ListParams, error) {
	p := users.ListParams{Search: str(search), Admins: flag(admins)}
	if len(usernames) == 1 {
		p.Username = &usernames[0]
	} else {
		p.Usernames = usernames
	}
	var err error
	p.IDs, err = parseGIDs(ids, gidUser)
	return p, err
}

// userNodes are a page's users.
func userNodes(c *ent.UserConnection) []*ent.User {
	out := make([]*ent.User, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
