package authz

import (
	"anvil/ent"
	"anvil/ent/project"
)

// The project abilities follow GitLab's ProjectPolicy (app/policies/project_policy.rb) and
// ProjectFeature (app/models/project_feature.rb): a role grants an ability to members; the
// project's visibility extends some of them to non-members (GitLab's public_access and
// public_user_access); a feature's access level then takes abilities away from those it is
// not available to (GitLab's "<feature>_disabled" conditions, which even administrators do not
// pass when the feature is disabled); and an archived project takes away every ability that
// changes it (GitLab's ArchivedAbilities), for everyone, administrators included.

// reach is who, besides members with the rule's role, an ability reaches through the project's
// visibility alone.
type reach int

const (
	// membersOnly: no one beyond the role.
	membersOnly reach = iota
	// signedIn: signed-in users the visibility shows the project to (public projects, and
	// internal ones for users who are not external): GitLab's public_user_access, which
	// grants non-members its guest_access abilities.
	signedIn
	// everyone: whoever the visibility shows the project to, anonymous callers of public
	// projects included: GitLab's public_access.
	everyone
)

// projectRule is how GitLab decides one project ability.
type projectRule struct {
	role     Level     // the least membership that grants it; NoAccess: no membership alone
	reach    reach     // who else it reaches through the visibility
	features []Feature // features that must be available to the actor
	needs    Ability   // another ability it requires (merge requests need the code)
	write    bool      // it changes the project: refused on archived projects
	// also grants it in GitLab's special cases; prevent refuses it in others.
	also, prevent func(a *Actor, p *ent.Project, level Level) bool
}

var (
	repository   = []Feature{FeatureRepository}
	mergeReqs    = []Feature{FeatureMergeRequests, FeatureRepository}
	builds       = []Feature{FeatureBuilds, FeatureRepository}
	environments = []Feature{FeatureEnvironments, FeatureBuilds, FeatureRepository}
	featureFlags = []Feature{FeatureFeatureFlags, FeatureRepository}
	clusters     = []Feature{FeatureInfrastructure, FeatureRepository}
)

// projectRules are the project abilities. Administrators (admin mode off, as GitLab's default)
// have every role's abilities; nothing else is granted them.
var projectRules = map[Ability]projectRule{
	ReadProject:        {role: Guest, reach: everyone},
	ReadProjectMember:  {role: Guest, reach: everyone},
	AdminProject:       {role: Maintainer},
	AdminProjectMember: {role: Maintainer},
	ShareProject:       {role: Maintainer},
	CreateProjectToken: {role: Maintainer},
	ChangeVisibility:   {role: Owner},
	RemoveProject:      {role: Owner},
	ArchiveProject:     {role: Owner},
	ManageOwners:       {role: Owner},
	RenameProject:      {role: Owner},
	ReadStatistics:     {role: Reporter},
	LinkForkedProject:  {role: Owner},
	RemoveForkProject:  {role: Owner},
	ChangeNamespace:    {role: Owner},
	RequestAccess:      {write: true, also: canRequestAccess},
	ReadNote:           {role: Guest, reach: everyone},
	CreateNote:         {role: Guest, reach: signedIn, write: true},
	AdminNote:          {role: Maintainer, write: true},
	ReadInternalNote:   {role: Reporter},
	SetNoteCreatedAt:   {role: Owner},
	UploadFile:         {role: Guest, reach: signedIn, write: true},
	AwardEmoji:         {role: Guest, reach: signedIn, write: true},

	DownloadCode:                {role: Reporter, reach: everyone, features: repository},
	PushCode:                    {role: Developer, features: repository, write: true},
	AdminTag:                    {role: Developer, features: repository, write: true},
	PushToDeleteProtectedBranch: {role: Maintainer, write: true},
	ForkProject:                 {role: Reporter, reach: signedIn, features: []Feature{FeatureForking, FeatureRepository}},
	ReadRepositoryGraphs:        {role: Reporter, reach: everyone, features: []Feature{FeatureRepository, FeatureAnalytics}},

	ReadIssue:   {role: Guest, reach: everyone, features: []Feature{FeatureIssues}},
	CreateIssue: {role: Guest, reach: signedIn, features: []Feature{FeatureIssues}, write: true},
	UpdateIssue: {role: Reporter, features: []Feature{FeatureIssues}, write: true},
	AdminIssue:  {role: Reporter, features: []Feature{FeatureIssues}, write: true},
	// Confidential issues: Reporters read all of them (authors and assignees their own, decided
	// per issue by the issue service); deleting an issue is the Owner's.
	ReadConfidentialIssues: {role: Reporter, features: []Feature{FeatureIssues}},
	DestroyIssue:           {role: Owner, features: []Feature{FeatureIssues}, write: true},
	// Labels and milestones are read by every project reader and managed by Reporters.
	ReadLabel:        {role: Guest, reach: everyone},
	AdminLabel:       {role: Reporter, write: true},
	ReadMilestone:    {role: Guest, reach: everyone},
	AdminMilestone:   {role: Reporter, write: true},
	DestroyMilestone: {role: Reporter, write: true},

	ReadMergeRequest:       {role: Reporter, reach: everyone, features: mergeReqs, needs: DownloadCode},
	CreateMergeRequestIn:   {role: Guest, reach: signedIn, features: mergeReqs, needs: DownloadCode, write: true},
	CreateMergeRequestFrom: {role: Developer, features: mergeReqs, needs: DownloadCode, write: true},
	UpdateMergeRequest:     {role: Developer, features: mergeReqs, needs: DownloadCode, write: true},
	AdminMergeRequest:      {role: Developer, features: mergeReqs, needs: DownloadCode, write: true},

	// Public pipelines (public_jobs) show jobs to every reader and pipelines to every member.
	ReadBuild:      {role: Reporter, features: builds, also: publicJobsReader},
	CreateBuild:    {role: Developer, features: builds, write: true},
	UpdateBuild:    {role: Developer, features: builds, write: true},
	AdminBuild:     {role: Maintainer, features: builds, write: true},
	ReadPipeline:   {role: Reporter, reach: everyone, features: builds, also: publicJobsMember},
	CreatePipeline: {role: Developer, features: builds, write: true},

	ReadSnippet:   {role: Guest, reach: everyone, features: []Feature{FeatureSnippets}},
	CreateSnippet: {role: Reporter, features: []Feature{FeatureSnippets}, write: true},
	UpdateSnippet: {role: Maintainer, features: []Feature{FeatureSnippets}, write: true},
	AdminSnippet:  {role: Maintainer, features: []Feature{FeatureSnippets}, write: true},

	ReadWiki:         {role: Guest, reach: everyone, features: []Feature{FeatureWiki}},
	DownloadWikiCode: {role: Reporter, reach: everyone, features: []Feature{FeatureWiki}},
	CreateWiki:       {role: Developer, features: []Feature{FeatureWiki}, write: true},
	AdminWiki:        {role: Maintainer, features: []Feature{FeatureWiki}, write: true},

	ReadPagesContent: {role: Guest, reach: everyone, features: []Feature{FeaturePages}},
	UpdatePages:      {role: Maintainer, features: []Feature{FeaturePages}, write: true},

	ReadContainerImage:    {role: Reporter, reach: everyone, features: []Feature{FeatureContainerRegistry}, also: externalGuest},
	CreateContainerImage:  {role: Developer, features: []Feature{FeatureContainerRegistry}, write: true},
	UpdateContainerImage:  {role: Developer, features: []Feature{FeatureContainerRegistry}, write: true},
	DestroyContainerImage: {role: Developer, features: []Feature{FeatureContainerRegistry}, write: true},
	AdminContainerImage:   {role: Maintainer, features: []Feature{FeatureContainerRegistry}, write: true},

	ReadRelease:    {role: Guest, reach: everyone, features: []Feature{FeatureReleases}},
	CreateRelease:  {role: Developer, features: []Feature{FeatureReleases}, write: true},
	UpdateRelease:  {role: Developer, features: []Feature{FeatureReleases}, write: true},
	DestroyRelease: {role: Developer, features: []Feature{FeatureReleases}, write: true},

	ReadEnvironment:    {role: Reporter, reach: everyone, features: environments},
	CreateEnvironment:  {role: Developer, features: environments, write: true},
	UpdateEnvironment:  {role: Developer, features: environments, write: true},
	DestroyEnvironment: {role: Developer, features: environments, write: true},

	ReadFeatureFlag:    {role: Developer, features: featureFlags},
	CreateFeatureFlag:  {role: Developer, features: featureFlags, write: true},
	UpdateFeatureFlag:  {role: Developer, features: featureFlags, write: true},
	DestroyFeatureFlag: {role: Developer, features: featureFlags, write: true},

	ReadCluster:        {role: Developer, features: clusters},
	ReadTerraformState: {role: Developer, features: []Feature{FeatureInfrastructure}},

	ReadAlertManagementAlert: {role: Developer, features: []Feature{FeatureMonitor}},
	ReadSentryIssue:          {role: Reporter, features: []Feature{FeatureMonitor}},

	ReadAnalytics: {role: Guest, reach: everyone, features: []Feature{FeatureAnalytics}},
	// Cycle analytics also need issues or merge requests.
	ReadCycleAnalytics: {role: Guest, reach: everyone, features: []Feature{FeatureAnalytics}, prevent: noIssuables},

	AccessSecurityAndCompliance: {role: Developer, features: []Feature{FeatureSecurityAndCompliance}},

	ReadRequirement:   {role: Guest, reach: everyone, features: []Feature{FeatureRequirements}},
	CreateRequirement: {role: Reporter, features: []Feature{FeatureRequirements}, write: true},

	ReadModelExperiments:  {role: Guest, reach: everyone, features: []Feature{FeatureModelExperiments}},
	WriteModelExperiments: {role: Reporter, features: []Feature{FeatureModelExperiments}},
	ReadModelRegistry:     {role: Guest, reach: everyone, features: []Feature{FeatureModelRegistry}},
	WriteModelRegistry:    {role: Reporter, features: []Feature{FeatureModelRegistry}},
}

// sameAs are abilities GitLab defines as another (read_code is download_code).
var sameAs = map[Ability]Ability{ReadCode: DownloadCode}

// CanProject decides a project ability of a, whose level in p is level (as ProjectLevel
// computes it: Admin for administrators), in GitLab's order: the archived flag and the
// features take the ability away, then a role or the visibility grants it.
func CanProject(a *Actor, p *ent.Project, level Level, ability Ability) bool {
	if same, ok := sameAs[ability]; ok {
		ability = same
	}
	r, ok := projectRules[ability]
	if !ok {
		return false
	}
	if a.IsAdmin() {
		level = Admin
	}
	if r.write && p.Archived {
		return false
	}
	for _, f := range r.features {
		if !FeatureAvailable(a, p, level, f) {
			return false
		}
	}
	if r.prevent != nil && r.prevent(a, p, level) {
		return false
	}
	if r.needs != "" && !CanProject(a, p, level, r.needs) {
		return false
	}
	return r.grants(a, p, level)
}

// grants reports whether the rule's role, its reach or its special case gives a the ability.
func (r projectRule) grants(a *Actor, p *ent.Project, level Level) bool {
	if r.role > NoAccess && level >= r.role {
		return true
	}
	if r.reach != membersOnly && canSeeVisibility(a, string(p.Visibility)) &&
		(r.reach == everyone || !a.IsAnonymous()) {
		return true
	}
	return r.also != nil && r.also(a, p, level)
}

// canReadProject reports whether a, whose level in p is level, may read p: the rule of
// ReadProject (a member, an administrator, or shown the project by its visibility).
func canReadProject(a *Actor, p *ent.Project, level Level) bool {
	return a.IsAdmin() || level >= Guest || canSeeVisibility(a, string(p.Visibility))
}

// canRequestAccess: a signed-in non-member the visibility shows the project to may ask to join
// when the project accepts requests; administrators and members may not.
func canRequestAccess(a *Actor, p *ent.Project, level Level) bool {
	return !a.IsAnonymous() && !a.IsAdmin() && level < Guest && p.RequestAccessEnabled &&
		canSeeVisibility(a, string(p.Visibility))
}

// publicJobsReader: with public pipelines, every reader sees the jobs.
func publicJobsReader(a *Actor, p *ent.Project, level Level) bool {
	return p.PublicJobs && canReadProject(a, p, level)
}

// publicJobsMember: with public pipelines, every member sees the pipelines.
func publicJobsMember(_ *Actor, p *ent.Project, level Level) bool {
	return p.PublicJobs && level >= Guest
}

// externalGuest: external users who are members of an internal or public project read its
// container images (the visibility alone does not show them internal projects).
func externalGuest(a *Actor, p *ent.Project, level Level) bool {
	return a.IsExternal() && level >= Guest && p.Visibility != project.VisibilityPrivate
}

// noIssuables: neither issues nor merge requests are available.
func noIssuables(a *Actor, p *ent.Project, level Level) bool {
	return !FeatureAvailable(a, p, level, FeatureIssues) && !FeatureAvailable(a, p, level, FeatureMergeRequests)
}
