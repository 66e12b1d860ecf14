package webhooks

import (
	"context"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/ent/issue"
	"anvil/ent/mergerequest"
	"anvil/ent/note"
	"anvil/ent/project"
	"anvil/ent/snippet"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/issues"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/notes"
)

// EmojiHooks is the award emoji observer that fires emoji hooks: a reaction given or taken
// back on an issue, a merge request, a project snippet or a comment on them reaches the hooks of the project's
// groups subscribed to emoji events (project hooks have no such flag here, as the spec's
// project hook lists none). Awards on group-level objects (epics) fire none.
type EmojiHooks struct{ s *Service }

// EmojiObserver returns the observer to add to the award emoji service.
func (s *Service) EmojiObserver() EmojiHooks { return EmojiHooks{s: s} }

// AwardChanged queues the emoji hook deliveries of an award given ("award") or taken back
// ("revoke") in its transaction.
func (o EmojiHooks) AwardChanged(ctx context.Context, actor *authz.Actor, action string, a *ent.AwardEmoji) error {
	if actor.IsAnonymous() {
		return nil
	}
	c := db.ClientFrom(ctx, o.s.Client)
	on, err := o.s.awarded(ctx, c, a)
	if err != nil || on.project == nil {
		return err
	}
	hooks, err := o.s.Receivers(ctx, Target{Project: on.project}, EmojiEvent)
	if err != nil || len(hooks) == 0 {
		return err
	}
	pd := o.s.projectData(on.project)
	attrs := map[string]any{
		"user_id": a.UserID, "created_at": hookTime(a.CreatedAt), "id": a.ID, "name": a.Name,
		"awardable_type": string(a.AwardableType), "awardable_id": a.AwardableID,
		"updated_at": hookTime(a.UpdatedAt), "action": action, "awarded_on_url": "",
	}
	payload := map[string]any{
		"object_kind": "emoji", "event_type": action, "user": userData(actor.User),
		"project_id": on.project.ID, "project": pd, "object_attributes": attrs,
	}
	target := &notes.Target{}
	switch {
	case on.issue != nil:
		iid := on.issue.Iid
		target = &notes.Target{Type: notes.TypeIssue, ID: on.issue.ID, IID: &iid}
		payload["issue"] = issueHookAttrs(on.issue, pd, issueLabels(on.issue))
	case on.mr != nil:
		iid := on.mr.Iid
		target = &notes.Target{Type: notes.TypeMergeRequest, ID: on.mr.ID, IID: &iid}
		md, err := o.s.mrHookAttrs(ctx, on.mr, on.project, pd, mrLabels(on.mr))
		if err != nil {
			return err
		}
		payload["merge_request"] = md
	case on.snippet != nil:
		target = &notes.Target{Type: notes.TypeSnippet, ID: on.snippet.ID}
		sd, err := o.s.snippetHookAttrs(ctx, on.snippet, pd)
		if err != nil {
			return err
		}
		payload["snippet"] = sd
	case on.note != nil && on.note.CommitID != nil:
		target = &notes.Target{Type: notes.TypeCommit, CommitID: on.note.CommitID}
		if cm, ok := o.s.commitHookAttrs(ctx, on.project, pd, *on.note.CommitID); ok {
			payload["commit"] = cm
		}
	}
	if on.note != nil {
		if on.note.NoteableIid != nil {
			target.IID = on.note.NoteableIid
		}
		url := noteURL(pd, target, on.note)
		attrs["awarded_on_url"] = url
		payload["note"] = noteHookAttrs(on.note, url)
	} else {
		attrs["awarded_on_url"] = noteableURL(pd, target)
	}
	return o.s.Trigger(ctx, Target{Project: on.project}, EmojiEvent, payload)
}

// awardedOn is what an award is on: the project, and the issue, snippet or note (with its
// issue or snippet) awarded.
type awardedOn struct {
	project *ent.Project
	issue   *ent.Issue
	mr      *ent.MergeRequest
	snippet *ent.Snippet
	note    *ent.Note
}

// awarded finds what a is on; a project is nil for what has none (epics, personal snippets).
func (s *Service) awarded(ctx context.Context, c *ent.Client, a *ent.AwardEmoji) (awardedOn, error) {
	var on awardedOn
	typ, id := a.AwardableType, a.AwardableID
	if typ == awardemoji.AwardableTypeNote {
		n, err := c.Note.Get(ctx, id)
		if ent.IsNotFound(err) {
			return on, nil
		}
		if err != nil {
			return on, err
		}
		on.note = n
		switch {
		case n.NoteableType == note.NoteableTypeIssue && n.NoteableID != nil:
			typ, id = awardemoji.AwardableTypeIssue, *n.NoteableID
		case n.NoteableType == note.NoteableTypeMergeRequest && n.NoteableID != nil:
			typ, id = awardemoji.AwardableTypeMergeRequest, *n.NoteableID
		case n.NoteableType == note.NoteableTypeSnippet && n.NoteableID != nil:
			typ, id = awardemoji.AwardableTypeSnippet, *n.NoteableID
		}
		if n.ProjectID == nil {
			return on, nil
		}
		if typ == awardemoji.AwardableTypeNote { // a commit's note
			p, err := c.Project.Query().Where(project.ID(*n.ProjectID)).WithNamespace().Only(ctx)
			on.project = p
			return on, ignoreNotFound(err)
		}
	}
	var projectID int
	switch typ {
	case awardemoji.AwardableTypeIssue:
		is, err := issues.Load(c.Issue.Query().Where(issue.ID(id))).Only(ctx)
		if err != nil {
			return on, ignoreNotFound(err)
		}
		on.issue, projectID = is, is.ProjectID
	case awardemoji.AwardableTypeMergeRequest:
		mr, err := mergerequests.Load(c.MergeRequest.Query().Where(mergerequest.ID(id))).Only(ctx)
		if err != nil {
			return on, ignoreNotFound(err)
		}
		on.mr, projectID = mr, mr.ProjectID
	case awardemoji.AwardableTypeSnippet:
		sn, err := c.Snippet.Query().Where(snippet.ID(id)).Only(ctx)
		if err != nil || sn.ProjectID == nil {
			return on, ignoreNotFound(err)
		}
		on.snippet, projectID = sn, *sn.ProjectID
	default:
		return on, nil
	}
	p, err := c.Project.Query().Where(project.ID(projectID)).WithNamespace().Only(ctx)
	on.project = p
	return on, ignoreNotFound(err)
}

// ignoreNotFound drops a not-found error: what is gone fires nothing.
func ignoreNotFound(err error) error {
	if ent.IsNotFound(err) {
		return nil
	}
	return err
}
