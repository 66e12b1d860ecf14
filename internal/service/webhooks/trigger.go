package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/webhook"
	"anvil/internal/authz"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
)

// Event is one kind of event hooks receive.
type Event struct {
	// Flag is the hook flag that subscribes to it (push_events); empty for the system events
	// (project_create, user_create, ...), which every system hook receives.
	Flag string
	// Trigger is the log's name of the event (push_hooks).
	Trigger string
	// Header is X-Gitlab-Event's value (Push Hook).
	Header string
	// Branch, for push events, is the branch pushed: a hook's branch filter applies to it.
	Branch string
}

// The events hooks receive.
var (
	PushEvent                = Event{Flag: "push_events", Trigger: "push_hooks", Header: "Push Hook"}
	TagPushEvent             = Event{Flag: "tag_push_events", Trigger: "tag_push_hooks", Header: "Tag Push Hook"}
	IssueEvent               = Event{Flag: "issues_events", Trigger: "issue_hooks", Header: "Issue Hook"}
	ConfidentialIssueEvent   = Event{Flag: "confidential_issues_events", Trigger: "confidential_issue_hooks", Header: "Confidential Issue Hook"}
	NoteEvent                = Event{Flag: "note_events", Trigger: "note_hooks", Header: "Note Hook"}
	ConfidentialNoteEvent    = Event{Flag: "confidential_note_events", Trigger: "confidential_note_hooks", Header: "Confidential Note Hook"}
	MergeRequestEvent        = Event{Flag: "merge_requests_events", Trigger: "merge_request_hooks", Header: "Merge Request Hook"}
	EmojiEvent               = Event{Flag: "emoji_events", Trigger: "emoji_hooks", Header: "Emoji Hook"}
	MemberEvent              = Event{Flag: "member_events", Trigger: "member_hooks", Header: "Member Hook"}
	SubgroupEvent            = Event{Flag: "subgroup_events", Trigger: "subgroup_hooks", Header: "Subgroup Hook"}
	RepositoryUpdateEvent    = Event{Flag: "repository_update_events", Trigger: "repository_update_hooks", Header: "System Hook"}
	ResourceAccessTokenEvent = Event{Flag: "resource_access_token_events", Trigger: "resource_access_token_hooks", Header: "Resource Access Token Hook"}
	// SystemEvent is an instance event (project_create, user_destroy, ...): system hooks only.
	SystemEvent = Event{Trigger: "system_hooks", Header: "System Hook"}
)

// systemFlags are the flags system hooks also subscribe with: such an event in any project
// reaches the system hooks that set the flag.
var systemFlags = map[string]bool{"push_events": true, "tag_push_events": true,
	"merge_requests_events": true, "repository_update_events": true}

// Target is where an event happened: in a project (its hooks and its ancestor groups'), in a
// group (its hooks and its ancestors'), or in the instance (Instance: system hooks only).
// System hooks subscribed to the event's flag receive project events too.
type Target struct {
	Project *ent.Project // namespace edge loaded, or loaded here
	Group   *ent.Namespace
}

// Instance is the target of instance events.
var Instance = Target{}

// DeliveryJob delivers one event to one hook.
type DeliveryJob struct {
	HookID  int             `json:"hook_id"`
	Trigger string          `json:"trigger"`
	Header  string          `json:"header"`
	Payload json.RawMessage `json:"payload"`
	// EventUUID names the event (every hook receiving it gets the same), IdempotencyKey the
	// delivery (kept when it is delivered again).
	EventUUID      string `json:"event_uuid"`
	IdempotencyKey string `json:"idempotency_key"`
}

// Kind names the job.
func (DeliveryJob) Kind() string { return "web_hook_delivery" }

// Trigger queues the delivery of payload to every executable hook that receives ev at t,
// inside the transaction of ctx (the change's): the deliveries commit with the change.
func (s *Service) Trigger(ctx context.Context, t Target, ev Event, payload any) error {
	hooks, err := s.Receivers(ctx, t, ev)
	if err != nil || len(hooks) == 0 {
		return err
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("hook payload: %w", err)
	}
	var sysRaw json.RawMessage
	eventUUID := NewUUID()
	for _, h := range hooks {
		j := DeliveryJob{HookID: h.ID, Trigger: ev.Trigger, Header: ev.Header, Payload: raw,
			EventUUID: eventUUID, IdempotencyKey: NewUUID()}
		if v, ok := payload.(systemVariant); ok && h.Type == webhook.TypeSystem {
			if sysRaw == nil {
				if sysRaw, err = json.Marshal(v.ForSystemHooks()); err != nil {
					return fmt.Errorf("hook payload: %w", err)
				}
			}
			j.Payload = sysRaw
		}
		if h.Type == webhook.TypeSystem && ev.Flag != "" && ev.Flag != "repository_update_events" {
			j.Header = "System Hook" // system hooks receive every event as a System Hook
		}
		if err := s.Jobs.Enqueue(ctx, j); err != nil {
			return err
		}
	}
	return nil
}

// systemVariant is a payload whose system hooks' form differs: pushes reach system hooks
// without their commits (GitLab's system push data; "commits are never displayed").
type systemVariant interface{ ForSystemHooks() any }

// Receivers are the executable hooks that receive ev at t.
func (s *Service) Receivers(ctx context.Context, t Target, ev Event) ([]*ent.WebHook, error) {
	c := db.ClientFrom(ctx, s.Client)
	var scopes []predicate.WebHook
	var groupPath string
	switch {
	case t.Project != nil:
		p := t.Project
		if p.Edges.Namespace == nil {
			ns, err := c.Namespace.Get(ctx, p.NamespaceID)
			if err != nil {
				return nil, err
			}
			p.Edges.Namespace = ns
		}
		scopes = append(scopes, webhook.ProjectID(p.ID))
		groupPath = p.Edges.Namespace.FullPath
	case t.Group != nil:
		groupPath = t.Group.FullPath
	}
	if groupPath != "" {
		ids, err := c.Namespace.Query().Where(namespace.FullPathIn(authz.Ancestors(groupPath)...),
			namespace.KindEQ(namespace.KindGroup)).IDs(ctx)
		if err != nil {
			return nil, err
		}
		if len(ids) > 0 {
			scopes = append(scopes, webhook.GroupIDIn(ids...))
		}
	}
	var where []predicate.WebHook
	if ev.Flag != "" && len(scopes) > 0 {
		where = append(where, webhook.And(webhook.Or(scopes...), flagIs(ev.Flag)))
	}
	if ev.Flag == "" || systemFlags[ev.Flag] {
		sys := webhook.TypeEQ(webhook.TypeSystem)
		if ev.Flag != "" {
			sys = webhook.And(sys, flagIs(ev.Flag))
		}
		where = append(where, sys)
	}
	if len(where) == 0 {
		return nil, nil
	}
	hooks, err := c.WebHook.Query().Where(webhook.Or(where...), webhook.PermanentlyDisabled(false)).
		Order(ent.Asc(webhook.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := hooks[:0]
	for _, h := range hooks {
		if AlertStatus(h, now) != Executable {
			continue
		}
		if ev.Branch != "" && !BranchMatches(h, ev.Branch) {
			continue
		}
		out = append(out, h)
	}
	return out, nil
}

// flagIs selects hooks whose flag is set.
func flagIs(flag string) predicate.WebHook {
	return predicate.WebHook(sql.FieldEQ(flag, true))
}

// BranchMatches reports whether a push to branch passes h's branch filter: all_branches or an
// empty filter pass everything; wildcard filters are comma-separated names where * matches
// anything; regex filters are regular expressions.
func BranchMatches(h *ent.WebHook, branch string) bool {
	if h.BranchFilterStrategy == webhook.BranchFilterStrategyAllBranches || h.PushEventsBranchFilter == nil || *h.PushEventsBranchFilter == "" {
		return true
	}
	filter := *h.PushEventsBranchFilter
	if h.BranchFilterStrategy == webhook.BranchFilterStrategyRegex {
		re, err := regexp.Compile(filter)
		return err == nil && re.MatchString(branch)
	}
	for _, pattern := range strings.Split(filter, ",") {
		pattern = strings.TrimSpace(pattern)
		if pattern == "" {
			continue
		}
		parts := strings.Split(pattern, "*")
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		if regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(branch) {
			return true
		}
	}
	return false
}

// NewUUID is a random (version 4) UUID.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
