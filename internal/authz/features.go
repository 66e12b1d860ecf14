package authz

import (
	"anvil/ent"
	"anvil/internal/apperr"
)

// Feature is a project feature that carries an access level ("<feature>_access_level"), by
// GitLab's name.
type Feature string

// The project features (GitLab's ProjectFeature::FEATURES that Anvil stores).
const (
	FeatureIssues                Feature = "issues"
	FeatureRepository            Feature = "repository"
	FeatureMergeRequests         Feature = "merge_requests"
	FeatureForking               Feature = "forking"
	FeatureWiki                  Feature = "wiki"
	FeatureBuilds                Feature = "builds"
	FeatureSnippets              Feature = "snippets"
	FeaturePages                 Feature = "pages"
	FeatureAnalytics             Feature = "analytics"
	FeatureContainerRegistry     Feature = "container_registry"
	FeatureSecurityAndCompliance Feature = "security_and_compliance"
	FeatureReleases              Feature = "releases"
	FeatureEnvironments          Feature = "environments"
	FeatureFeatureFlags          Feature = "feature_flags"
	FeatureInfrastructure        Feature = "infrastructure"
	FeatureMonitor               Feature = "monitor"
	FeatureModelExperiments      Feature = "model_experiments"
	FeatureModelRegistry         Feature = "model_registry"
	FeatureRequirements          Feature = "requirements"
	FeatureOperations            Feature = "operations"
)

// The values of a feature's access level. Pages alone may also be "public" (its site readable
// by everyone even when the project is not); for the abilities it counts as enabled.
const (
	FeatureDisabled = "disabled"
	FeaturePrivate  = "private"
	FeatureEnabled  = "enabled"
	FeaturePublic   = "public"
)

// FeatureLevel returns p's access level for f.
func FeatureLevel(p *ent.Project, f Feature) string {
	switch f {
	case FeatureIssues:
		return p.IssuesAccessLevel
	case FeatureRepository:
		return p.RepositoryAccessLevel
	case FeatureMergeRequests:
		return p.MergeRequestsAccessLevel
	case FeatureForking:
		return p.ForkingAccessLevel
	case FeatureWiki:
		return p.WikiAccessLevel
	case FeatureBuilds:
		return p.BuildsAccessLevel
	case FeatureSnippets:
		return p.SnippetsAccessLevel
	case FeaturePages:
		return p.PagesAccessLevel
	case FeatureAnalytics:
		return p.AnalyticsAccessLevel
	case FeatureContainerRegistry:
		return p.ContainerRegistryAccessLevel
	case FeatureSecurityAndCompliance:
		return p.SecurityAndComplianceAccessLevel
	case FeatureReleases:
		return p.ReleasesAccessLevel
	case FeatureEnvironments:
		return p.EnvironmentsAccessLevel
	case FeatureFeatureFlags:
		return p.FeatureFlagsAccessLevel
	case FeatureInfrastructure:
		return p.InfrastructureAccessLevel
	case FeatureMonitor:
		return p.MonitorAccessLevel
	case FeatureModelExperiments:
		return p.ModelExperimentsAccessLevel
	case FeatureModelRegistry:
		return p.ModelRegistryAccessLevel
	case FeatureRequirements:
		return p.RequirementsAccessLevel
	case FeatureOperations:
		return p.OperationsAccessLevel
	}
	return FeatureDisabled
}

// privateFeatureLevel is the membership a feature set to "private" asks for: Reporter for
// merge requests, the container registry and environments, Guest for the others (GitLab's
// ProjectFeature::PRIVATE_FEATURES_MIN_ACCESS_LEVEL).
func privateFeatureLevel(f Feature) Level {
	switch f {
	case FeatureMergeRequests, FeatureContainerRegistry, FeatureEnvironments:
		return Reporter
	}
	return Guest
}

// FeatureAvailable is GitLab's feature_available?: whether f is on for the actor, whose level
// in p is level. "disabled" is off for everyone, administrators included; "private" is on for
// members with the feature's level (privateFeatureLevel) and for administrators; "enabled"
// (and pages' "public") is on for everyone — reading the project itself is decided apart. An
// unknown or empty level counts as enabled, as GitLab counts a missing one.
func FeatureAvailable(a *Actor, p *ent.Project, level Level, f Feature) bool {
	switch FeatureLevel(p, f) {
	case FeatureDisabled:
		return false
	case FeaturePrivate:
		return a.IsAdmin() || level >= privateFeatureLevel(f)
	}
	return true
}

// RequireFeature is GitLab's require_<feature>_enabled! (the branches, tags and commits APIs
// ask it for the repository before anything else): 404 "<Feature> Not Found" when f is not
// available to the actor.
func RequireFeature(a *Actor, p *ent.Project, level Level, f Feature) error {
	if FeatureAvailable(a, p, level, f) {
		return nil
	}
	return apperr.NotFound(featureResource[f])
}

// featureResource names a feature in a 404 (GitLab's not_found!("Repository")).
var featureResource = map[Feature]string{FeatureRepository: "Repository"}
