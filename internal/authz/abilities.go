package authz

// Ability names an action, in GitLab's vocabulary. Callers ask for abilities, never for roles.
type Ability string

// Project abilities.
const (
	ReadProject         Ability = "read_project"
	ReadProjectMember   Ability = "read_project_member"
	DownloadCode        Ability = "download_code"
	PushCode            Ability = "push_code"
	AdminProject        Ability = "admin_project"
	AdminProjectMember  Ability = "admin_project_member"
	ChangeVisibility    Ability = "change_visibility_level"
	RemoveProject       Ability = "remove_project"
	ArchiveProject      Ability = "archive_project"
	ShareProject        Ability = "share_project"
	ForkProject         Ability = "fork_project"
	CreateProjectToken  Ability = "create_resource_access_tokens"
	ReadContainerImages Ability = "read_container_image"
	// ManageOwners is granting, changing or revoking the Owner role of a member.
	ManageOwners Ability = "manage_owners"
	// RenameProject is changing a project's name (its path only needs admin_project).
	RenameProject Ability = "rename_project"
	// CreateMergeRequestIn is opening merge requests that target the project.
	CreateMergeRequestIn Ability = "create_merge_request_in"
	// AdminIssue is triaging issues (labels, service desk address).
	AdminIssue Ability = "admin_issue"
	// ReadStatistics is reading a project's storage statistics.
	ReadStatistics Ability = "read_statistics"
	// LinkForkedProject is marking the project as a fork of another; RemoveForkProject is
	// removing that mark.
	LinkForkedProject Ability = "link_forked_project"
	RemoveForkProject Ability = "remove_fork_project"
	// ChangeNamespace is transferring the project to another namespace.
	ChangeNamespace Ability = "change_namespace"
)

// Group abilities.
const (
	ReadGroup          Ability = "read_group"
	ReadGroupMember    Ability = "read_group_member"
	AdminGroup         Ability = "admin_group"
	AdminGroupMember   Ability = "admin_group_member"
	CreateProjects     Ability = "create_projects"
	CreateSubgroup     Ability = "create_subgroup"
	RemoveGroup        Ability = "remove_group"
	ReadBillableMember Ability = "read_billable_member"
	// ReadNamespaceViaMembership is reading a namespace through a membership of at least Guest
	// (or owning a personal namespace): public visibility alone is not enough. The namespace
	// endpoints and transfer targets ask it.
	ReadNamespaceViaMembership Ability = "read_namespace_via_membership"
	// TransferProjects is moving projects into the namespace: Maintainer with the right to
	// create projects there.
	TransferProjects Ability = "transfer_projects"
)

// projectMinLevel is the access level each project ability needs beyond reading the project.
var projectMinLevel = map[Ability]Level{
	ReadProjectMember:    NoAccess,
	DownloadCode:         Reporter, // guests of private projects cannot read code; see canDownloadCode
	PushCode:             Developer,
	AdminProject:         Maintainer,
	AdminProjectMember:   Maintainer,
	ShareProject:         Maintainer,
	CreateProjectToken:   Maintainer,
	ChangeVisibility:     Owner,
	RemoveProject:        Owner,
	ArchiveProject:       Owner,
	ForkProject:          Reporter,
	ReadContainerImages:  Reporter,
	ManageOwners:         Owner,
	RenameProject:        Owner,
	CreateMergeRequestIn: Guest,
	AdminIssue:           Reporter,
	ReadStatistics:       Reporter,
	LinkForkedProject:    Owner,
	RemoveForkProject:    Owner,
	ChangeNamespace:      Owner,
}

// groupMinLevel is the access level each group ability needs beyond reading the group.
var groupMinLevel = map[Ability]Level{
	ReadGroupMember:    NoAccess,
	AdminGroup:         Owner,
	AdminGroupMember:   Owner,
	RemoveGroup:        Owner,
	ReadBillableMember: Owner,
	ManageOwners:       Owner,
	// Group access tokens need Owner (project access tokens need Maintainer).
	CreateProjectToken:         Owner,
	ReadNamespaceViaMembership: Guest,
}

// creationLevel maps a group's project_creation_level or subgroup_creation_level to the access
// level it requires.
func creationLevel(setting string) Level {
	switch setting {
	case "noone":
		return Admin + 1
	case "owner":
		return Owner
	case "maintainer":
		return Maintainer
	case "developer":
		return Developer
	case "administrator":
		return Admin
	}
	return Maintainer
}
