package webhooks

import (
	"context"

	"anvil/ent"
	"anvil/ent/predicate"
	"anvil/ent/webhook"
	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// Kind is the kind of a hook: system, group or project.
type Kind string

// The kinds of hooks.
const (
	System  Kind = "system"
	Group   Kind = "group"
	Project Kind = "project"
)

// Scope names whose hooks an operation addresses: the instance's (system hooks), a group's or a
// project's (Ref is its id or full path).
type Scope struct {
	Kind Kind
	Ref  string
}

// owner is a resolved Scope.
type owner struct {
	kind    Kind
	project *ent.Project
	group   *ent.Namespace
}

// own selects the owner's hooks.
func (o owner) own() predicate.WebHook {
	switch o.kind {
	case Project:
		return webhook.ProjectID(o.project.ID)
	case Group:
		return webhook.GroupID(o.group.ID)
	}
	return webhook.TypeEQ(webhook.TypeSystem)
}

// resolve finds the scope's owner if the actor may manage its hooks: administrators the
// system hooks; group Owners (admin_group) a group's; Maintainers (admin_project) a project's.
func (s *Service) resolve(ctx context.Context, actor *authz.Actor, sc Scope) (owner, error) {
	switch sc.Kind {
	case Project:
		p, err := s.Projects.Find(ctx, actor, sc.Ref, authz.AdminProject)
		return owner{kind: Project, project: p}, err
	case Group:
		g, err := s.groups.Find(ctx, actor, sc.Ref, authz.AdminGroup)
		return owner{kind: Group, group: g}, err
	}
	if actor.IsAnonymous() {
		return owner{}, apperr.Unauthorized()
	}
	if !actor.IsAdmin() {
		return owner{}, apperr.Forbidden("")
	}
	return owner{kind: System}, nil
}

// flags are the event flags each kind of hook has, by GitLab's names.
var flags = map[Kind][]string{
	System: {"push_events", "tag_push_events", "merge_requests_events", "repository_update_events"},
	Project: {"push_events", "tag_push_events", "merge_requests_events", "repository_update_events",
		"issues_events", "confidential_issues_events", "note_events", "confidential_note_events",
		"pipeline_events", "wiki_page_events", "job_events", "deployment_events", "releases_events",
		"resource_access_token_events"},
}

func init() {
	flags[Group] = append(append([]string{}, flags[Project]...), "subgroup_events", "emoji_events", "member_events")
}

// Flags are the event flags of a kind of hook.
func Flags(k Kind) []string { return flags[k] }

// Flag reads one event flag of h by its GitLab name.
func Flag(h *ent.WebHook, name string) bool {
	switch name {
	case "push_events":
		return h.PushEvents
	case "tag_push_events":
		return h.TagPushEvents
	case "merge_requests_events":
		return h.MergeRequestsEvents
	case "repository_update_events":
		return h.RepositoryUpdateEvents
	case "issues_events":
		return h.IssuesEvents
	case "confidential_issues_events":
		return h.ConfidentialIssuesEvents
	case "note_events":
		return h.NoteEvents
	case "confidential_note_events":
		return h.ConfidentialNoteEvents
	case "pipeline_events":
		return h.PipelineEvents
	case "wiki_page_events":
		return h.WikiPageEvents
	case "job_events":
		return h.JobEvents
	case "deployment_events":
		return h.DeploymentEvents
	case "releases_events":
		return h.ReleasesEvents
	case "subgroup_events":
		return h.SubgroupEvents
	case "emoji_events":
		return h.EmojiEvents
	case "resource_access_token_events":
		return h.ResourceAccessTokenEvents
	case "member_events":
		return h.MemberEvents
	}
	return false
}
