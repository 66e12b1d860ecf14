package webhooks

import (
	"context"
	"encoding/json"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/mergerequest"
	"anvil/ent/note"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/issues"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/notes"
)

// testTriggers are the triggers POST .../hooks/:hook_id/test/:trigger accepts for project and
// group hooks, with the event each sends.
var testTriggers = map[string]Event{
	"push_events": PushEvent, "tag_push_events": TagPushEvent, "issues_events": IssueEvent,
	"confidential_issues_events": ConfidentialIssueEvent, "note_events": NoteEvent,
	"confidential_note_events": ConfidentialNoteEvent, "merge_requests_events": MergeRequestEvent,
}

// noSampleTriggers are the documented triggers whose sample data Anvil never has (it runs no
// CI, keeps no wiki and no releases): GitLab's answer for a project without any, a 422.
var noSampleTriggers = map[string]string{
	"job_events":       "Ensure the project has CI jobs.",
	"pipeline_events":  "Ensure the project has CI pipelines.",
	"wiki_page_events": "Ensure the wiki is enabled and has pages.",
	"releases_events":  "Ensure the project has releases.",
}

// TestTriggers are the trigger names a hook test accepts.
func TestTriggers() []string {
	return []string{"push_events", "tag_push_events", "issues_events", "confidential_issues_events",
		"note_events", "confidential_note_events", "merge_requests_events", "job_events", "pipeline_events",
		"wiki_page_events", "releases_events"}
}

// Test delivers sample data of trigger to a project or group hook at once (GitLab's hook test):
// built from the project's default branch for pushes, its newest issue for issues, its newest
// comment for notes. A group hook's sample comes from the group's first project with commits
// (GitLab's first_non_empty_project). It is limited to five a minute per hook and user; a
// failing receiver answers 422.
func (s *Service) Test(ctx context.Context, actor *authz.Actor, sc Scope, hookID int, trigger string) error {
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return err
	}
	h, err := s.find(ctx, o, hookID)
	if err != nil {
		return err
	}
	ev, ok := testTriggers[trigger]
	_, noSample := noSampleTriggers[trigger]
	if !ok && !noSample {
		return apperr.NotAllowedValue("trigger")
	}
	if o.kind == System {
		return apperr.Unprocessable("Testing not available for this hook")
	}
	if wait, ok := s.limiter.allow("test", h.ID, actor.UserID()); !ok {
		return apperr.RateLimited(wait)
	}
	p, err := s.sampleProject(ctx, o)
	if err != nil {
		return err
	}
	if msg, ok := noSampleTriggers[trigger]; ok {
		return apperr.Unprocessable(msg)
	}
	var payload any
	switch ev.Trigger {
	case PushEvent.Trigger, TagPushEvent.Trigger:
		payload, err = s.samplePush(ctx, p, actor.User, ev == TagPushEvent)
	case NoteEvent.Trigger, ConfidentialNoteEvent.Trigger:
		payload, err = s.sampleNote(ctx, p, actor.User)
	case MergeRequestEvent.Trigger:
		payload, err = s.sampleMergeRequest(ctx, actor, p)
	default:
		payload, err = s.sampleIssue(ctx, p, actor.User)
	}
	if err != nil {
		return err
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	_, err = s.deliverNow(ctx, h, DeliveryJob{HookID: h.ID, Trigger: ev.Trigger, Header: ev.Header,
		Payload: raw, EventUUID: NewUUID(), IdempotencyKey: NewUUID()})
	return err
}

// sampleProject is the project a test's sample comes from: the project hook's project, or the
// group hook's group's first project with commits.
func (s *Service) sampleProject(ctx context.Context, o owner) (*ent.Project, error) {
	c := db.ClientFrom(ctx, s.Client)
	if o.kind == Project {
		return c.Project.Query().Where(project.ID(o.project.ID)).WithNamespace().Only(ctx)
	}
	ps, err := c.Project.Query().Where(project.NamespaceID(o.group.ID)).WithNamespace().
		Order(ent.Asc(project.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if !s.Projects.EmptyRepository(ctx, p) {
			return p, nil
		}
	}
	return nil, apperr.Unprocessable("Ensure the group has a project with commits.")
}

// sampleNote is the note payload of the project's newest comment.
func (s *Service) sampleNote(ctx context.Context, p *ent.Project, u *ent.User) (any, error) {
	c := db.ClientFrom(ctx, s.Client)
	n, err := c.Note.Query().Where(note.ProjectID(p.ID), note.System(false),
		note.NoteableTypeIn(note.NoteableTypeIssue, note.NoteableTypeSnippet)).Order(ent.Desc(note.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Unprocessable("Ensure the project has notes.")
	}
	if err != nil {
		return nil, err
	}
	t := &notes.Target{Type: string(n.NoteableType), IID: n.NoteableIid, ProjectID: n.ProjectID}
	if n.NoteableID != nil {
		t.ID = *n.NoteableID
	}
	switch n.NoteableType {
	case note.NoteableTypeIssue:
		if t.Object, err = issues.Load(c.Issue.Query().Where(issue.ID(t.ID))).Only(ctx); err != nil {
			return nil, err
		}
	case note.NoteableTypeSnippet:
		if t.Object, err = c.Snippet.Get(ctx, t.ID); err != nil {
			return nil, err
		}
	}
	payload, _, err := s.notePayload(ctx, u, p, t, n, "create")
	return payload, err
}

// samplePush is a push of the default branch's last three commits (GitLab's sample push data).
func (s *Service) samplePush(ctx context.Context, p *ent.Project, u *ent.User, tag bool) (any, error) {
	repo, err := s.repos.Repository(p)
	if err != nil {
		return nil, err
	}
	noCommits := apperr.Unprocessable("Ensure the project has at least one commit.")
	if p.DefaultBranch == "" {
		return nil, noCommits
	}
	commits, err := repo.Log(ctx, git.LogOptions{Revisions: []string{git.BranchRef(p.DefaultBranch)}, Limit: 3})
	if err != nil || len(commits) == 0 {
		return nil, noCommits
	}
	ids := make([]string, 0, len(commits))
	for _, c := range commits {
		ids = append(ids, string(c.ID))
	}
	before := git.ZeroOID
	if last := commits[len(commits)-1]; len(last.Parents) > 0 {
		before = last.Parents[0]
	}
	j := PushHookJob{ProjectID: p.ID, UserID: u.ID, Ref: git.BranchRef(p.DefaultBranch), Before: string(before),
		After: ids[0], CommitIDs: ids, Total: len(ids)}
	if tag {
		j = PushHookJob{ProjectID: p.ID, UserID: u.ID, Ref: "refs/tags/v1.0.0", Before: string(git.ZeroOID), After: ids[0], Tag: true}
	}
	return s.pushPayload(ctx, p, u, j)
}

// sampleIssue is the issue payload of the project's newest issue.
func (s *Service) sampleIssue(ctx context.Context, p *ent.Project, u *ent.User) (any, error) {
	is, err := issues.Load(db.ClientFrom(ctx, s.Client).Issue.Query().Where(issue.ProjectID(p.ID))).
		Order(ent.Desc(issue.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Unprocessable("Ensure the project has issues.")
	}
	if err != nil {
		return nil, err
	}
	return s.issuePayload(u, p, issues.Change{Action: "created", After: is}, "open"), nil
}

// sampleMergeRequest is the merge request payload of the project's newest merge request, as
// if it had just been opened (GitLab's to_hook_data without changes).
func (s *Service) sampleMergeRequest(ctx context.Context, actor *authz.Actor, p *ent.Project) (any, error) {
	mr, err := mergerequests.Load(db.ClientFrom(ctx, s.Client).MergeRequest.Query().
		Where(mergerequest.ProjectID(p.ID))).Order(ent.Desc(mergerequest.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Unprocessable("Ensure the project has merge requests.")
	}
	if err != nil {
		return nil, err
	}
	return s.mrPayload(ctx, actor, p, mergerequests.Change{After: mr}, "open")
}

// SystemTest delivers GitLab's mock project_create event to a system hook and returns it
// (POST /hooks/:id).
func (s *Service) SystemTest(ctx context.Context, actor *authz.Actor, hookID int) (map[string]any, error) {
	o, err := s.resolve(ctx, actor, Scope{Kind: System})
	if err != nil {
		return nil, err
	}
	h, err := s.find(ctx, o, hookID)
	if err != nil {
		return nil, err
	}
	data := map[string]any{"event_name": "project_create", "name": "Ruby", "path": "ruby",
		"project_id": 1, "owner_name": "Someone", "owner_email": "example@gitlabhq.com"}
	raw, _ := json.Marshal(data)
	// The answer is the mock data whatever the receiver said; the delivery is logged.
	if _, err := s.execute(context.WithoutCancel(ctx), h, DeliveryJob{HookID: h.ID, Trigger: SystemEvent.Trigger,
		Header: SystemEvent.Header, Payload: raw, EventUUID: NewUUID(), IdempotencyKey: NewUUID()}); err != nil {
		return nil, err
	}
	return data, nil
}
