package presenter

import (
	"encoding/json"
	"sort"
	"time"

	"anvil/ent"
	"anvil/internal/service/webhooks"
)

// KeyOnly is a custom header or URL variable as presented: its key, never its value.
type KeyOnly struct {
	Key string `json:"key"`
}

// Hook is GitLab's Hook entity: a system hook (the spec's fields first, then GitLab's delivery
// state and filters). The token and every header and variable value are never presented.
type Hook struct {
	ID                     int       `json:"id"`
	URL                    string    `json:"url"`
	Name                   string    `json:"name"`
	Description            string    `json:"description"`
	CreatedAt              Time      `json:"created_at"`
	PushEvents             bool      `json:"push_events"`
	TagPushEvents          bool      `json:"tag_push_events"`
	MergeRequestsEvents    bool      `json:"merge_requests_events"`
	RepositoryUpdateEvents bool      `json:"repository_update_events"`
	EnableSSLVerification  bool      `json:"enable_ssl_verification"`
	AlertStatus            string    `json:"alert_status"`
	DisabledUntil          *Time     `json:"disabled_until"`
	URLVariables           []KeyOnly `json:"url_variables"`
	PushEventsBranchFilter *string   `json:"push_events_branch_filter"`
	BranchFilterStrategy   string    `json:"branch_filter_strategy"`
	CustomWebhookTemplate  *string   `json:"custom_webhook_template"`
	CustomHeaders          []KeyOnly `json:"custom_headers"`
}

// ProjectHook is a project hook.
type ProjectHook struct {
	Hook
	ProjectID                 int  `json:"project_id"`
	IssuesEvents              bool `json:"issues_events"`
	ConfidentialIssuesEvents  bool `json:"confidential_issues_events"`
	NoteEvents                bool `json:"note_events"`
	ConfidentialNoteEvents    bool `json:"confidential_note_events"`
	PipelineEvents            bool `json:"pipeline_events"`
	WikiPageEvents            bool `json:"wiki_page_events"`
	DeploymentEvents          bool `json:"deployment_events"`
	JobEvents                 bool `json:"job_events"`
	ReleasesEvents            bool `json:"releases_events"`
	ResourceAccessTokenEvents bool `json:"resource_access_token_events"`
}

// GroupHook is a group hook.
type GroupHook struct {
	Hook
	GroupID                   int  `json:"group_id"`
	IssuesEvents              bool `json:"issues_events"`
	ConfidentialIssuesEvents  bool `json:"confidential_issues_events"`
	NoteEvents                bool `json:"note_events"`
	ConfidentialNoteEvents    bool `json:"confidential_note_events"`
	PipelineEvents            bool `json:"pipeline_events"`
	WikiPageEvents            bool `json:"wiki_page_events"`
	DeploymentEvents          bool `json:"deployment_events"`
	JobEvents                 bool `json:"job_events"`
	ReleasesEvents            bool `json:"releases_events"`
	SubgroupEvents            bool `json:"subgroup_events"`
	EmojiEvents               bool `json:"emoji_events"`
	ResourceAccessTokenEvents bool `json:"resource_access_token_events"`
	MemberEvents              bool `json:"member_events"`
}

// keys are a map's keys, sorted, as KeyOnly values.
func keys(m map[string]string) []KeyOnly {
	out := make([]KeyOnly, 0, len(m))
	for k := range m {
		out = append(out, KeyOnly{Key: k})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Hook renders a hook in the shape of its kind (system, group or project) at now (alert_status
// and disabled_until depend on it).
func (p *Presenter) Hook(h *ent.WebHook, now time.Time) any {
	base := Hook{
		ID: h.ID, URL: h.URL, Name: h.Name, Description: h.Description, CreatedAt: Time(h.CreatedAt),
		PushEvents: h.PushEvents, TagPushEvents: h.TagPushEvents, MergeRequestsEvents: h.MergeRequestsEvents,
		RepositoryUpdateEvents: h.RepositoryUpdateEvents, EnableSSLVerification: h.EnableSslVerification,
		AlertStatus: webhooks.AlertStatus(h, now), DisabledUntil: TimePtr(webhooks.DisabledUntil(h, now)),
		URLVariables: keys(h.URLVariables), PushEventsBranchFilter: h.PushEventsBranchFilter,
		BranchFilterStrategy: string(h.BranchFilterStrategy), CustomWebhookTemplate: h.CustomWebhookTemplate,
		CustomHeaders: keys(h.CustomHeaders),
	}
	switch {
	case h.ProjectID != nil:
		return ProjectHook{Hook: base, ProjectID: *h.ProjectID, IssuesEvents: h.IssuesEvents,
			ConfidentialIssuesEvents: h.ConfidentialIssuesEvents, NoteEvents: h.NoteEvents,
			ConfidentialNoteEvents: h.ConfidentialNoteEvents, PipelineEvents: h.PipelineEvents,
			WikiPageEvents: h.WikiPageEvents, DeploymentEvents: h.DeploymentEvents, JobEvents: h.JobEvents,
			ReleasesEvents: h.ReleasesEvents, ResourceAccessTokenEvents: h.ResourceAccessTokenEvents}
	case h.GroupID != nil:
		return GroupHook{Hook: base, GroupID: *h.GroupID, IssuesEvents: h.IssuesEvents,
			ConfidentialIssuesEvents: h.ConfidentialIssuesEvents, NoteEvents: h.NoteEvents,
			ConfidentialNoteEvents: h.ConfidentialNoteEvents, PipelineEvents: h.PipelineEvents,
			WikiPageEvents: h.WikiPageEvents, DeploymentEvents: h.DeploymentEvents, JobEvents: h.JobEvents,
			ReleasesEvents: h.ReleasesEvents, SubgroupEvents: h.SubgroupEvents, EmojiEvents: h.EmojiEvents,
			ResourceAccessTokenEvents: h.ResourceAccessTokenEvents, MemberEvents: h.MemberEvents}
	}
	return base
}

// Hooks renders a list of hooks.
func (p *Presenter) Hooks(hs []*ent.WebHook, now time.Time) []any {
	out := make([]any, 0, len(hs))
	for _, h := range hs {
		out = append(out, p.Hook(h, now))
	}
	return out
}

// HookEvent is one delivery in a hook's event log.
type HookEvent struct {
	ID                int               `json:"id"`
	URL               string            `json:"url"`
	Trigger           string            `json:"trigger"`
	RequestHeaders    map[string]string `json:"request_headers"`
	RequestData       json.RawMessage   `json:"request_data"`
	ResponseHeaders   map[string]string `json:"response_headers"`
	ResponseBody      string            `json:"response_body"`
	ExecutionDuration float64           `json:"execution_duration"`
	ResponseStatus    string            `json:"response_status"`
}

// HookEvents renders delivery logs, their URLs masked (rows stored before masking included).
func (p *Presenter) HookEvents(ls []*ent.WebHookLog) []HookEvent {
	out := make([]HookEvent, 0, len(ls))
	for _, l := range ls {
		data := json.RawMessage(l.RequestData)
		if !json.Valid(data) {
			b, _ := json.Marshal(l.RequestData)
			data = b
		}
		out = append(out, HookEvent{ID: l.ID, URL: webhooks.MaskURL(l.URL), Trigger: l.Trigger, RequestHeaders: l.RequestHeaders,
			RequestData: data, ResponseHeaders: l.ResponseHeaders, ResponseBody: l.ResponseBody,
			ExecutionDuration: l.ExecutionDuration, ResponseStatus: l.ResponseStatus})
	}
	return out
}
