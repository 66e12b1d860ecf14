package presenter

import (
	"encoding/json"
	"strings"

	"anvil/ent"
	"anvil/internal/service/statistics"
)

// Group is GitLab's Group entity (BasicGroupDetails + Group): lists and the base of GroupDetail.
type Group struct {
	ID                              int                `json:"id"`
	WebURL                          string             `json:"web_url"`
	Name                            string             `json:"name"`
	Path                            string             `json:"path"`
	Description                     string             `json:"description"`
	Visibility                      string             `json:"visibility"`
	ShareWithGroupLock              bool               `json:"share_with_group_lock"`
	RequireTwoFactorAuthentication  bool               `json:"require_two_factor_authentication"`
	TwoFactorGracePeriod            int                `json:"two_factor_grace_period"`
	ProjectCreationLevel            string             `json:"project_creation_level"`
	AutoDevopsEnabled               *bool              `json:"auto_devops_enabled"`
	SubgroupCreationLevel           string             `json:"subgroup_creation_level"`
	EmailsDisabled                  bool               `json:"emails_disabled"`
	EmailsEnabled                   bool               `json:"emails_enabled"`
	ShowDiffPreviewInEmail          bool               `json:"show_diff_preview_in_email"`
	MentionsDisabled                bool               `json:"mentions_disabled"`
	LFSEnabled                      bool               `json:"lfs_enabled"`
	Archived                        bool               `json:"archived"`
	MathRenderingLimitsEnabled      bool               `json:"math_rendering_limits_enabled"`
	LockMathRenderingLimitsEnabled  bool               `json:"lock_math_rendering_limits_enabled"`
	DefaultBranch                   *string            `json:"default_branch"`
	DefaultBranchProtection         int                `json:"default_branch_protection"`
	DefaultBranchProtectionDefaults BranchProtection   `json:"default_branch_protection_defaults"`
	AvatarURL                       *string            `json:"avatar_url"`
	RequestAccessEnabled            bool               `json:"request_access_enabled"`
	FullName                        string             `json:"full_name"`
	FullPath                        string             `json:"full_path"`
	CreatedAt                       Time               `json:"created_at"`
	ParentID                        *int               `json:"parent_id"`
	OrganizationID                  int                `json:"organization_id"`
	SharedRunnersSetting            string             `json:"shared_runners_setting"`
	MaxArtifactsSize                *int               `json:"max_artifacts_size"`
	MarkedForDeletionOn             *Date              `json:"marked_for_deletion_on"`
	CustomAttributes                *[]CustomAttribute `json:"custom_attributes,omitempty"`
	Statistics                      *GroupStatistics   `json:"statistics,omitempty"`
	RootStorageStatistics           any                `json:"root_storage_statistics,omitempty"`
}

// BranchProtection is default_branch_protection_defaults: who may push and merge to a new
// project's default branch.
type BranchProtection struct {
	AllowedToPush  []AccessLevelRef `json:"allowed_to_push"`
	AllowForcePush bool             `json:"allow_force_push"`
	AllowedToMerge []AccessLevelRef `json:"allowed_to_merge"`
}

// AccessLevelRef is one {"access_level": n} entry.
type AccessLevelRef struct {
	AccessLevel int `json:"access_level"`
}

// GroupStatistics is the statistics object of a group (administrators, statistics=true).
type GroupStatistics struct {
	StorageSize           int64 `json:"storage_size"`
	RepositorySize        int64 `json:"repository_size"`
	WikiSize              int64 `json:"wiki_size"`
	LFSObjectsSize        int64 `json:"lfs_objects_size"`
	JobArtifactsSize      int64 `json:"job_artifacts_size"`
	PipelineArtifactsSize int64 `json:"pipeline_artifacts_size"`
	PackagesSize          int64 `json:"packages_size"`
	SnippetsSize          int64 `json:"snippets_size"`
	UploadsSize           int64 `json:"uploads_size"`
}

// SharedWithGroup is one entry of shared_with_groups: a group this group is shared with.
type SharedWithGroup struct {
	GroupID          int    `json:"group_id"`
	GroupName        string `json:"group_name"`
	GroupFullPath    string `json:"group_full_path"`
	GroupAccessLevel int    `json:"group_access_level"`
	ExpiresAt        *Date  `json:"expires_at"`
}

// GroupDetail is GitLab's GroupDetail entity (GET, POST and PUT of one group).
type GroupDetail struct {
	Group
	SharedWithGroups                     []SharedWithGroup `json:"shared_with_groups"`
	RunnersToken                         *string           `json:"runners_token,omitempty"`
	EnabledGitAccessProtocol             *string           `json:"enabled_git_access_protocol,omitempty"`
	PreventSharingGroupsOutsideHierarchy *bool             `json:"prevent_sharing_groups_outside_hierarchy,omitempty"`
	MembershipLock                       bool              `json:"membership_lock"`
	// Projects and SharedProjects are present unless with_projects=false.
	Projects       *[]json.RawMessage `json:"projects,omitempty"`
	SharedProjects *[]json.RawMessage `json:"shared_projects,omitempty"`
}

// GroupOptions are the optional parts of the Group shape.
type GroupOptions struct {
	// Statistics adds statistics (and root_storage_statistics on top-level groups).
	Statistics bool
	// CustomAttributes adds custom_attributes (administrators asking with_custom_attributes).
	CustomAttributes bool
	// StatisticsOf are the statistics shown with Statistics, by group id (zero when missing).
	StatisticsOf map[int]*statistics.Totals
}

// GroupDetailOptions are the optional parts of the GroupDetail shape.
type GroupDetailOptions struct {
	GroupOptions
	// WithProjects adds projects and shared_projects (with_projects, default true).
	WithProjects bool
	// CanAdmin (admin_group) reveals runners_token and enabled_git_access_protocol.
	CanAdmin bool
}

// FullName is a group's name with its ancestors' names, "Top / Sub / Group"; the ancestors must
// be loaded through Edges.Parent.
func FullName(ns *ent.Namespace) string {
	names := []string{ns.Name}
	for p := ns.Edges.Parent; p != nil; p = p.Edges.Parent {
		names = append(names, p.Name)
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	return strings.Join(names, " / ")
}

// GroupWebURL is the web page of a group.
func (p *Presenter) GroupWebURL(ns *ent.Namespace) string {
	return p.BaseURL + "/groups/" + ns.FullPath
}

// Group renders one group in the Group shape.
func (p *Presenter) Group(ns *ent.Namespace, o GroupOptions) *Group {
	g := &Group{
		ID: ns.ID, WebURL: p.GroupWebURL(ns), Name: ns.Name, Path: ns.Path, Description: ns.Description,
		Visibility: string(ns.Visibility), ShareWithGroupLock: ns.ShareWithGroupLock,
		RequireTwoFactorAuthentication: ns.RequireTwoFactorAuthentication,
		TwoFactorGracePeriod:           ns.TwoFactorGracePeriod,
		ProjectCreationLevel:           ns.ProjectCreationLevel, AutoDevopsEnabled: ns.AutoDevopsEnabled,
		SubgroupCreationLevel: ns.SubgroupCreationLevel,
		EmailsDisabled:        !ns.EmailsEnabled, EmailsEnabled: ns.EmailsEnabled, ShowDiffPreviewInEmail: true,
		MentionsDisabled: ns.MentionsDisabled, LFSEnabled: ns.LfsEnabled, Archived: ns.Archived,
		MathRenderingLimitsEnabled: true, DefaultBranch: strPtrOrNil(ns.DefaultBranch),
		DefaultBranchProtection: 2,
		DefaultBranchProtectionDefaults: BranchProtection{
			AllowedToPush:  []AccessLevelRef{{AccessLevel: 40}},
			AllowedToMerge: []AccessLevelRef{{AccessLevel: 40}},
		},
		AvatarURL: strPtrOrNil(ns.AvatarURL), RequestAccessEnabled: ns.RequestAccessEnabled,
		FullName: FullName(ns), FullPath: ns.FullPath, CreatedAt: Time(ns.CreatedAt), ParentID: ns.ParentID,
		OrganizationID: 1, SharedRunnersSetting: ns.SharedRunnersSetting,
	}
	if o.CustomAttributes {
		if g.CustomAttributes = groupAttributes(ns); g.CustomAttributes == nil {
			g.CustomAttributes = &[]CustomAttribute{}
		}
	}
	if o.Statistics {
		g.Statistics = &GroupStatistics{}
		if t := o.StatisticsOf[ns.ID]; t != nil {
			g.Statistics = &GroupStatistics{
				StorageSize: t.StorageSize, RepositorySize: t.RepositorySize, WikiSize: t.WikiSize,
				LFSObjectsSize: t.LFSObjectsSize, JobArtifactsSize: t.BuildArtifactsSize,
				PipelineArtifactsSize: t.PipelineArtifactsSize, PackagesSize: t.PackagesSize,
				SnippetsSize: t.SnippetsSize, UploadsSize: t.UploadsSize,
			}
		}
		if ns.ParentID == nil {
			g.RootStorageStatistics = json.RawMessage("null")
		}
	}
	return g
}

// Groups renders a list of groups in the Group shape.
func (p *Presenter) Groups(nss []*ent.Namespace, o GroupOptions) []*Group {
	out := make([]*Group, len(nss))
	for i, ns := range nss {
		out[i] = p.Group(ns, o)
	}
	return out
}

// GroupDetail renders one group in the GroupDetail shape; shared are its shares with groups
// the caller may see, with the invited group loaded.
func (p *Presenter) GroupDetail(ns *ent.Namespace, shared []*ent.GroupGroupLink, o GroupDetailOptions) *GroupDetail {
	d := &GroupDetail{Group: *p.Group(ns, o.GroupOptions), SharedWithGroups: make([]SharedWithGroup, 0, len(shared)),
		MembershipLock: ns.MembershipLock}
	for _, l := range shared {
		g := l.Edges.SharedWithGroup
		if g == nil {
			continue
		}
		d.SharedWithGroups = append(d.SharedWithGroups, SharedWithGroup{
			GroupID: g.ID, GroupName: g.Name, GroupFullPath: g.FullPath,
			GroupAccessLevel: l.GroupAccess, ExpiresAt: DatePtr(l.ExpiresAt),
		})
	}
	root := ns.ParentID == nil
	if o.CanAdmin {
		token := ns.RunnersToken
		d.RunnersToken = &token
		if root {
			all := "all"
			d.EnabledGitAccessProtocol = &all
		}
	}
	if root {
		f := false
		d.PreventSharingGroupsOutsideHierarchy = &f
	}
	if o.WithProjects {
		// The handler fills both lists from the projects service; they start empty.
		d.Projects, d.SharedProjects = &[]json.RawMessage{}, &[]json.RawMessage{}
	}
	return d
}

// PublicGroupDetails is GitLab's PublicGroupDetails: the group summary of a project's groups
// and invited groups. custom_attributes appears when the finder loaded them (administrators
// asking with_custom_attributes).
type PublicGroupDetails struct {
	ID               int                `json:"id"`
	WebURL           string             `json:"web_url"`
	Name             string             `json:"name"`
	AvatarURL        *string            `json:"avatar_url"`
	FullName         string             `json:"full_name"`
	FullPath         string             `json:"full_path"`
	CustomAttributes *[]CustomAttribute `json:"custom_attributes,omitempty"`
}

// PublicGroups renders groups in the PublicGroupDetails shape; their ancestors must be loaded.
func (p *Presenter) PublicGroups(nss []*ent.Namespace) []*PublicGroupDetails {
	out := make([]*PublicGroupDetails, len(nss))
	for i, ns := range nss {
		out[i] = &PublicGroupDetails{
			ID: ns.ID, WebURL: p.GroupWebURL(ns), Name: ns.Name, AvatarURL: strPtrOrNil(ns.AvatarURL),
			FullName: FullName(ns), FullPath: ns.FullPath, CustomAttributes: groupAttributes(ns),
		}
	}
	return out
}

// groupAttributes renders the custom attributes loaded on a group, nil when they were not.
func groupAttributes(ns *ent.Namespace) *[]CustomAttribute {
	if ns.Edges.CustomAttributes == nil {
		return nil
	}
	out := make([]CustomAttribute, len(ns.Edges.CustomAttributes))
	for i, a := range ns.Edges.CustomAttributes {
		out[i] = CustomAttribute{Key: a.Key, Value: a.Value}
	}
	return &out
}

// GroupCustomAttribute renders one custom attribute of a group.
func (p *Presenter) GroupCustomAttribute(a *ent.GroupCustomAttribute) CustomAttribute {
	return CustomAttribute{Key: a.Key, Value: a.Value}
}

// GroupCustomAttributes renders a group's custom attributes.
func (p *Presenter) GroupCustomAttributes(as []*ent.GroupCustomAttribute) []CustomAttribute {
	out := make([]CustomAttribute, len(as))
	for i, a := range as {
		out[i] = p.GroupCustomAttribute(a)
	}
	return out
}
