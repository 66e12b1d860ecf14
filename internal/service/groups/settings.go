package groups

import "anvil/ent"

// Settings are the group settings POST and PUT /groups accept, in GitLab's names; nil means
// not given (keep the default or the current value).
type Settings struct {
	ProjectCreationLevel  *string // project_creation_level: noone, owner, maintainer, developer, administrator
	SubgroupCreationLevel *string // subgroup_creation_level: owner, maintainer
	RequestAccessEnabled  *bool   // request_access_enabled
	ShareWithGroupLock    *bool   // share_with_group_lock
	RequireTwoFactorAuth  *bool   // require_two_factor_authentication
	TwoFactorGracePeriod  *int    // two_factor_grace_period (hours)
	LFSEnabled            *bool   // lfs_enabled
	EmailsEnabled         *bool   // emails_enabled (REST also maps emails_disabled onto it)
	MentionsDisabled      *bool   // mentions_disabled
	DefaultBranch         *string // default_branch
	AutoDevopsEnabled     *bool   // auto_devops_enabled
	MembershipLock        *bool   // membership_lock
	SharedRunnersSetting  *string // shared_runners_setting
}

// validate checks the values whose rules do not depend on other groups.
func (s *Settings) validate(e fieldErrors) {
	if s.TwoFactorGracePeriod != nil && *s.TwoFactorGracePeriod < 0 {
		e.add("two_factor_grace_period", msgGraceNeg)
	}
}

// namespaceSetter is what the create and update builders of a namespace have in common.
type namespaceSetter[T any] interface {
	SetNillableProjectCreationLevel(*string) T
	SetNillableSubgroupCreationLevel(*string) T
	SetNillableRequestAccessEnabled(*bool) T
	SetNillableRequireTwoFactorAuthentication(*bool) T
	SetNillableTwoFactorGracePeriod(*int) T
	SetNillableLfsEnabled(*bool) T
	SetNillableEmailsEnabled(*bool) T
	SetNillableMentionsDisabled(*bool) T
	SetNillableDefaultBranch(*string) T
	SetNillableMembershipLock(*bool) T
}

// applySettings copies the given settings onto a builder. share_with_group_lock,
// auto_devops_enabled and shared_runners_setting have rules of their own and are set by the
// caller.
func applySettings[T namespaceSetter[T]](b T, s *Settings) {
	b.SetNillableProjectCreationLevel(s.ProjectCreationLevel).
		SetNillableSubgroupCreationLevel(s.SubgroupCreationLevel).
		SetNillableRequestAccessEnabled(s.RequestAccessEnabled).
		SetNillableRequireTwoFactorAuthentication(s.RequireTwoFactorAuth).
		SetNillableTwoFactorGracePeriod(s.TwoFactorGracePeriod).
		SetNillableLfsEnabled(s.LFSEnabled).
		SetNillableEmailsEnabled(s.EmailsEnabled).
		SetNillableMentionsDisabled(s.MentionsDisabled).
		SetNillableDefaultBranch(s.DefaultBranch).
		SetNillableMembershipLock(s.MembershipLock)
}

var (
	_ namespaceSetter[*ent.NamespaceCreate]    = (*ent.NamespaceCreate)(nil)
	_ namespaceSetter[*ent.NamespaceUpdateOne] = (*ent.NamespaceUpdateOne)(nil)
)
