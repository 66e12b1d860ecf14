package presenter

import (
	"encoding/json"
	"html"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/authz"
	"anvil/internal/service/projects"
)

// ProjectOptions are the request options that change project shapes: license (license),
// statistics (statistics) and with_custom_attributes (administrators only).
type ProjectOptions struct {
	License          bool
	Statistics       bool
	CustomAttributes bool
	// StatisticsOf are the statistics shown with Statistics, by project id (zero when missing).
	StatisticsOf map[int]*ent.ProjectStatistics
}

// NamespaceBasic is GitLab's NamespaceBasic, the namespace embedded in a project.
type NamespaceBasic struct {
	ID        int     `json:"id"`
	Name      string  `json:"name"`
	Path      string  `json:"path"`
	Kind      string  `json:"kind"`
	FullPath  string  `json:"full_path"`
	ParentID  *int    `json:"parent_id"`
	AvatarURL *string `json:"avatar_url"`
	WebURL    string  `json:"web_url"`
}

// License is a detected repository license (GitLab's LicenseBasic).
type License struct {
	Key       string  `json:"key"`
	Name      string  `json:"name"`
	Nickname  *string `json:"nickname"`
	HTMLURL   *string `json:"html_url"`
	SourceURL *string `json:"source_url"`
}

// ProjectIdentity is the smallest project shape.
type ProjectIdentity struct {
	ID                int     `json:"id"`
	Description       *string `json:"description"`
	Name              string  `json:"name"`
	NameWithNamespace string  `json:"name_with_namespace"`
	Path              string  `json:"path"`
	PathWithNamespace string  `json:"path_with_namespace"`
	CreatedAt         Time    `json:"created_at"`
}

// ProjectBasic is GitLab's BasicProjectDetails: what anonymous callers and simple=true get.
// Fields tagged omitempty are absent when the viewer may not see them (default_branch,
// readme_url and forks_count need code access; license fields need license=true).
type ProjectBasic struct {
	ProjectIdentity
	DefaultBranch    *string            `json:"default_branch,omitempty"`
	TagList          []string           `json:"tag_list"`
	Topics           []string           `json:"topics"`
	SSHURLToRepo     string             `json:"ssh_url_to_repo"`
	HTTPURLToRepo    string             `json:"http_url_to_repo"`
	WebURL           string             `json:"web_url"`
	ReadmeURL        *Optional[string]  `json:"readme_url,omitempty"`
	ForksCount       *int               `json:"forks_count,omitempty"`
	LicenseURL       *Optional[string]  `json:"license_url,omitempty"`
	License          *Optional[License] `json:"license,omitempty"`
	AvatarURL        *string            `json:"avatar_url"`
	StarCount        int                `json:"star_count"`
	LastActivityAt   Time               `json:"last_activity_at"`
	Namespace        NamespaceBasic     `json:"namespace"`
	CustomAttributes *[]CustomAttribute `json:"custom_attributes,omitempty"`
}

// ProjectDetails is what GET /projects/:id shows anonymous callers: the basic shape and the
// fork parent.
type ProjectDetails struct {
	ProjectBasic
	ForkedFromProject *ProjectBasic `json:"forked_from_project,omitempty"`
}

// Optional renders a value that is present in the JSON but may be null.
type Optional[T any] struct{ V *T }

// MarshalJSON renders the value or null.
func (o Optional[T]) MarshalJSON() ([]byte, error) { return json.Marshal(o.V) }

// ProjectLinks are the _links of a project.
type ProjectLinks struct {
	Self          string `json:"self"`
	Issues        string `json:"issues,omitempty"`
	MergeRequests string `json:"merge_requests,omitempty"`
	RepoBranches  string `json:"repo_branches"`
	Labels        string `json:"labels"`
	Events        string `json:"events"`
	Members       string `json:"members"`
	ClusterAgents string `json:"cluster_agents"`
}

// ContainerExpirationPolicy is a project's registry cleanup policy.
type ContainerExpirationPolicy struct {
	Cadence         string  `json:"cadence"`
	Enabled         bool    `json:"enabled"`
	KeepN           int     `json:"keep_n"`
	OlderThan       string  `json:"older_than"`
	NameRegex       string  `json:"name_regex"`
	NameRegexKeep   *string `json:"name_regex_keep"`
	NextRunAt       Time    `json:"next_run_at"`
	NameRegexDelete string  `json:"name_regex_delete"`
}

// ProjectStatistics are a project's storage statistics.
type ProjectStatistics struct {
	CommitCount           int `json:"commit_count"`
	StorageSize           int `json:"storage_size"`
	RepositorySize        int `json:"repository_size"`
	WikiSize              int `json:"wiki_size"`
	LFSObjectsSize        int `json:"lfs_objects_size"`
	JobArtifactsSize      int `json:"job_artifacts_size"`
	PipelineArtifactsSize int `json:"pipeline_artifacts_size"`
	PackagesSize          int `json:"packages_size"`
	SnippetsSize          int `json:"snippets_size"`
	UploadsSize           int `json:"uploads_size"`
	ContainerRegistrySize int `json:"container_registry_size"`
}

// ProjectCISettings are the CI/CD fields shown to those who administer the project.
type ProjectCISettings struct {
	CIDefaultGitDepth                        int      `json:"ci_default_git_depth"`
	CIDeletePipelinesInSeconds               *int     `json:"ci_delete_pipelines_in_seconds"`
	CIForwardDeploymentEnabled               bool     `json:"ci_forward_deployment_enabled"`
	CIForwardDeploymentRollbackAllowed       bool     `json:"ci_forward_deployment_rollback_allowed"`
	CIJobTokenScopeEnabled                   bool     `json:"ci_job_token_scope_enabled"`
	CISeparatedCaches                        bool     `json:"ci_separated_caches"`
	CIAllowForkPipelinesToRunInParentProject bool     `json:"ci_allow_fork_pipelines_to_run_in_parent_project"`
	CIIDTokenSubClaimComponents              []string `json:"ci_id_token_sub_claim_components"`
	BuildGitStrategy                         string   `json:"build_git_strategy"`
	KeepLatestArtifact                       bool     `json:"keep_latest_artifact"`
	RestrictUserDefinedVariables             bool     `json:"restrict_user_defined_variables"`
	CIPipelineVariablesMinimumOverrideRole   string   `json:"ci_pipeline_variables_minimum_override_role"`
	RunnersToken                             *string  `json:"runners_token"`
	RunnerTokenExpirationInterval            *int     `json:"runner_token_expiration_interval"`
	GroupRunnersEnabled                      bool     `json:"group_runners_enabled"`
	AutoCancelPendingPipelines               string   `json:"auto_cancel_pending_pipelines"`
	BuildTimeout                             int      `json:"build_timeout"`
	AutoDevopsEnabled                        bool     `json:"auto_devops_enabled"`
	AutoDevopsDeployStrategy                 string   `json:"auto_devops_deploy_strategy"`
	CIPushRepositoryForJobTokenAllowed       bool     `json:"ci_push_repository_for_job_token_allowed"`
}

// Project is GitLab's full Project entity (with the Enterprise Edition additions).
type Project struct {
	ProjectBasic
	ForkedFromProject                *ProjectBasic              `json:"forked_from_project,omitempty"`
	ContainerRegistryImagePrefix     string                     `json:"container_registry_image_prefix"`
	Links                            ProjectLinks               `json:"_links"`
	PackagesEnabled                  bool                       `json:"packages_enabled"`
	EmptyRepo                        bool                       `json:"empty_repo"`
	Archived                         bool                       `json:"archived"`
	Visibility                       string                     `json:"visibility"`
	Owner                            *UserBasic                 `json:"owner,omitempty"`
	ResolveOutdatedDiffDiscussions   bool                       `json:"resolve_outdated_diff_discussions"`
	ContainerExpirationPolicy        *ContainerExpirationPolicy `json:"container_expiration_policy"`
	RepositoryObjectFormat           string                     `json:"repository_object_format"`
	IssuesEnabled                    bool                       `json:"issues_enabled"`
	MergeRequestsEnabled             bool                       `json:"merge_requests_enabled"`
	WikiEnabled                      bool                       `json:"wiki_enabled"`
	JobsEnabled                      bool                       `json:"jobs_enabled"`
	SnippetsEnabled                  bool                       `json:"snippets_enabled"`
	ContainerRegistryEnabled         bool                       `json:"container_registry_enabled"`
	ServiceDeskEnabled               bool                       `json:"service_desk_enabled"`
	ServiceDeskAddress               *Optional[string]          `json:"service_desk_address,omitempty"`
	CanCreateMergeRequestIn          bool                       `json:"can_create_merge_request_in"`
	IssuesAccessLevel                string                     `json:"issues_access_level"`
	RepositoryAccessLevel            string                     `json:"repository_access_level"`
	MergeRequestsAccessLevel         string                     `json:"merge_requests_access_level"`
	ForkingAccessLevel               string                     `json:"forking_access_level"`
	WikiAccessLevel                  string                     `json:"wiki_access_level"`
	BuildsAccessLevel                string                     `json:"builds_access_level"`
	SnippetsAccessLevel              string                     `json:"snippets_access_level"`
	PagesAccessLevel                 string                     `json:"pages_access_level"`
	AnalyticsAccessLevel             string                     `json:"analytics_access_level"`
	ContainerRegistryAccessLevel     string                     `json:"container_registry_access_level"`
	SecurityAndComplianceAccessLevel string                     `json:"security_and_compliance_access_level"`
	ReleasesAccessLevel              string                     `json:"releases_access_level"`
	EnvironmentsAccessLevel          string                     `json:"environments_access_level"`
	FeatureFlagsAccessLevel          string                     `json:"feature_flags_access_level"`
	InfrastructureAccessLevel        string                     `json:"infrastructure_access_level"`
	MonitorAccessLevel               string                     `json:"monitor_access_level"`
	ModelExperimentsAccessLevel      string                     `json:"model_experiments_access_level"`
	ModelRegistryAccessLevel         string                     `json:"model_registry_access_level"`
	EmailsDisabled                   bool                       `json:"emails_disabled"`
	EmailsEnabled                    bool                       `json:"emails_enabled"`
	SharedRunnersEnabled             bool                       `json:"shared_runners_enabled"`
	LFSEnabled                       bool                       `json:"lfs_enabled"`
	CreatorID                        *int                       `json:"creator_id"`
	MRDefaultTargetSelf              *bool                      `json:"mr_default_target_self,omitempty"`
	ImportURL                        *Optional[string]          `json:"import_url,omitempty"`
	ImportType                       *Optional[string]          `json:"import_type,omitempty"`
	ImportStatus                     string                     `json:"import_status"`
	ImportError                      *Optional[string]          `json:"import_error,omitempty"`
	OpenIssuesCount                  *int                       `json:"open_issues_count,omitempty"`
	DescriptionHTML                  string                     `json:"description_html"`
	UpdatedAt                        Time                       `json:"updated_at"`
	*ProjectCISettings
	CIConfigPath                              *string            `json:"ci_config_path,omitempty"`
	PublicJobs                                bool               `json:"public_jobs"`
	SharedWithGroups                          []SharedWithGroup  `json:"shared_with_groups"`
	OnlyAllowMergeIfPipelineSucceeds          bool               `json:"only_allow_merge_if_pipeline_succeeds"`
	AllowMergeOnSkippedPipeline               bool               `json:"allow_merge_on_skipped_pipeline"`
	RequestAccessEnabled                      bool               `json:"request_access_enabled"`
	OnlyAllowMergeIfAllDiscussionsAreResolved bool               `json:"only_allow_merge_if_all_discussions_are_resolved"`
	RemoveSourceBranchAfterMerge              bool               `json:"remove_source_branch_after_merge"`
	PrintingMergeRequestLinkEnabled           bool               `json:"printing_merge_request_link_enabled"`
	MergeMethod                               string             `json:"merge_method"`
	SquashOption                              string             `json:"squash_option"`
	EnforceAuthChecksOnUploads                bool               `json:"enforce_auth_checks_on_uploads"`
	SuggestionCommitMessage                   *string            `json:"suggestion_commit_message"`
	MergeCommitTemplate                       *string            `json:"merge_commit_template"`
	SquashCommitTemplate                      *string            `json:"squash_commit_template"`
	IssueBranchTemplate                       *string            `json:"issue_branch_template"`
	Statistics                                *ProjectStatistics `json:"statistics,omitempty"`
	WarnAboutPotentiallyUnwantedCharacters    bool               `json:"warn_about_potentially_unwanted_characters"`
	AutocloseReferencedIssues                 bool               `json:"autoclose_referenced_issues"`
	MaxArtifactsSize                          *int               `json:"max_artifacts_size"`
	ApprovalsBeforeMerge                      int                `json:"approvals_before_merge"`
	Mirror                                    bool               `json:"mirror"`
	ExternalAuthorizationClassificationLabel  string             `json:"external_authorization_classification_label"`
	MarkedForDeletionAt                       *Date              `json:"marked_for_deletion_at"`
	MarkedForDeletionOn                       *Date              `json:"marked_for_deletion_on"`
	RequirementsEnabled                       bool               `json:"requirements_enabled"`
	RequirementsAccessLevel                   string             `json:"requirements_access_level"`
	SecurityAndComplianceEnabled              bool               `json:"security_and_compliance_enabled"`
	ComplianceFrameworks                      []string           `json:"compliance_frameworks"`
	IssuesTemplate                            *string            `json:"issues_template"`
	MergeRequestsTemplate                     *string            `json:"merge_requests_template"`
	CIRestrictPipelineCancellationRole        string             `json:"ci_restrict_pipeline_cancellation_role"`
	MergePipelinesEnabled                     bool               `json:"merge_pipelines_enabled"`
	MergeTrainsEnabled                        bool               `json:"merge_trains_enabled"`
	MergeTrainsSkipTrainAllowed               bool               `json:"merge_trains_skip_train_allowed"`
	OnlyAllowMergeIfAllStatusChecksPassed     bool               `json:"only_allow_merge_if_all_status_checks_passed"`
	AllowPipelineTriggerApproveDeployment     bool               `json:"allow_pipeline_trigger_approve_deployment"`
	PreventMergeWithoutJiraIssue              bool               `json:"prevent_merge_without_jira_issue"`
	AutoDuoCodeReviewEnabled                  bool               `json:"auto_duo_code_review_enabled"`
	// RepositoryStorage is shown to administrators (GitLab's change_repository_storage).
	RepositoryStorage *string `json:"repository_storage,omitempty"`
}

// MemberAccess is one side of a project's permissions: a membership level and its
// notification level.
type MemberAccess struct {
	AccessLevel       int `json:"access_level"`
	NotificationLevel int `json:"notification_level"`
}

// ProjectPermissions is the viewer's direct project membership and highest group membership.
type ProjectPermissions struct {
	ProjectAccess *MemberAccess `json:"project_access"`
	GroupAccess   *MemberAccess `json:"group_access"`
}

// ProjectWithAccess is the full project plus the viewer's permissions (signed-in callers).
type ProjectWithAccess struct {
	Project
	Permissions ProjectPermissions `json:"permissions"`
}

// ProjectGroupLink is a project's share with a group, as POST /projects/:id/share answers.
type ProjectGroupLink struct {
	ID          int   `json:"id"`
	ProjectID   int   `json:"project_id"`
	GroupID     int   `json:"group_id"`
	GroupAccess int   `json:"group_access"`
	ExpiresAt   *Date `json:"expires_at"`
}

// ProjectFullPath is "namespace/path"; the namespace edge must be loaded.
func ProjectFullPath(p *ent.Project) string {
	if p.Edges.Namespace == nil {
		return p.Path
	}
	return p.Edges.Namespace.FullPath + "/" + p.Path
}

// ProjectWebURL is the project's page.
func (p *Presenter) ProjectWebURL(pr *ent.Project) string {
	return p.BaseURL + "/" + ProjectFullPath(pr)
}

// host is the external host (with port) of the base URL.
func (p *Presenter) host() string {
	u, err := url.Parse(p.BaseURL)
	if err != nil {
		return "localhost"
	}
	return u.Host
}

// Namespace renders a namespace as NamespaceBasic; owner is the personal namespace's user.
func (p *Presenter) Namespace(ns *ent.Namespace) NamespaceBasic {
	out := NamespaceBasic{ID: ns.ID, Name: ns.Name, Path: ns.Path, Kind: string(ns.Kind), FullPath: ns.FullPath, ParentID: ns.ParentID}
	if ns.Kind == namespace.KindUser {
		out.WebURL = p.BaseURL + "/" + ns.Path
		if ns.Edges.Owner != nil {
			out.AvatarURL = p.AvatarURL(ns.Edges.Owner)
			out.WebURL = p.BaseURL + "/" + ns.Edges.Owner.Username
		}
	} else {
		out.WebURL = p.BaseURL + "/groups/" + ns.FullPath
		out.AvatarURL = strPtrOrNil(ns.AvatarURL)
	}
	return out
}

// ProjectIdentity renders the identity fields.
func (p *Presenter) ProjectIdentity(pr *ent.Project, v *projects.View) ProjectIdentity {
	return ProjectIdentity{
		ID: pr.ID, Description: strPtrOrNil(pr.Description), Name: pr.Name,
		NameWithNamespace: v.NamespaceFullName(pr) + " / " + pr.Name,
		Path:              pr.Path, PathWithNamespace: ProjectFullPath(pr), CreatedAt: Time(pr.CreatedAt),
	}
}

// defaultBranch is the project's default branch, else its group's, else "main".
func defaultBranch(pr *ent.Project) string {
	if pr.DefaultBranch != "" {
		return pr.DefaultBranch
	}
	if ns := pr.Edges.Namespace; ns != nil && ns.DefaultBranch != "" {
		return ns.DefaultBranch
	}
	return "main"
}

func topics(pr *ent.Project) []string {
	out := append([]string{}, pr.Topics...)
	sort.Strings(out)
	return out
}

// ProjectBasic renders BasicProjectDetails.
func (p *Presenter) ProjectBasic(pr *ent.Project, v *projects.View, o ProjectOptions) *ProjectBasic {
	full := ProjectFullPath(pr)
	out := &ProjectBasic{
		ProjectIdentity: p.ProjectIdentity(pr, v),
		TagList:         topics(pr), Topics: topics(pr),
		SSHURLToRepo:  "git@" + hostname(p.host()) + ":" + full + ".git",
		HTTPURLToRepo: p.BaseURL + "/" + full + ".git",
		WebURL:        p.BaseURL + "/" + full,
		AvatarURL:     strPtrOrNil(pr.AvatarURL), StarCount: pr.StarCount, LastActivityAt: Time(pr.LastActivityAt),
	}
	if ns := pr.Edges.Namespace; ns != nil {
		out.Namespace = p.Namespace(ns)
	}
	if v.Can(pr, authz.DownloadCode) {
		b := defaultBranch(pr)
		out.DefaultBranch = &b
		out.ReadmeURL = &Optional[string]{}
		if path := v.ReadmePath(pr); path != "" {
			u := p.ProjectWebURL(pr) + "/-/blob/" + b + "/" + path
			out.ReadmeURL.V = &u
		}
		n := v.ForksCount(pr)
		out.ForksCount = &n
	}
	if o.License {
		out.LicenseURL = &Optional[string]{}
		out.License = &Optional[License]{}
	}
	if o.CustomAttributes && v.Actor.IsAdmin() {
		out.CustomAttributes = &[]CustomAttribute{}
	}
	return out
}

// ProjectDetails renders what anonymous callers get from GET /projects/:id.
func (p *Presenter) ProjectDetails(pr *ent.Project, v *projects.View, o ProjectOptions) *ProjectDetails {
	return &ProjectDetails{ProjectBasic: *p.ProjectBasic(pr, v, o), ForkedFromProject: p.forkParent(pr, v)}
}

func (p *Presenter) forkParent(pr *ent.Project, v *projects.View) *ProjectBasic {
	if !v.ShowForkParent(pr) {
		return nil
	}
	return p.ProjectBasic(pr.Edges.ForkedFrom, v, ProjectOptions{})
}

// hostname drops the port from host.
func hostname(host string) string {
	if h, _, ok := strings.Cut(host, ":"); ok && !strings.Contains(h, "[") {
		return h
	}
	return host
}

// Project renders the full Project entity.
func (p *Presenter) Project(pr *ent.Project, v *projects.View, o ProjectOptions) *Project {
	full := ProjectFullPath(pr)
	api := p.BaseURL + "/api/v4/projects/" + strconv.Itoa(pr.ID)
	canAdmin := v.Can(pr, authz.AdminProject)
	feature := func(f string) bool { return v.FeatureAvailable(pr, f) }
	out := &Project{
		ProjectBasic:                 *p.ProjectBasic(pr, v, o),
		ForkedFromProject:            p.forkParent(pr, v),
		ContainerRegistryImagePrefix: p.registryHost() + "/" + strings.ToLower(full),
		Links: ProjectLinks{
			Self: api, RepoBranches: api + "/repository/branches", Labels: api + "/labels",
			Events: api + "/events", Members: api + "/members", ClusterAgents: api + "/cluster_agents",
		},
		PackagesEnabled: true, EmptyRepo: v.EmptyRepo(pr), Archived: pr.Archived,
		Visibility:                     string(pr.Visibility),
		ResolveOutdatedDiffDiscussions: pr.ResolveOutdatedDiffDiscussions,
		ContainerExpirationPolicy: &ContainerExpirationPolicy{
			Cadence: "1d", KeepN: 10, OlderThan: "90d", NameRegex: ".*", NameRegexDelete: ".*",
			NextRunAt: Time(pr.CreatedAt.Add(24 * time.Hour)),
		},
		RepositoryObjectFormat:   "sha1",
		IssuesEnabled:            feature("issues"),
		MergeRequestsEnabled:     feature("merge_requests"),
		WikiEnabled:              feature("wiki"),
		JobsEnabled:              feature("builds"),
		SnippetsEnabled:          feature("snippets"),
		ContainerRegistryEnabled: feature("container_registry"),
		CanCreateMergeRequestIn:  v.Can(pr, authz.CreateMergeRequestIn),

		IssuesAccessLevel:                pr.IssuesAccessLevel,
		RepositoryAccessLevel:            pr.RepositoryAccessLevel,
		MergeRequestsAccessLevel:         pr.MergeRequestsAccessLevel,
		ForkingAccessLevel:               pr.ForkingAccessLevel,
		WikiAccessLevel:                  pr.WikiAccessLevel,
		BuildsAccessLevel:                pr.BuildsAccessLevel,
		SnippetsAccessLevel:              pr.SnippetsAccessLevel,
		PagesAccessLevel:                 pr.PagesAccessLevel,
		AnalyticsAccessLevel:             pr.AnalyticsAccessLevel,
		ContainerRegistryAccessLevel:     pr.ContainerRegistryAccessLevel,
		SecurityAndComplianceAccessLevel: pr.SecurityAndComplianceAccessLevel,
		ReleasesAccessLevel:              pr.ReleasesAccessLevel,
		EnvironmentsAccessLevel:          pr.EnvironmentsAccessLevel,
		FeatureFlagsAccessLevel:          pr.FeatureFlagsAccessLevel,
		InfrastructureAccessLevel:        pr.InfrastructureAccessLevel,
		MonitorAccessLevel:               pr.MonitorAccessLevel,
		ModelExperimentsAccessLevel:      pr.ModelExperimentsAccessLevel,
		ModelRegistryAccessLevel:         pr.ModelRegistryAccessLevel,
		EmailsDisabled:                   !pr.EmailsEnabled,
		EmailsEnabled:                    pr.EmailsEnabled,
		SharedRunnersEnabled:             pr.SharedRunnersEnabled,
		LFSEnabled:                       pr.LfsEnabled,
		CreatorID:                        pr.CreatorID,
		ImportStatus:                     "none",
		DescriptionHTML:                  descriptionHTML(pr.Description),
		UpdatedAt:                        Time(pr.UpdatedAt),
		PublicJobs:                       pr.PublicJobs,
		SharedWithGroups:                 p.sharedWithGroups(pr, v),

		OnlyAllowMergeIfPipelineSucceeds:          pr.OnlyAllowMergeIfPipelineSucceeds,
		RequestAccessEnabled:                      pr.RequestAccessEnabled,
		OnlyAllowMergeIfAllDiscussionsAreResolved: pr.OnlyAllowMergeIfAllDiscussionsAreResolved,
		RemoveSourceBranchAfterMerge:              pr.RemoveSourceBranchAfterMerge,
		PrintingMergeRequestLinkEnabled:           pr.PrintingMergeRequestLinkEnabled,
		MergeMethod:                               pr.MergeMethod,
		SquashOption:                              pr.SquashOption,
		EnforceAuthChecksOnUploads:                true,
		WarnAboutPotentiallyUnwantedCharacters:    true,
		AutocloseReferencedIssues:                 true,
		RequirementsEnabled:                       feature("requirements"),
		RequirementsAccessLevel:                   pr.RequirementsAccessLevel,
		SecurityAndComplianceEnabled:              feature("security_and_compliance"),
		ComplianceFrameworks:                      []string{},
		CIRestrictPipelineCancellationRole:        "developer",
	}
	if feature("issues") {
		out.Links.Issues = api + "/issues"
		zero := 0
		out.OpenIssuesCount = &zero
	}
	if feature("merge_requests") {
		out.Links.MergeRequests = api + "/merge_requests"
	}
	if ns := pr.Edges.Namespace; ns != nil && ns.Kind == namespace.KindUser {
		out.Owner = p.UserBasic(ns.Edges.Owner)
	}
	if pr.ForkedFromID != nil {
		f := false
		out.MRDefaultTargetSelf = &f
	}
	if v.Can(pr, authz.AdminIssue) {
		out.ServiceDeskAddress = &Optional[string]{}
	}
	if canAdmin {
		out.ImportURL, out.ImportType, out.ImportError = &Optional[string]{}, &Optional[string]{}, &Optional[string]{}
		out.ProjectCISettings = &ProjectCISettings{
			CIDefaultGitDepth: 20, CIForwardDeploymentEnabled: true, CIForwardDeploymentRollbackAllowed: true,
			CISeparatedCaches: true, CIAllowForkPipelinesToRunInParentProject: true,
			CIIDTokenSubClaimComponents: []string{"project_path", "ref_type", "ref"},
			BuildGitStrategy:            "fetch", KeepLatestArtifact: true,
			CIPipelineVariablesMinimumOverrideRole: "developer", GroupRunnersEnabled: true,
			AutoCancelPendingPipelines: "enabled", BuildTimeout: pr.BuildTimeout,
			AutoDevopsDeployStrategy: "continuous",
		}
	}
	if v.Can(pr, authz.DownloadCode) {
		c := pr.CiConfigPath
		out.CIConfigPath = &c
	}
	if o.Statistics && v.Can(pr, authz.ReadStatistics) {
		out.Statistics = projectStatistics(o.StatisticsOf[pr.ID])
	}
	if v.Actor.IsAdmin() {
		storage := pr.RepositoryStorage
		out.RepositoryStorage = &storage
	}
	return out
}

func (p *Presenter) sharedWithGroups(pr *ent.Project, v *projects.View) []SharedWithGroup {
	out := []SharedWithGroup{}
	links := append([]*ent.ProjectGroupLink{}, pr.Edges.GroupLinks...)
	sort.Slice(links, func(i, j int) bool { return links[i].ID < links[j].ID })
	for _, l := range links {
		g := l.Edges.Group
		if !v.ShowSharedGroup(pr, g) {
			continue
		}
		out = append(out, SharedWithGroup{
			GroupID: g.ID, GroupName: g.Name, GroupFullPath: g.FullPath,
			GroupAccessLevel: l.GroupAccess, ExpiresAt: DatePtr(l.ExpiresAt),
		})
	}
	return out
}

// descriptionHTML renders a description as GitLab's Markdown renderer does for plain text:
// one paragraph per block, HTML-escaped.
func descriptionHTML(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	var b strings.Builder
	line := 1
	for _, block := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		lines := strings.Split(block, "\n")
		if strings.TrimSpace(block) != "" {
			last := lines[len(lines)-1]
			b.WriteString(`<p data-sourcepos="` + strconv.Itoa(line) + `:1-` + strconv.Itoa(line+len(lines)-1) + `:` +
				strconv.Itoa(len([]rune(last))) + `" dir="auto">`)
			b.WriteString(html.EscapeString(block))
			b.WriteString("</p>")
		}
		line += len(lines) + 1
	}
	return b.String()
}

// ProjectWithAccess renders the full project with the viewer's permissions.
func (p *Presenter) ProjectWithAccess(pr *ent.Project, v *projects.View, o ProjectOptions) *ProjectWithAccess {
	out := &ProjectWithAccess{Project: *p.Project(pr, v, o)}
	if l := v.ProjectAccess(pr); l != nil {
		out.Permissions.ProjectAccess = &MemberAccess{AccessLevel: *l, NotificationLevel: projects.NotificationLevelGlobal}
	}
	if l := v.GroupAccess(pr); l != nil {
		out.Permissions.GroupAccess = &MemberAccess{AccessLevel: *l, NotificationLevel: projects.NotificationLevelGlobal}
	}
	return out
}

// ProjectForViewer renders GET /projects/:id: the project with permissions for signed-in
// callers, the basic details (with the fork parent) for anonymous ones.
func (p *Presenter) ProjectForViewer(pr *ent.Project, v *projects.View, o ProjectOptions) any {
	if v.Actor.IsAnonymous() {
		return p.ProjectDetails(pr, v, o)
	}
	return p.ProjectWithAccess(pr, v, o)
}

// ProjectList renders a page of GET /projects or GET /users/:id/projects: basic details for
// anonymous callers and simple=true, else the full projects with permissions.
func (p *Presenter) ProjectList(rows []*ent.Project, v *projects.View, simple bool, o ProjectOptions) any {
	switch {
	case simple || v.Actor.IsAnonymous():
		out := make([]*ProjectBasic, 0, len(rows))
		for _, pr := range rows {
			out = append(out, p.ProjectBasic(pr, v, o))
		}
		return out
	default:
		out := make([]*ProjectWithAccess, 0, len(rows))
		for _, pr := range rows {
			out = append(out, p.ProjectWithAccess(pr, v, o))
		}
		return out
	}
}

// GroupProjectList renders a page of GET /groups/:id/projects: full projects without
// permissions, or basic details with simple=true.
func (p *Presenter) GroupProjectList(rows []*ent.Project, v *projects.View, simple bool, o ProjectOptions) any {
	if simple {
		out := make([]*ProjectBasic, 0, len(rows))
		for _, pr := range rows {
			out = append(out, p.ProjectBasic(pr, v, o))
		}
		return out
	}
	out := make([]*Project, 0, len(rows))
	for _, pr := range rows {
		out = append(out, p.Project(pr, v, o))
	}
	return out
}

// ProjectGroupLink renders a project share.
func (p *Presenter) ProjectGroupLink(l *ent.ProjectGroupLink) *ProjectGroupLink {
	return &ProjectGroupLink{ID: l.ID, ProjectID: l.ProjectID, GroupID: l.GroupID, GroupAccess: l.GroupAccess, ExpiresAt: DatePtr(l.ExpiresAt)}
}

// projectStatistics renders stored statistics (zeros when none were computed).
func projectStatistics(st *ent.ProjectStatistics) *ProjectStatistics {
	if st == nil {
		return &ProjectStatistics{}
	}
	return &ProjectStatistics{
		CommitCount: int(st.CommitCount), StorageSize: int(st.StorageSize), RepositorySize: int(st.RepositorySize),
		WikiSize: int(st.WikiSize), LFSObjectsSize: int(st.LfsObjectsSize), JobArtifactsSize: int(st.BuildArtifactsSize),
		PipelineArtifactsSize: int(st.PipelineArtifactsSize), PackagesSize: int(st.PackagesSize),
		SnippetsSize: int(st.SnippetsSize), UploadsSize: int(st.UploadsSize), ContainerRegistrySize: int(st.ContainerRegistrySize),
	}
}
