package graph

import (
	"context"
	"strconv"

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

// memberConnection pages the direct members of a group or project. Only direct members are
// listed: inherited and invited members are computed rows (members.ListAll) that cannot be
// paginated by cursor.
func (r *Resolver) memberConnection(ctx context.Context, src members.Ref, search *string, direct bool,
	after, before *ent.Cursor, first, last *int,
) (*ent.MemberConnection, error) {
	if !direct {
		return nil, badInput("only DIRECT member relations are supported")
	}
	q, err := r.svc.Members.Query(ctx, actor(ctx), members.ListParams{Source: src, Query: str(search)})
	if err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return q.Paginate(connection(ctx), after, first, before, last)
}

// onlyDirect reports whether relations asks for direct members only.
func onlyDirect[R ~string](relations []R) bool {
	for _, rel := range relations {
		if rel != "DIRECT" {
			return false
		}
	}
	return true
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
