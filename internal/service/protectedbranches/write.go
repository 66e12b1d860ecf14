package protectedbranches

import (
	"context"
	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/projectgrouplink"
	"anvil/ent/schema"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// maxNameLength is the longest rule name stored.
const maxNameLength = 255

// Create protects the branch name (a wildcard like "release/*" covers every match) in the
// project ref names; it needs admin_project (Maintainer). A rule with the same name answers 409
// "Protected branch '<name>' already exists"; invalid entries answer 422 with GitLab's full
// messages.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, ref string, in CreateInput) (*ent.ProtectedBranch, error) {
	proj, err := s.projects.Find(ctx, actor, ref, authz.AdminProject)
	if err != nil {
		return nil, err
	}
	conflict := apperr.Conflict("Protected branch '" + in.Name + "' already exists")
	if _, err := s.byName(ctx, proj.ID, in.Name); err == nil {
		return nil, conflict
	} else if !apperr.IsNotFound(err) {
		return nil, err
	}
	var ids idSeq
	push := buildLevels(in.PushAccessLevel, in.AllowedToPush, &ids)
	merge := buildLevels(in.MergeAccessLevel, in.AllowedToMerge, &ids)
	unprotect := buildLevels(in.UnprotectAccessLevel, in.AllowedToUnprotect, &ids)
	var msgs []string
	if utf8.RuneCountInString(in.Name) > maxNameLength {
		msgs = append(msgs, "Name is too long (maximum is 255 characters)")
	}
	for _, l := range []struct {
		k     kind
		rules []schema.AccessRule
	}{{pushKind, push}, {mergeKind, merge}, {unprotectKind, unprotect}} {
		m, err := s.validate(ctx, proj, l.k, l.rules)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m...)
	}
	if len(msgs) > 0 {
		return nil, apperr.UnprocessableMessages(msgs)
	}
	pb, err := db.ClientFrom(ctx, s.client).ProtectedBranch.Create().SetProjectID(proj.ID).SetName(in.Name).
		SetPushAccessLevels(push).SetMergeAccessLevels(merge).SetUnprotectAccessLevels(unprotect).
		SetAllowForcePush(in.AllowForcePush).SetCodeOwnerApprovalRequired(in.CodeOwnerApprovalRequired).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, conflict
	}
	if err != nil {
		return nil, err
	}
	return pb, s.describe(ctx, pb)
}

// Update changes the rule name of the project ref names. The rule is looked up before the
// permission check (404 "404 Not found" first, as in GitLab); changing it needs admin_project
// and, when the rule lists who may unprotect it, one of those entries.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref, name string, in UpdateInput) (*ent.ProtectedBranch, error) {
	proj, pb, err := s.findForChange(ctx, actor, ref, name)
	if err != nil {
		return nil, err
	}
	ids := seqAfter(pb)
	var msgs []string
	lists := []struct {
		k       kind
		rules   *[]schema.AccessRule
		entries []AccessInput
	}{
		{pushKind, &pb.PushAccessLevels, in.AllowedToPush},
		{mergeKind, &pb.MergeAccessLevels, in.AllowedToMerge},
		{unprotectKind, &pb.UnprotectAccessLevels, in.AllowedToUnprotect},
	}
	for _, l := range lists {
		rules, err := applyEntries(*l.rules, l.entries, &ids)
		if err != nil {
			return nil, err
		}
		*l.rules = rules
		m, err := s.validate(ctx, proj, l.k, rules)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m...)
	}
	if len(msgs) > 0 {
		return nil, apperr.UnprocessableMessages(msgs)
	}
	upd := db.ClientFrom(ctx, s.client).ProtectedBranch.UpdateOneID(pb.ID).
		SetPushAccessLevels(pb.PushAccessLevels).SetMergeAccessLevels(pb.MergeAccessLevels).
		SetUnprotectAccessLevels(pb.UnprotectAccessLevels)
	if in.AllowForcePush != nil {
		upd.SetAllowForcePush(*in.AllowForcePush)
	}
	if in.CodeOwnerApprovalRequired != nil {
		upd.SetCodeOwnerApprovalRequired(*in.CodeOwnerApprovalRequired)
	}
	pb, err = upd.Save(ctx)
	if err != nil {
		return nil, err
	}
	return pb, s.describe(ctx, pb)
}

// Delete unprotects: the rule name of the project ref names goes, with the permissions of
// Update.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref, name string) error {
	_, pb, err := s.findForChange(ctx, actor, ref, name)
	if err != nil {
		return err
	}
	return db.ClientFrom(ctx, s.client).ProtectedBranch.DeleteOneID(pb.ID).Exec(ctx)
}

// findForChange finds a rule the actor wants to change or remove and checks that it may.
func (s *Service) findForChange(ctx context.Context, actor *authz.Actor, ref, name string) (*ent.Project, *ent.ProtectedBranch, error) {
	proj, err := s.projects.Find(ctx, actor, ref, authz.ReadProject)
	if err != nil {
		return nil, nil, err
	}
	pb, err := s.byName(ctx, proj.ID, name)
	if err != nil {
		return nil, nil, err
	}
	if err := s.policy.Project(ctx, actor, proj, authz.AdminProject); err != nil {
		return nil, nil, err
	}
	if len(pb.UnprotectAccessLevels) > 0 {
		a, err := s.newAccessor(ctx, actor, proj)
		if err != nil {
			return nil, nil, err
		}
		ok, err := a.allows(ctx, pb.UnprotectAccessLevels)
		if err != nil {
			return nil, nil, err
		}
		if !ok && !actor.IsAdmin() {
			return nil, nil, apperr.Forbidden("")
		}
	}
	return proj, pb, nil
}

// applyEntries applies PATCH entries to a list: an id with _destroy removes that entry, an id
// alone changes it, no id adds one. An unknown id is 404 "404 Not found" (Rails' nested
// attributes raise RecordNotFound).
func applyEntries(rules []schema.AccessRule, entries []AccessInput, ids *idSeq) ([]schema.AccessRule, error) {
	out := append([]schema.AccessRule{}, rules...)
	for _, e := range entries {
		if e.ID == nil {
			if !e.Destroy {
				out = append(out, newRule(e, ids))
			}
			continue
		}
		i := -1
		for j, r := range out {
			if r.ID == *e.ID {
				i = j
			}
		}
		if i < 0 {
			return nil, apperr.RecordNotFound()
		}
		if e.Destroy {
			out = append(out[:i], out[i+1:]...)
			continue
		}
		applyInput(&out[i], e)
	}
	return out, nil
}

// validate checks one list as GitLab's access level models do and returns the full messages of
// what is wrong.
func (s *Service) validate(ctx context.Context, p *ent.Project, k kind, rules []schema.AccessRule) ([]string, error) {
	var msgs []string
	add := func(msg string) {
		for _, m := range msgs {
			if m == k.label+" "+msg {
				return
			}
		}
		msgs = append(msgs, k.label+" "+msg)
	}
	roles, users, groups := map[int]bool{}, map[int]bool{}, map[int]bool{}
	c := db.ClientFrom(ctx, s.client)
	for _, r := range rules {
		switch {
		case r.UserID != nil:
			if users[*r.UserID] {
				add("user has already been taken")
				continue
			}
			users[*r.UserID] = true
			ok, err := s.isMember(ctx, c, p, *r.UserID)
			if err != nil {
				return nil, err
			}
			if !ok {
				add("user is not a member of the project")
			}
		case r.GroupID != nil:
			if groups[*r.GroupID] {
				add("group has already been taken")
				continue
			}
			groups[*r.GroupID] = true
			ok, err := c.ProjectGroupLink.Query().Where(projectgrouplink.ProjectID(p.ID),
				projectgrouplink.GroupID(*r.GroupID), projectgrouplink.GroupAccessGTE(int(authz.Developer)),
				projectgrouplink.HasGroupWith(namespace.KindEQ(namespace.KindGroup))).Exist(ctx)
			if err != nil {
				return nil, err
			}
			if !ok {
				add("group does not have access to the project")
			}
		case r.DeployKeyID != nil:
			add("deploy key can't be blank")
		default:
			if !k.validLevel(r.AccessLevel) {
				add("access level is not included in the list")
			} else if roles[r.AccessLevel] {
				add("access level has already been taken")
			}
			roles[r.AccessLevel] = true
		}
	}
	return msgs, nil
}

// isMember reports whether user id is a member of p (any level, inherited or shared).
func (s *Service) isMember(ctx context.Context, c *ent.Client, p *ent.Project, id int) (bool, error) {
	u, err := c.User.Get(ctx, id)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	level, err := s.policy.ProjectAccess(ctx, &authz.Actor{User: u}, p)
	return level >= authz.Guest, err
}
