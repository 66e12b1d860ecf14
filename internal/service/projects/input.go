package projects

import (
	"strings"

	"anvil/ent"
	"anvil/internal/nullable"
)

// Features are the project features that carry an access level, by GitLab's name (the
// attribute is "<feature>_access_level"). Pages alone also accepts "public".
var Features = []string{
	"issues", "repository", "merge_requests", "forking", "wiki", "builds", "snippets", "pages",
	"analytics", "container_registry", "security_and_compliance", "releases", "environments",
	"feature_flags", "infrastructure", "monitor", "model_experiments", "model_registry",
	"requirements",
}

// FeatureLevels returns the values a feature's access level may take.
func FeatureLevels(feature string) []string {
	if feature == "pages" {
		return []string{"disabled", "private", "enabled", "public"}
	}
	return []string{"disabled", "private", "enabled"}
}

// Attributes are the project settings shared by create and update, in GitLab's names. A nil
// field was not given and keeps its default (create) or current value (update).
type Attributes struct {
	Name *string
	Path *string
	// Description (description): null clears it (stored as "", which the API shows).
	Description   nullable.Value[string]
	DefaultBranch *string
	Visibility    *string // private | internal | public
	// Topics replaces the topic list (GitLab's topics, or the deprecated tag_list).
	Topics *[]string
	// AccessLevels maps a feature of Features to its new level (disabled|private|enabled).
	AccessLevels map[string]string

	RequestAccessEnabled                      *bool
	LFSEnabled                                *bool
	SharedRunnersEnabled                      *bool
	EmailsEnabled                             *bool
	MergeMethod                               *string // merge | rebase_merge | ff
	SquashOption                              *string // never | always | default_on | default_off
	OnlyAllowMergeIfPipelineSucceeds          *bool
	OnlyAllowMergeIfAllDiscussionsAreResolved *bool
	RemoveSourceBranchAfterMerge              *bool
	PrintingMergeRequestLinkEnabled           *bool
	ResolveOutdatedDiffDiscussions            *bool
	PublicJobs                                *bool // public_jobs (public_builds)
	// CIConfigPath (ci_config_path): null clears it (the default .gitlab-ci.yml again).
	CIConfigPath nullable.Value[string]
	BuildTimeout *int // seconds
	// RepositoryStorage moves the project to another storage; administrators only.
	RepositoryStorage *string
}

// CreateInput is POST /projects: the attributes plus where the project goes.
type CreateInput struct {
	Attributes
	// NamespaceID is a group id or a personal namespace id; nil means the creator's personal
	// namespace.
	NamespaceID *int
	// UserID creates the project on behalf of that user (POST /projects/user/:user_id,
	// administrators only): the user is the creator and the default namespace is theirs.
	UserID *int
	// InitializeWithReadme asks the repository hooks for a first commit with a README.
	InitializeWithReadme bool
}

// UpdateInput is PUT /projects/:id.
type UpdateInput struct {
	Attributes
}

// apply copies the given attributes onto a create or update mutation.
func (a *Attributes) apply(m *ent.ProjectMutation) {
	setStr := func(v *string, set func(string)) {
		if v != nil {
			set(*v)
		}
	}
	setBool := func(v *bool, set func(bool)) {
		if v != nil {
			set(*v)
		}
	}
	setStr(a.Name, m.SetName)
	setStr(a.Path, m.SetPath)
	a.Description.Apply(m.SetDescription, func() { m.SetDescription("") })
	setStr(a.DefaultBranch, m.SetDefaultBranch)
	if a.Visibility != nil {
		m.SetVisibility(visibilityOf(*a.Visibility))
	}
	if a.Topics != nil {
		m.SetTopics(normalizeTopics(*a.Topics))
	}
	for feature, level := range a.AccessLevels {
		_ = m.SetField(feature+"_access_level", level)
	}
	setBool(a.RequestAccessEnabled, m.SetRequestAccessEnabled)
	setBool(a.LFSEnabled, m.SetLfsEnabled)
	setBool(a.SharedRunnersEnabled, m.SetSharedRunnersEnabled)
	setBool(a.EmailsEnabled, m.SetEmailsEnabled)
	setStr(a.MergeMethod, m.SetMergeMethod)
	setStr(a.SquashOption, m.SetSquashOption)
	setBool(a.OnlyAllowMergeIfPipelineSucceeds, m.SetOnlyAllowMergeIfPipelineSucceeds)
	setBool(a.OnlyAllowMergeIfAllDiscussionsAreResolved, m.SetOnlyAllowMergeIfAllDiscussionsAreResolved)
	setBool(a.RemoveSourceBranchAfterMerge, m.SetRemoveSourceBranchAfterMerge)
	setBool(a.PrintingMergeRequestLinkEnabled, m.SetPrintingMergeRequestLinkEnabled)
	setBool(a.ResolveOutdatedDiffDiscussions, m.SetResolveOutdatedDiffDiscussions)
	setBool(a.PublicJobs, m.SetPublicJobs)
	a.CIConfigPath.Apply(m.SetCiConfigPath, func() { m.SetCiConfigPath("") })
	if a.BuildTimeout != nil {
		m.SetBuildTimeout(*a.BuildTimeout)
	}
	setStr(a.RepositoryStorage, m.SetRepositoryStorage)
}

// normalizeTopics trims topics, drops blanks and duplicates (case-insensitively, keeping the
// first spelling), as GitLab's topic list does.
func normalizeTopics(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, t := range in {
		t = strings.TrimSpace(t)
		if t == "" || seen[strings.ToLower(t)] {
			continue
		}
		seen[strings.ToLower(t)] = true
		out = append(out, t)
	}
	return out
}
