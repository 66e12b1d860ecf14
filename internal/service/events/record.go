package events

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/ent/pusheventpayload"
	"anvil/internal/db"
)

// Target types are GitLab's class names for an event's target (the target_type column and
// field). Only Project and User rows exist today; the other kinds plug in with their domains.
const (
	TargetIssue        = "Issue"
	TargetMilestone    = "Milestone"
	TargetMergeRequest = "MergeRequest"
	TargetNote         = "Note"
	TargetProject      = "Project"
	TargetSnippet      = "Snippet"
	TargetUser         = "User"
	TargetWikiPage     = "WikiPage::Meta"
	TargetDesign       = "DesignManagement::Design"
)

// Target is what an event is about: its kind, row, per-parent iid (when the kind has one)
// and title (empty: null), kept with the event.
type Target struct {
	Type  string
	ID    int
	IID   *int
	Title string
}

// Entry is one event to record. ProjectID or GroupID names where it happened; Push is set for
// pushes (Action pushed) only.
type Entry struct {
	Action    event.Action
	AuthorID  int
	ProjectID *int
	GroupID   *int
	Target    *Target
	Push      *Push
	// CreatedAt backdates the event (imports, fixtures); zero is now.
	CreatedAt time.Time
}

// Push is a push event's payload, in GitLab's push_event_payloads terms.
type Push struct {
	Action      pusheventpayload.Action // created, removed or pushed
	RefType     pusheventpayload.RefType
	CommitCount int
	CommitFrom  *string // nil when the ref was created
	CommitTo    *string // nil when the ref was removed
	Ref         *string // the short name; nil for a bulk push
	CommitTitle *string
	RefCount    *int // a bulk push's number of refs
}

// Record writes entries through the transaction in ctx when there is one (db.ClientFrom), so
// that an event exists exactly when the change it tells of was committed. Every domain calls it
// inside its change's transaction.
func Record(ctx context.Context, c *ent.Client, entries ...Entry) error {
	if len(entries) == 0 {
		return nil
	}
	c = db.ClientFrom(ctx, c)
	at := time.Now().UTC().Truncate(time.Millisecond)
	creates := make([]*ent.EventCreate, len(entries))
	for i, e := range entries {
		cr := c.Event.Create().SetAction(e.Action).SetAuthorID(e.AuthorID).
			SetNillableProjectID(e.ProjectID).SetNillableGroupID(e.GroupID)
		if e.CreatedAt.IsZero() {
			cr.SetCreatedAt(at)
		} else {
			cr.SetCreatedAt(e.CreatedAt.UTC().Truncate(time.Millisecond))
		}
		if t := e.Target; t != nil {
			cr.SetTargetType(t.Type).SetTargetID(t.ID).SetNillableTargetIid(t.IID)
			if t.Title != "" { // notes have no title: target_title null
				cr.SetTargetTitle(t.Title)
			}
		}
		creates[i] = cr
	}
	rows, err := c.Event.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return err
	}
	var payloads []*ent.PushEventPayloadCreate
	for i, e := range entries {
		if p := e.Push; p != nil {
			payloads = append(payloads, c.PushEventPayload.Create().SetEventID(rows[i].ID).
				SetAction(p.Action).SetRefType(p.RefType).SetCommitCount(p.CommitCount).
				SetNillableCommitFrom(p.CommitFrom).SetNillableCommitTo(p.CommitTo).
				SetNillableRef(p.Ref).SetNillableCommitTitle(p.CommitTitle).SetNillableRefCount(p.RefCount))
		}
	}
	if len(payloads) == 0 {
		return nil
	}
	return c.PushEventPayload.CreateBulk(payloads...).Exec(ctx)
}

// ProjectCreated is the event of a project's creation by author (GitLab's create_project).
func ProjectCreated(projectID, authorID int) Entry {
	return Entry{Action: event.ActionCreated, AuthorID: authorID, ProjectID: &projectID}
}

// Joined is the event of user becoming a direct member of a project (GitLab records none for
// groups, nor for the owner of a personal project, who is made its member on creation).
func Joined(projectID, userID int) Entry {
	return Entry{Action: event.ActionJoined, AuthorID: userID, ProjectID: &projectID}
}

// Left is the event of user's direct membership of a project ending; expired tells a
// membership removed after its expiry date (GitLab's expired action) from one removed
// before it.
func Left(projectID, userID int, expired bool) Entry {
	a := event.ActionLeft
	if expired {
		a = event.ActionExpired
	}
	return Entry{Action: a, AuthorID: userID, ProjectID: &projectID}
}

// Commented is the event of author's comment (note noteID) in a project, or in a group for a
// group's noteable (epics): GitLab's "commented on", with the note as its target.
func Commented(noteID, authorID int, projectID, groupID *int) Entry {
	return Entry{Action: event.ActionCommented, AuthorID: authorID, ProjectID: projectID, GroupID: groupID,
		Target: &Target{Type: TargetNote, ID: noteID}}
}
