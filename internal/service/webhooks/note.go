package webhooks

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/notes"
)

// NoteHooks is the notes observer that fires comment hooks (notes.Observer and
// notes.UpdateObserver): a comment written or edited on an
// issue, a project snippet, a merge request or a commit reaches the hooks subscribed to note
// events; an internal comment, or one on a confidential issue, those subscribed to confidential
// note events. Group-level noteables (epics) have no project and fire none, as in GitLab.
type NoteHooks struct{ s *Service }

// NoteObserver returns the observer to add to the notes service (notes.Observe).
func (s *Service) NoteObserver() NoteHooks { return NoteHooks{s: s} }

// NoteWritten queues the note hook deliveries of a comment in its transaction.
func (o NoteHooks) NoteWritten(ctx context.Context, actor *authz.Actor, t *notes.Target, n *ent.Note) error {
	if t.ProjectID == nil || actor.IsAnonymous() || n.System {
		return nil
	}
	p, err := db.ClientFrom(ctx, o.s.Client).Project.Query().Where(project.ID(*t.ProjectID)).WithNamespace().Only(ctx)
	if err != nil {
		return err
	}
	payload, confidential, err := o.s.notePayload(ctx, actor.User, p, t, n, "create")
	if err != nil {
		return err
	}
	ev := NoteEvent
	if confidential {
		ev = ConfidentialNoteEvent
	}
	return o.s.Trigger(ctx, Target{Project: p}, ev, payload)
}

// NoteUpdated queues the note hook deliveries of an edited comment (its body changed) in the
// edit's transaction: object_attributes.action is "update", and the payload's user is the
// note's author, as GitLab's Notes::UpdateService builds it.
func (o NoteHooks) NoteUpdated(ctx context.Context, actor *authz.Actor, t *notes.Target, n *ent.Note) error {
	if t.ProjectID == nil || n.System {
		return nil
	}
	c := db.ClientFrom(ctx, o.s.Client)
	p, err := c.Project.Query().Where(project.ID(*t.ProjectID)).WithNamespace().Only(ctx)
	if err != nil {
		return err
	}
	author := actor.User
	if n.AuthorID != nil {
		if u, err := c.User.Get(ctx, *n.AuthorID); err == nil {
			author = u
		} else if !ent.IsNotFound(err) {
			return err
		}
	}
	if author == nil {
		return nil
	}
	payload, confidential, err := o.s.notePayload(ctx, author, p, t, n, "update")
	if err != nil {
		return err
	}
	ev := NoteEvent
	if confidential {
		ev = ConfidentialNoteEvent
	}
	return o.s.Trigger(ctx, Target{Project: p}, ev, payload)
}

// notePayload is GitLab's note hook payload of n on t (action create or update), and whether
// it is confidential (an internal note, or a note on a confidential issue).
func (s *Service) notePayload(ctx context.Context, u *ent.User, p *ent.Project, t *notes.Target, n *ent.Note, action string) (map[string]any, bool, error) {
	pd := s.projectData(p)
	confidential := n.Internal
	attrs := noteHookAttrs(n, noteURL(pd, t, n))
	attrs["action"] = action
	out := map[string]any{
		"object_kind": "note", "user": userData(u), "project_id": p.ID, "project": pd,
		"repository": shortRepository(pd), "object_attributes": attrs,
	}
	switch obj := t.Object.(type) {
	case *ent.Issue:
		confidential = confidential || obj.Confidential
		out["issue"] = issueHookAttrs(obj, pd, issueLabels(obj))
	case *ent.MergeRequest:
		md, err := s.mrHookAttrs(ctx, obj, p, pd, mrLabels(obj))
		if err != nil {
			return nil, false, err
		}
		out["merge_request"] = md
	case *ent.Snippet:
		sd, err := s.snippetHookAttrs(ctx, obj, pd)
		if err != nil {
			return nil, false, err
		}
		out["snippet"] = sd
	default:
		if t.Type == notes.TypeCommit && t.CommitID != nil {
			if c, ok := s.commitHookAttrs(ctx, p, pd, *t.CommitID); ok {
				out["commit"] = c
			}
		}
	}
	out["event_type"] = "note"
	if confidential {
		out["event_type"] = "confidential_note"
	}
	return out, confidential, nil
}

// noteHookAttrs is the note object of hook payloads (GitLab's Note#hook_attrs, its safe
// attributes), url being where the note is shown.
func noteHookAttrs(n *ent.Note, url string) map[string]any {
	var resolvedAt, position any
	if n.ResolvedAt != nil {
		resolvedAt = hookTime(*n.ResolvedAt)
	}
	if len(n.Position) > 0 {
		position = n.Position
	}
	var typ any
	if n.Type != nil {
		typ = string(*n.Type)
	}
	return map[string]any{
		"attachment": nil, "author_id": n.AuthorID, "change_position": nil, "commit_id": n.CommitID,
		"created_at": hookTime(n.CreatedAt), "discussion_id": n.DiscussionID, "id": n.ID, "line_code": nil,
		"note": n.Body, "noteable_id": n.NoteableID, "noteable_type": string(n.NoteableType),
		"original_position": nil, "position": position, "project_id": n.ProjectID, "resolved_at": resolvedAt,
		"resolved_by_id": n.ResolvedByID, "resolved_by_push": nil, "st_diff": nil, "system": n.System,
		"type": typ, "updated_at": hookTime(n.UpdatedAt), "updated_by_id": n.UpdatedByID,
		"description": n.Body, "url": url,
	}
}

// noteURL is where a note is shown: its noteable's page with the note's anchor.
func noteURL(pd ProjectData, t *notes.Target, n *ent.Note) string {
	return noteableURL(pd, t) + "#note_" + strconv.Itoa(n.ID)
}

// noteableURL is the page of a noteable in its project.
func noteableURL(pd ProjectData, t *notes.Target) string {
	iid := 0
	if t.IID != nil {
		iid = *t.IID
	}
	switch t.Type {
	case notes.TypeIssue:
		return pd.WebURL + "/-/issues/" + strconv.Itoa(iid)
	case notes.TypeMergeRequest:
		return pd.WebURL + "/-/merge_requests/" + strconv.Itoa(iid)
	case notes.TypeSnippet:
		return pd.WebURL + "/-/snippets/" + strconv.Itoa(t.ID)
	case notes.TypeCommit:
		if t.CommitID != nil {
			return pd.WebURL + "/-/commit/" + *t.CommitID
		}
	}
	return pd.WebURL
}

// snippetHookAttrs is the snippet object of hook payloads (GitLab's Snippet#hook_attrs), its
// content the first file's.
func (s *Service) snippetHookAttrs(ctx context.Context, sn *ent.Snippet, pd ProjectData) (map[string]any, error) {
	content := ""
	if s.snippets != nil {
		c, err := s.snippets(ctx, sn)
		if err != nil {
			return nil, err
		}
		content = c
	}
	fileName := sn.FileName
	if len(sn.Files) > 0 {
		fileName = sn.Files[0]
	}
	return map[string]any{
		"id": sn.ID, "title": sn.Title, "description": sn.Description, "content": content,
		"author_id": sn.AuthorID, "project_id": sn.ProjectID, "created_at": hookTime(sn.CreatedAt),
		"updated_at": hookTime(sn.UpdatedAt), "file_name": fileName, "type": "ProjectSnippet",
		"visibility_level": visibilityLevels[string(sn.Visibility)],
		"url":              pd.WebURL + "/-/snippets/" + strconv.Itoa(sn.ID),
	}, nil
}

// commitHookAttrs is the commit object of note payloads (GitLab's Commit#hook_attrs).
func (s *Service) commitHookAttrs(ctx context.Context, p *ent.Project, pd ProjectData, sha string) (map[string]any, bool) {
	if s.repos == nil {
		return nil, false
	}
	repo, err := s.repos.Repository(p)
	if err != nil {
		return nil, false
	}
	c, err := repo.ReadCommit(ctx, sha)
	if err != nil || c == nil {
		return nil, false
	}
	return map[string]any{
		"id": string(c.ID), "message": c.Message, "title": c.Subject(), "timestamp": timestamp(c.Author.When),
		"url":    pd.WebURL + "/-/commit/" + string(c.ID),
		"author": CommitAuthor{Name: c.Author.Name, Email: c.Author.Email},
	}, true
}
