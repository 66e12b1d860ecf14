package settings

import "slices"

// AccessLevelRef is one {"access_level": n} entry of the default branch protection.
type AccessLevelRef struct {
	AccessLevel int `json:"access_level"`
}

// BranchProtection is default_branch_protection_defaults: the protection a project's default
// branch gets when it is first created.
type BranchProtection struct {
	AllowedToPush           []AccessLevelRef `json:"allowed_to_push"`
	AllowForcePush          bool             `json:"allow_force_push"`
	AllowedToMerge          []AccessLevelRef `json:"allowed_to_merge"`
	DeveloperCanInitialPush bool             `json:"developer_can_initial_push"`
}

// The access levels a default branch protection may name (GitLab's allowed_access_levels of
// push and merge access levels: no one, Developer, Maintainer, administrator).
var protectionLevels = []int{0, 30, 40, 60}

const (
	developer  = 30
	maintainer = 40
)

func refs(level int) []AccessLevelRef { return []AccessLevelRef{{AccessLevel: level}} }

// ProtectionForLevel converts the deprecated default_branch_protection integer into its
// default_branch_protection_defaults object, as GitLab's Gitlab::Access::BranchProtection does:
// 0 not protected, 1 Developers may push, 2 fully protected, 3 Developers may merge, 4 fully
// protected after the initial push.
func ProtectionForLevel(level int) BranchProtection {
	switch level {
	case 0:
		return BranchProtection{AllowedToPush: refs(developer), AllowForcePush: true, AllowedToMerge: refs(developer)}
	case 1:
		return BranchProtection{AllowedToPush: refs(developer), AllowedToMerge: refs(maintainer)}
	case 3:
		return BranchProtection{AllowedToPush: refs(maintainer), AllowedToMerge: refs(developer)}
	case 4:
		return BranchProtection{AllowedToPush: refs(maintainer), AllowedToMerge: refs(maintainer), DeveloperCanInitialPush: true}
	default:
		return BranchProtection{AllowedToPush: refs(maintainer), AllowedToMerge: refs(maintainer)}
	}
}

// LevelForProtection is the deprecated integer closest to a protection object, for the
// default_branch_protection field GitLab still returns.
func LevelForProtection(p BranchProtection) int {
	has := func(l []AccessLevelRef, level int) bool {
		return slices.ContainsFunc(l, func(r AccessLevelRef) bool { return r.AccessLevel == level })
	}
	devPush, devMerge := has(p.AllowedToPush, developer), has(p.AllowedToMerge, developer)
	switch {
	case devPush && devMerge && p.AllowForcePush:
		return 0
	case devPush:
		return 1
	case devMerge:
		return 3
	case p.DeveloperCanInitialPush:
		return 4
	}
	return 2
}
