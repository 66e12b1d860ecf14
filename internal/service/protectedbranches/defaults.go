package protectedbranches

import (
	"context"
	"slices"

	"anvil/ent"
	"anvil/ent/schema"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// SettingKey is the instance setting holding the protection given to new default branches
// (GitLab's default_branch_protection_defaults).
const SettingKey = "default_branch_protection_defaults"

// LevelRef is one {"access_level": n} entry of the default protection.
type LevelRef struct {
	AccessLevel int `json:"access_level"`
}

// Protection is the protection a project's default branch gets when it is first created
// (GitLab's default_branch_protection_defaults). The zero value is not meaningful; start from
// DefaultProtection.
type Protection struct {
	AllowedToPush           []LevelRef `json:"allowed_to_push"`
	AllowForcePush          bool       `json:"allow_force_push"`
	AllowedToMerge          []LevelRef `json:"allowed_to_merge"`
	DeveloperCanInitialPush bool       `json:"developer_can_initial_push"`
}

// DefaultProtection is GitLab's default: fully protected, Maintainers push and merge, no force
// push, Developers may not push the first commit.
func DefaultProtection() Protection {
	return Protection{
		AllowedToPush:  []LevelRef{{AccessLevel: int(authz.Maintainer)}},
		AllowedToMerge: []LevelRef{{AccessLevel: int(authz.Maintainer)}},
	}
}

// Enabled reports whether the protection protects anything: GitLab's "not protected" setting
// lets Developers push, merge and force push.
func (p Protection) Enabled() bool {
	dev := func(l []LevelRef) bool {
		return slices.ContainsFunc(l, func(r LevelRef) bool { return r.AccessLevel == int(authz.Developer) })
	}
	return !(dev(p.AllowedToPush) && dev(p.AllowedToMerge) && p.AllowForcePush)
}

// DefaultBranchProtection returns the instance's protection for new default branches.
func (s *Service) DefaultBranchProtection(ctx context.Context) (Protection, error) {
	p := DefaultProtection()
	if err := s.settings.Get(ctx, SettingKey, &p); err != nil {
		return p, err
	}
	return p, nil
}

// ProtectDefaultBranch protects a project's new default branch with the instance's default
// protection, as GitLab does when the default branch is first created (a first push, or a
// README made with the project). Nothing changes when protection is off or a rule already
// covers the branch.
func (s *Service) ProtectDefaultBranch(ctx context.Context, p *ent.Project, branch string) error {
	def, err := s.DefaultBranchProtection(ctx)
	if err != nil || !def.Enabled() {
		return err
	}
	rules, err := s.rules(ctx, p.ID)
	if err != nil {
		return err
	}
	if len(matching(rules, branch)) > 0 {
		return nil
	}
	var ids idSeq
	push := make([]schema.AccessRule, 0, len(def.AllowedToPush))
	for _, l := range def.AllowedToPush {
		push = append(push, schema.AccessRule{ID: ids.next(), AccessLevel: l.AccessLevel})
	}
	merge := make([]schema.AccessRule, 0, len(def.AllowedToMerge))
	for _, l := range def.AllowedToMerge {
		merge = append(merge, schema.AccessRule{ID: ids.next(), AccessLevel: l.AccessLevel})
	}
	err = db.ClientFrom(ctx, s.client).ProtectedBranch.Create().SetProjectID(p.ID).SetName(branch).
		SetPushAccessLevels(push).SetMergeAccessLevels(merge).SetUnprotectAccessLevels([]schema.AccessRule{}).
		SetAllowForcePush(def.AllowForcePush).Exec(ctx)
	if ent.IsConstraintError(err) {
		return nil // protected concurrently
	}
	return err
}
