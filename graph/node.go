package graph

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/users"
)

// maxNodes bounds nodes(ids:), each id being one lookup.
const maxNodes = maxPageSize

// node loads the object a global id names through its service, with the same visibility
// check as REST: an object the caller may not see is null (an untyped nil Noder).
func (r *Resolver) node(ctx context.Context, id string) (ent.Noder, error) {
	g, err := parseGID(id)
	if err != nil {
		return nil, err
	}
	a := actor(ctx)
	switch g.Model {
	case gidUser:
		u, err := orNull(r.svc.Users.Find(ctx, a, g.ID, users.Load{}))
		if u == nil {
			return nil, err
		}
		return u, nil
	case gidGroup:
		ns, err := orNull(r.svc.Groups.Find(ctx, a, strconv.Itoa(g.ID), authz.ReadGroup))
		if ns == nil {
			return nil, err
		}
		return ns, nil
	case gidUserNamespace:
		// Personal namespaces are readable by their owner and administrators only.
		ns, err := orNull(r.svc.Groups.FindUserNamespace(ctx, a, g.ID))
		if ns == nil {
			return nil, err
		}
		return ns, nil
	case gidProject:
		p, err := orNull(r.svc.Projects.Find(ctx, a, strconv.Itoa(g.ID), authz.ReadProject))
		if p == nil {
			return nil, err
		}
		return p, nil
	case gidIssue:
		is, err := orNull(r.svc.Issues.FindVisible(ctx, a, g.ID))
		if is == nil {
			return nil, err
		}
		return is, nil
	case gidMergeRequest:
		mr, err := orNull(r.svc.MergeRequests.FindVisible(ctx, a, g.ID))
		if mr == nil {
			return nil, err
		}
		return mr, nil
	case gidLabel, gidProjectLabel, gidGroupLabel:
		l, err := orNull(r.svc.Labels.FindByID(ctx, a, g.ID))
		if l == nil || (g.Model != gidLabel && labelGID(l) != id) {
			return nil, err
		}
		return l, nil
	case gidMilestone:
		m, err := orNull(r.svc.Milestones.FindByID(ctx, a, g.ID))
		if m == nil {
			return nil, err
		}
		return m, nil
	case gidGroupMember, gidProjectMember:
		e, err := orNull(r.svc.Members.FindByID(ctx, a, g.ID))
		if e == nil || memberGID(e.Member) != id {
			return nil, err
		}
		return e.Member, nil
	}
	return nil, nil
}

// nodes loads each id in turn; ids that name nothing visible are null.
func (r *Resolver) nodes(ctx context.Context, ids []string) ([]ent.Noder, error) {
	if len(ids) > maxNodes {
		return nil, badInput("nodes accepts at most %d ids", maxNodes)
	}
	out := make([]ent.Noder, len(ids))
	for i, id := range ids {
		n, err := r.node(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}
