package graph

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/authz"
	"anvil/internal/service/members"
)

// accessLevelNames are GitLab's AccessLevelEnum values by level.
var accessLevelNames = map[authz.Level]model.AccessLevelEnum{
	authz.NoAccess:   model.AccessLevelEnumNoAccess,
	authz.Minimal:    model.AccessLevelEnumMinimalAccess,
	authz.Guest:      model.AccessLevelEnumGuest,
	authz.Planner:    model.AccessLevelEnumPlanner,
	authz.Reporter:   model.AccessLevelEnumReporter,
	authz.Developer:  model.AccessLevelEnumDeveloper,
	authz.Maintainer: model.AccessLevelEnumMaintainer,
	authz.Owner:      model.AccessLevelEnumOwner,
	authz.Admin:      model.AccessLevelEnumAdmin,
}

// memberLevels are the levels of MemberAccessLevel, the input enum.
var memberLevels = map[model.MemberAccessLevel]int{
	model.MemberAccessLevelGuest:      int(authz.Guest),
	model.MemberAccessLevelPlanner:    int(authz.Planner),
	model.MemberAccessLevelReporter:   int(authz.Reporter),
	model.MemberAccessLevelDeveloper:  int(authz.Developer),
	model.MemberAccessLevelMaintainer: int(authz.Maintainer),
	model.MemberAccessLevelOwner:      int(authz.Owner),
}

// accessLevel is GitLab's AccessLevel object for a level.
func accessLevel(level int) *model.AccessLevel {
	out := &model.AccessLevel{IntegerValue: &level}
	if name, ok := accessLevelNames[authz.Level(level)]; ok {
		out.StringValue = &name
	}
	if human := members.HumanAccess(level); human != "" {
		out.HumanAccess = &human
	}
	return out
}

// memberConnection pages the members of a group or project through the given relations. Direct
// members alone are the source's own rows; any other relation goes through members.QueryAll,
// which keeps one row per user and tells the level to show for it (the highest, invited groups'
// capped by their share).
func (r *Resolver) memberConnection(ctx context.Context, src members.Ref, search *string, relations []members.Relation,
	after, before *ent.Cursor, first, last *int,
) (*ent.MemberConnection, error) {
	p := members.ListParams{Source: src, Query: str(search)}
	if err := checkCursors(orderZero(ent.DefaultMemberOrder.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	if len(relations) == 1 && relations[0] == members.Direct {
		q, err := r.svc.Members.Query(ctx, actor(ctx), p)
		if err != nil {
			return nil, err
		}
		return q.Paginate(connection(ctx), after, first, before, last)
	}
	all, err := r.svc.Members.QueryAll(ctx, actor(ctx), p, relations...)
	if err != nil {
		return nil, err
	}
	conn, err := all.Query.Paginate(connection(ctx), after, first, before, last)
	if err != nil {
		return nil, err
	}
	for _, e := range conn.Edges {
		if level, ok := all.Levels[e.Node.ID]; ok {
			e.Node.AccessLevel = level
		}
	}
	return conn, nil
}

// memberRelations maps GitLab's member relation enums onto the service's relations; none given
// means GitLab's default, direct and inherited members.
func memberRelations[R ~string](relations []R) []members.Relation {
	if len(relations) == 0 {
		return []members.Relation{members.Direct, members.Inherited}
	}
	out := make([]members.Relation, 0, len(relations))
	for _, rel := range relations {
		out = append(out, members.Relation(strings.ToLower(string(rel))))
	}
	return out
}

// groupRef and projectRef name a membership source by id.
func groupRef(ns *ent.Namespace) members.Ref { return members.GroupRef(strconv.Itoa(ns.ID)) }
func projectRef(p *ent.Project) members.Ref  { return members.ProjectRef(strconv.Itoa(p.ID)) }

// memberNodes are a page's members.
func memberNodes(c *ent.MemberConnection) []*ent.Member {
	out := make([]*ent.Member, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
