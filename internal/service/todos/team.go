package todos

import (
	"context"
	"slices"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/projectgrouplink"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// projectTeam is the Team of a target in proj: when the actor is a member of proj (Guest or
// more, through any membership), the active users who are, in user id order; nobody otherwise.
func (r *Recorder) projectTeam(proj *ent.Project) func(ctx context.Context, actor *authz.Actor) ([]*ent.User, error) {
	return func(ctx context.Context, actor *authz.Actor) ([]*ent.User, error) {
		isMember := func(u *ent.User) (bool, error) {
			level, err := r.policy.ProjectAccess(ctx, &authz.Actor{User: u}, proj)
			return level >= authz.Guest, err
		}
		if ok, err := isMember(actor.User); err != nil || !ok {
			return nil, err
		}
		c := db.ClientFrom(ctx, r.client)
		candidates, err := r.projectMemberCandidates(ctx, c, proj)
		if err != nil {
			return nil, err
		}
		us, err := c.User.Query().Where(user.IDIn(candidates...), user.StateEQ(user.StateActive)).Order(user.ByID()).All(ctx)
		if err != nil {
			return nil, err
		}
		var out []*ent.User
		for _, u := range us {
			ok, err := isMember(u)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, u)
			}
		}
		return out, nil
	}
}

// projectMemberCandidates are the ids of the users who may be members of proj: the owner of
// its personal namespace, and those with a membership row in the project, its namespace and
// that namespace's ancestors, the groups the project is shared with and the groups its
// namespace chain is shared with. Their effective levels are the policy's to decide.
func (r *Recorder) projectMemberCandidates(ctx context.Context, c *ent.Client, proj *ent.Project) ([]int, error) {
	ns := proj.Edges.Namespace
	if ns == nil {
		var err error
		if ns, err = c.Namespace.Get(ctx, proj.NamespaceID); err != nil {
			return nil, err
		}
	}
	var ids []int
	if ns.Kind == namespace.KindUser && ns.OwnerID != nil {
		ids = append(ids, *ns.OwnerID)
	}
	groups, err := c.Namespace.Query().Where(namespace.FullPathIn(authz.Ancestors(ns.FullPath)...),
		namespace.KindEQ(namespace.KindGroup)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	invited, err := c.ProjectGroupLink.Query().Where(projectgrouplink.ProjectID(proj.ID)).
		Select(projectgrouplink.FieldGroupID).Ints(ctx)
	if err != nil {
		return nil, err
	}
	var shared []int
	if len(groups) > 0 {
		if shared, err = c.GroupGroupLink.Query().Where(groupgrouplink.SharedGroupIDIn(groups...)).
			Select(groupgrouplink.FieldSharedWithGroupID).Ints(ctx); err != nil {
			return nil, err
		}
	}
	where := []predicate.Member{member.ProjectID(proj.ID)}
	if all := append(append(groups, invited...), shared...); len(all) > 0 {
		where = append(where, member.NamespaceIDIn(all...))
	}
	rows, err := c.Member.Query().Where(member.Or(where...), member.State("active")).
		Select(member.FieldUserID).Ints(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range rows {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
