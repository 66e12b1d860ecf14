package protectedbranches

import (
	"context"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/projectgrouplink"
	"anvil/ent/schema"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// accessor decides the access rules of one project's protected branches for one actor, as
// GitLab's ProtectedRefAccess#check_access does. Rules are compared with the actor's membership
// level in the project (its team access): an administrator who is not a member passes only
// rules for administrators, as in GitLab.
type accessor struct {
	s       *Service
	actor   *authz.Actor
	project *ent.Project
	// member is the actor's membership level (direct, inherited or shared); pushCode says
	// whether the actor may push code at all (Developer, or administrator).
	member   authz.Level
	pushCode bool
	admin    bool
	groups   map[int]bool
}

// newAccessor computes what the rules need to know about actor in p.
func (s *Service) newAccessor(ctx context.Context, actor *authz.Actor, p *ent.Project) (*accessor, error) {
	a := &accessor{s: s, actor: actor, project: p, groups: map[int]bool{}}
	if actor.IsAnonymous() {
		return a, nil
	}
	level, err := s.policy.ProjectAccess(ctx, actor, p)
	if err != nil {
		return nil, err
	}
	a.member = level
	a.admin = actor.IsAdmin()
	effective := level
	if a.admin {
		effective = authz.Admin
	}
	a.pushCode = authz.CanProject(actor, p, effective, authz.PushCode)
	return a, nil
}

// adminProject reports whether the actor administers the project (Maintainer, Owner or
// administrator): what creating a default branch in an empty repository and deleting a
// protected branch through the API take.
func (a *accessor) adminProject() bool {
	if a.actor.IsAnonymous() {
		return false
	}
	level := a.member
	if a.admin {
		level = authz.Admin
	}
	return authz.CanProject(a.actor, a.project, level, authz.AdminProject)
}

// allows reports whether any rule of levels grants the actor access.
func (a *accessor) allows(ctx context.Context, levels []schema.AccessRule) (bool, error) {
	for _, r := range levels {
		ok, err := a.check(ctx, r)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// check decides one rule: a user rule names a member, a group rule a group the project is
// shared with at Developer or above whose direct members with Developer or above pass, a role
// rule needs push access and that membership level (0 is nobody, 60 administrators only).
func (a *accessor) check(ctx context.Context, r schema.AccessRule) (bool, error) {
	if a.actor.IsAnonymous() {
		return false, nil
	}
	switch {
	case r.UserID != nil:
		return *r.UserID == a.actor.User.ID && a.member >= authz.Guest, nil
	case r.GroupID != nil:
		return a.groupAllows(ctx, *r.GroupID)
	case r.DeployKeyID != nil:
		return false, nil
	case r.AccessLevel == int(authz.NoAccess):
		return false, nil
	case r.AccessLevel == int(authz.Admin):
		return a.admin, nil
	}
	return a.pushCode && int(a.member) >= r.AccessLevel, nil
}

// groupAllows answers a group rule, once per group.
func (a *accessor) groupAllows(ctx context.Context, groupID int) (bool, error) {
	if ok, seen := a.groups[groupID]; seen {
		return ok, nil
	}
	c := db.ClientFrom(ctx, a.s.client)
	shared, err := c.ProjectGroupLink.Query().Where(projectgrouplink.ProjectID(a.project.ID),
		projectgrouplink.GroupID(groupID), projectgrouplink.GroupAccessGTE(int(authz.Developer)),
		projectgrouplink.GroupAccessLTE(int(authz.Owner))).Exist(ctx)
	if err != nil {
		return false, err
	}
	ok := false
	if shared {
		ok, err = c.Member.Query().Where(member.NamespaceID(groupID), member.UserID(a.actor.User.ID),
			member.State("active"), member.AccessLevelGTE(int(authz.Developer)),
			member.AccessLevelLTE(int(authz.Owner))).Exist(ctx)
		if err != nil {
			return false, err
		}
	}
	a.groups[groupID] = ok
	return ok, nil
}

// branchAccess is what the actor may do to one branch.
type branchAccess struct {
	protected  bool
	push       bool // push to it (or create it)
	merge      bool // merge into it
	forcePush  bool // rewrite its history, given push
	deleteByUI bool // delete it through the API (Maintainer for a protected branch)
}

// branch evaluates branch against the project's rules for the actor. empty says whether the
// repository has no branch yet; with default branch protection on, every branch of an empty
// repository is then protected and only Maintainers (and Developers when the instance allows
// their initial push) may create one.
func (a *accessor) branch(ctx context.Context, rules []*ent.ProtectedBranch, name string, empty bool, def Protection) (branchAccess, error) {
	m := matching(rules, name)
	out := branchAccess{protected: len(m) > 0 || (empty && def.Enabled())}
	if !out.protected {
		out.push, out.merge, out.forcePush, out.deleteByUI = a.pushCode, a.pushCode, a.pushCode, a.pushCode
		return out, nil
	}
	if empty && (a.adminProject() || (a.pushCode && a.member == authz.Developer && def.DeveloperCanInitialPush)) {
		out.push, out.merge = true, true
	}
	for _, r := range m {
		if !out.push && a.pushCode {
			ok, err := a.allows(ctx, r.PushAccessLevels)
			if err != nil {
				return out, err
			}
			out.push = ok
		}
		if !out.merge && a.pushCode {
			ok, err := a.allows(ctx, r.MergeAccessLevels)
			if err != nil {
				return out, err
			}
			out.merge = ok
		}
		if r.AllowForcePush {
			out.forcePush = true
		}
	}
	out.forcePush = out.forcePush && out.push
	out.deleteByUI = a.adminProject()
	return out, nil
}
