package graph

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/members"
)

// Mutation results are read back through the same finders as queries: the service wrote them
// in a transaction that is over, and the payload shows them as the caller now sees them.

// projectResult is the payload side of a project mutation: the refused change's messages, or
// the project as Find now returns it.
func (r *Resolver) projectResult(ctx context.Context, p *ent.Project, err error) (*ent.Project, []string, error) {
	msgs, err := payloadErrors(err)
	if err != nil || p == nil {
		return nil, msgs, err
	}
	p, err = orNull(r.svc.Projects.Find(ctx, actor(ctx), strconv.Itoa(p.ID), authz.ReadProject))
	return p, msgs, err
}

// groupResult is the payload side of a group mutation.
func (r *Resolver) groupResult(ctx context.Context, ns *ent.Namespace, err error) (*ent.Namespace, []string, error) {
	msgs, err := payloadErrors(err)
	if err != nil || ns == nil {
		return nil, msgs, err
	}
	ns, err = orNull(r.svc.Groups.Find(ctx, actor(ctx), strconv.Itoa(ns.ID), authz.ReadGroup))
	return ns, msgs, err
}

// userResult is the payload side of a user mutation.
func userResult(u *ent.User, err error) (*ent.User, []string, error) {
	msgs, err := payloadErrors(err)
	if err != nil {
		return nil, nil, err
	}
	return u, msgs, nil
}

// memberResult is the payload side of a member mutation: the membership as GET
// .../members/:user_id now shows it.
func (r *Resolver) memberResult(ctx context.Context, ref members.Ref, userID int, err error) (*ent.Member, []string, error) {
	msgs, err := payloadErrors(err)
	if err != nil || len(msgs) > 0 {
		return nil, msgs, err
	}
	e, err := r.svc.Members.Get(ctx, actor(ctx), ref, userID, false)
	if err != nil {
		return nil, nil, err
	}
	if e.Member.Edges.User == nil {
		e.Member.Edges.User = e.User
	}
	return e.Member, msgs, nil
}
