package authz

// Ability names an action, in GitLab's vocabulary. Callers ask for abilities, never for roles,
// feature levels or the archived flag.
type Ability string

// Project abilities: the project itself, its members and settings.
const (
	ReadProject        Ability = "read_project"
	ReadProjectMember  Ability = "read_project_member"
	AdminProject       Ability = "admin_project"
	AdminProjectMember Ability = "admin_project_member"
	ChangeVisibility   Ability = "change_visibility_level"
	RemoveProject      Ability = "remove_project"
	ArchiveProject     Ability = "archive_project"
	ShareProject       Ability = "share_project"
	CreateProjectToken Ability = "create_resource_access_tokens"
	// ManageOwners is granting, changing or revoking the Owner role of a member.
	ManageOwners Ability = "manage_owners"
	// RenameProject is changing a project's name (its path only needs admin_project).
	RenameProject Ability = "rename_project"
	// ReadStatistics is reading a project's storage statistics.
	ReadStatistics Ability = "read_statistics"
	// LinkForkedProject is marking the project as a fork of another; RemoveForkProject is
	// removing that mark.
	LinkForkedProject Ability = "link_forked_project"
	RemoveForkProject Ability = "remove_fork_project"
	// ChangeNamespace is transferring the project to another namespace.
	ChangeNamespace Ability = "change_namespace"
	// RequestAccess is asking to become a member.
	RequestAccess Ability = "request_access"
	// UploadFile is attaching an upload; CreateNote commenting; AwardEmoji reacting.
	UploadFile Ability = "upload_file"
	CreateNote Ability = "create_note"
	ReadNote   Ability = "read_note"
	AwardEmoji Ability = "award_emoji"
	// AdminNote is changing and deleting others' notes (authors change and delete their own);
	// ReadInternalNote is reading internal (confidential) notes and writing them;
	// SetNoteCreatedAt is back-dating a note.
	AdminNote        Ability = "admin_note"
	ReadInternalNote Ability = "read_internal_note"
	SetNoteCreatedAt Ability = "set_note_created_at"
)

// Repository abilities (the repository feature).
const (
	// DownloadCode is cloning, fetching and reading files, commits, branches and tags;
	// ReadCode is GitLab's name for reading it in the API (the same rule).
	DownloadCode Ability = "download_code"
	ReadCode     Ability = "read_code"
	// PushCode is pushing and every API write to the repository (commits, files, branches).
	PushCode Ability = "push_code"
	// AdminTag is creating and deleting tags.
	AdminTag Ability = "admin_tag"
	// PushToDeleteProtectedBranch is deleting a protected branch.
	PushToDeleteProtectedBranch Ability = "push_to_delete_protected_branch"
	// ForkProject is forking the project (the forking and repository features).
	ForkProject Ability = "fork_project"
	// ReadRepositoryGraphs is reading contributor and commit graphs (analytics too).
	ReadRepositoryGraphs Ability = "read_repository_graphs"
)

// Feature abilities: one family per feature with an access level.
const (
	ReadIssue   Ability = "read_issue"
	CreateIssue Ability = "create_issue"
	UpdateIssue Ability = "update_issue"
	// AdminIssue is triaging issues (labels, service desk address).
	AdminIssue Ability = "admin_issue"
	// ReadConfidentialIssues is reading every confidential issue (authors and assignees read
	// their own); DestroyIssue is deleting issues.
	ReadConfidentialIssues Ability = "read_confidential_issues"
	DestroyIssue           Ability = "destroy_issue"
	// ReadLabel is reading labels; AdminLabel creating, changing and deleting them.
	ReadLabel  Ability = "read_label"
	AdminLabel Ability = "admin_label"
	// ReadMilestone is reading milestones; AdminMilestone creating, changing and deleting them.
	ReadMilestone  Ability = "read_milestone"
	AdminMilestone Ability = "admin_milestone"
	// DestroyMilestone is deleting a milestone (a group's needs more than creating one).
	DestroyMilestone Ability = "destroy_milestone"

	ReadMergeRequest   Ability = "read_merge_request"
	UpdateMergeRequest Ability = "update_merge_request"
	AdminMergeRequest  Ability = "admin_merge_request"
	// CreateMergeRequestIn is opening merge requests that target the project;
	// CreateMergeRequestFrom is opening them from its branches.
	CreateMergeRequestIn   Ability = "create_merge_request_in"
	CreateMergeRequestFrom Ability = "create_merge_request_from"

	ReadBuild      Ability = "read_build"
	CreateBuild    Ability = "create_build"
	UpdateBuild    Ability = "update_build"
	AdminBuild     Ability = "admin_build"
	ReadPipeline   Ability = "read_pipeline"
	CreatePipeline Ability = "create_pipeline"

	ReadSnippet   Ability = "read_snippet"
	CreateSnippet Ability = "create_snippet"
	UpdateSnippet Ability = "update_snippet"
	AdminSnippet  Ability = "admin_snippet"

	ReadWiki         Ability = "read_wiki"
	DownloadWikiCode Ability = "download_wiki_code"
	CreateWiki       Ability = "create_wiki"
	AdminWiki        Ability = "admin_wiki"

	ReadPagesContent Ability = "read_pages_content"
	UpdatePages      Ability = "update_pages"

	ReadContainerImage    Ability = "read_container_image"
	CreateContainerImage  Ability = "create_container_image"
	UpdateContainerImage  Ability = "update_container_image"
	DestroyContainerImage Ability = "destroy_container_image"
	AdminContainerImage   Ability = "admin_container_image"

	ReadRelease    Ability = "read_release"
	CreateRelease  Ability = "create_release"
	UpdateRelease  Ability = "update_release"
	DestroyRelease Ability = "destroy_release"

	ReadEnvironment    Ability = "read_environment"
	CreateEnvironment  Ability = "create_environment"
	UpdateEnvironment  Ability = "update_environment"
	DestroyEnvironment Ability = "destroy_environment"

	ReadFeatureFlag    Ability = "read_feature_flag"
	CreateFeatureFlag  Ability = "create_feature_flag"
	UpdateFeatureFlag  Ability = "update_feature_flag"
	DestroyFeatureFlag Ability = "destroy_feature_flag"

	ReadCluster        Ability = "read_cluster"
	ReadTerraformState Ability = "read_terraform_state"

	ReadAlertManagementAlert Ability = "read_alert_management_alert"
	ReadSentryIssue          Ability = "read_sentry_issue"

	ReadAnalytics      Ability = "read_analytics"
	ReadCycleAnalytics Ability = "read_cycle_analytics"

	AccessSecurityAndCompliance Ability = "access_security_and_compliance"

	ReadRequirement   Ability = "read_requirement"
	CreateRequirement Ability = "create_requirement"

	ReadModelExperiments  Ability = "read_model_experiments"
	WriteModelExperiments Ability = "write_model_experiments"
	ReadModelRegistry     Ability = "read_model_registry"
	WriteModelRegistry    Ability = "write_model_registry"
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

	// Epics (a group's): ReadEpic is reading them (anyone who reads the group);
	// ReadConfidentialEpic reading confidential ones; CreateEpic and AdminEpic creating and
	// changing them (Planner or Reporter and up); DestroyEpic deleting them (Planner or Owner).
	ReadEpic             Ability = "read_epic"
	ReadConfidentialEpic Ability = "read_confidential_epic"
	CreateEpic           Ability = "create_epic"
	AdminEpic            Ability = "admin_epic"
	DestroyEpic          Ability = "destroy_epic"
	// AdminEpicTreeRelation is changing an epic's children and parent: any member of at least
	// Guest who reads the epic (public readers without a role may not).
	AdminEpicTreeRelation Ability = "admin_epic_tree_relation"
)

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
	// Group labels and milestones: any reader reads them; Reporters manage them; deleting a
	// group milestone needs Developer (the spec's stated role).
	ReadLabel:        NoAccess,
	AdminLabel:       Reporter,
	ReadMilestone:    NoAccess,
	AdminMilestone:   Reporter,
	DestroyMilestone: Developer,
	// Epics (GitLab's (reporter | planner) rules; DestroyEpic is decided in CanGroup).
	ReadEpic:              NoAccess,
	ReadConfidentialEpic:  Planner,
	CreateEpic:            Planner,
	AdminEpic:             Planner,
	AdminEpicTreeRelation: Guest,
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
