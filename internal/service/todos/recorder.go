package todos

import (
	"context"
	"slices"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/todo"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/jobs"
	"anvil/internal/service/issues"
	"anvil/internal/service/wire"
)

// Target types are GitLab's class names of a to-do's target.
const (
	TargetIssue        = "Issue"
	TargetMergeRequest = "MergeRequest"
)

// Target is what a to-do is about: its kind and row, the project (or group) it lives in, and
// who may read it, asked of each user a to-do would be created for.
type Target struct {
	Type      string
	ID        int
	ProjectID *int
	GroupID   *int
	// Readable reports whether u may read the target.
	Readable func(ctx context.Context, u *ent.User) (bool, error)
	// Team is who "@all" mentions on the target: the members of its project, as GitLab's
	// project.team.members (direct, inherited and invited), when the actor is one of them;
	// nobody when the actor is not (GitLab links @all only for team members). Nil: @all
	// mentions nobody.
	Team func(ctx context.Context, actor *authz.Actor) ([]*ent.User, error)
}

// AllMention is GitLab's "@all": every member of the target's project. No user can be named
// "all" (GitLab reserves the name), so it never reads as a username.
const AllMention = "all"

// Recorder creates and resolves to-dos as GitLab's TodoService does, inside the transaction of
// the change that causes them. It observes issue changes (an issues.Observer) and serves the
// domains whose text mentions users (notes: NoteAdded).
type Recorder struct {
	client *ent.Client
	policy *authz.Policy
	// jobs queues the removals of to-dos whose users lost access (access_jobs.go).
	jobs jobs.Enqueuer
	// approvers names a merge request's approvers ("approval_required" to-dos; UseApprovers).
	approvers Approvers
}

// NewRecorder returns the recorder.
func NewRecorder(client *ent.Client, policy *authz.Policy, q jobs.Enqueuer) *Recorder {
	wire.Require("todos recorder", wire.D("client", client), wire.D("policy", policy), wire.D("jobs", q))
	return &Recorder{client: client, policy: policy, jobs: q}
}

// IssueTarget is the issue as a to-do's target: readable as the issue finder decides (read_issue,
// and a confidential issue for Reporters, its author and its assignees). The issue must be
// loaded with issues.Load.
func (r *Recorder) IssueTarget(is *ent.Issue) Target {
	proj := is.Edges.Project
	return Target{Type: TargetIssue, ID: is.ID, ProjectID: &is.ProjectID,
		Readable: func(ctx context.Context, u *ent.User) (bool, error) {
			a := &authz.Actor{User: u}
			level, readable, err := r.policy.ProjectLevel(ctx, a, proj)
			if err != nil || !readable {
				return false, err
			}
			return issues.CanRead(a, proj, level, is), nil
		}, Team: r.projectTeam(proj)}
}

// IssueChanged creates and resolves the to-dos of an issue change, as GitLab does: on
// creation, assignees get "assigned" to-dos (assigning oneself included) and mentioned users
// who may read the issue "mentioned" or "directly_addressed" ones; an edit does the same for
// new assignees and new mentions only, and marks the editor's own pending to-dos on the issue
// done; closing marks the closer's done; making an issue confidential removes the to-dos of
// those who may no longer read it; deleting it removes all of its to-dos.
func (r *Recorder) IssueChanged(ctx context.Context, actor *authz.Actor, ch issues.Change) error {
	c := db.ClientFrom(ctx, r.client)
	if ch.Action == "destroyed" {
		_, err := c.Todo.Delete().Where(todo.TargetType(TargetIssue), todo.TargetID(ch.Before.ID)).Exec(ctx)
		return err
	}
	if actor.IsAnonymous() {
		return nil
	}
	is := ch.After
	t := r.IssueTarget(is)
	before := ch.Before
	if before != nil && issueEdited(before, is) {
		if err := r.resolve(ctx, c, actor.UserID(), t); err != nil {
			return err
		}
	}
	if before != nil && is.Confidential && !before.Confidential {
		if err := r.jobs.Enqueue(ctx, ConfidentialIssueJob{IssueID: is.ID}); err != nil {
			return err
		}
	}
	if added := newAssignees(before, is); len(added) > 0 {
		if err := r.create(ctx, c, actor, t, todo.ActionAssigned, added, nil); err != nil {
			return err
		}
	}
	var skip []string
	if before != nil {
		skip = ParseMentions(issueText(before)).All()
	}
	if err := r.mentions(ctx, c, actor, t, issueText(is), nil, skip); err != nil {
		return err
	}
	if ch.Action == "closed" {
		return r.resolve(ctx, c, actor.UserID(), t)
	}
	return nil
}

// NoteAdded is what the notes domain calls when actor comments on target (inside the note's
// transaction): the author's own pending to-dos on the target are done, and the users the
// comment mentions who may read the target get a "mentioned" or "directly_addressed" to-do
// pointing at the note (its id and text), as GitLab's TodoService#new_note does. A note's edit
// passes the users its previous text mentioned as skip.
func (r *Recorder) NoteAdded(ctx context.Context, actor *authz.Actor, target Target, noteID int, body string, skip []string) error {
	if actor.IsAnonymous() {
		return nil
	}
	c := db.ClientFrom(ctx, r.client)
	if err := r.resolve(ctx, c, actor.UserID(), target); err != nil {
		return err
	}
	return r.mentions(ctx, c, actor, target, body, &noteMention{id: noteID, body: body}, skip)
}

// noteMention is the comment a mention came from.
type noteMention struct {
	id   int
	body string
}

// issueText is the mentionable text of an issue: its title and description.
func issueText(is *ent.Issue) string {
	text := is.Title
	if is.Description != nil {
		text += "\n" + *is.Description
	}
	return text
}

// issueEdited reports a change GitLab counts as the editor attending to the issue: title,
// description, milestone, labels or assignees.
func issueEdited(before, after *ent.Issue) bool {
	if before.Title != after.Title || deref(before.Description) != deref(after.Description) ||
		!equalPtr(before.MilestoneID, after.MilestoneID) {
		return true
	}
	return !slices.Equal(labelIDs(before), labelIDs(after)) || !slices.Equal(assigneeIDs(before), assigneeIDs(after))
}

// newAssignees are the assignees of after that before did not have.
func newAssignees(before, after *ent.Issue) []int {
	var old []int
	if before != nil {
		old = assigneeIDs(before)
	}
	var out []int
	for _, id := range assigneeIDs(after) {
		if !slices.Contains(old, id) {
			out = append(out, id)
		}
	}
	return out
}

func assigneeIDs(is *ent.Issue) []int {
	ids := make([]int, 0, len(is.Edges.AssigneeLinks))
	for _, a := range is.Edges.AssigneeLinks {
		ids = append(ids, a.UserID)
	}
	slices.Sort(ids)
	return ids
}

func labelIDs(is *ent.Issue) []int {
	ids := make([]int, 0, len(is.Edges.LabelLinks))
	for _, l := range is.Edges.LabelLinks {
		ids = append(ids, l.LabelID)
	}
	slices.Sort(ids)
	return ids
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func equalPtr(a, b *int) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }

// mentions creates the to-dos of the users text mentions, except those named in skip (already
// mentioned before an edit) and those who may not read the target: "directly_addressed" for
// the users a line begins with, "mentioned" for the others.
func (r *Recorder) mentions(ctx context.Context, c *ent.Client, actor *authz.Actor, t Target, text string, note *noteMention, skip []string) error {
	m := ParseMentions(text)
	for _, set := range []struct {
		names  []string
		action todo.Action
	}{{m.Addressed, todo.ActionDirectlyAddressed}, {m.Mentioned, todo.ActionMentioned}} {
		var names []string
		for _, n := range set.names {
			if !slices.Contains(skip, n) {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			continue
		}
		ids, err := r.readers(ctx, c, actor, t, names)
		if err != nil {
			return err
		}
		if err := r.create(ctx, c, actor, t, set.action, ids, note); err != nil {
			return err
		}
	}
	return nil
}

// readers are the active users named (usernames, case-insensitively) or reached through a
// named group (its direct members, when the actor may read the group and the group allows
// mentions, as GitLab expands a group mention) who may read t.
func (r *Recorder) readers(ctx context.Context, c *ent.Client, actor *authz.Actor, t Target, names []string) ([]int, error) {
	var or []predicate.User
	all := false
	for _, n := range names {
		if n == AllMention {
			all = true
			continue
		}
		or = append(or, user.UsernameEqualFold(n))
	}
	var us []*ent.User
	if len(or) > 0 {
		var err error
		if us, err = c.User.Query().Where(user.Or(or...), user.StateEQ(user.StateActive)).Order(user.ByID()).All(ctx); err != nil {
			return nil, err
		}
	}
	if all && t.Team != nil {
		team, err := t.Team(ctx, actor)
		if err != nil {
			return nil, err
		}
		us = append(us, team...)
	}
	named := map[string]bool{AllMention: true}
	for _, u := range us {
		named[strings.ToLower(u.Username)] = true
	}
	var groupPaths []predicate.Namespace
	for _, n := range names {
		if !named[n] {
			groupPaths = append(groupPaths, namespace.FullPathEqualFold(n))
		}
	}
	if len(groupPaths) > 0 {
		members, err := r.groupMembers(ctx, c, actor, groupPaths)
		if err != nil {
			return nil, err
		}
		us = append(us, members...)
	}
	var ids []int
	for _, u := range us {
		if slices.Contains(ids, u.ID) {
			continue
		}
		ok, err := t.Readable(ctx, u)
		if err != nil {
			return nil, err
		}
		if ok {
			ids = append(ids, u.ID)
		}
	}
	return ids, nil
}

// groupMembers are the active direct members of the groups matching paths that the actor may
// read and that allow mentions.
func (r *Recorder) groupMembers(ctx context.Context, c *ent.Client, actor *authz.Actor, paths []predicate.Namespace) ([]*ent.User, error) {
	groups, err := c.Namespace.Query().Where(namespace.KindEQ(namespace.KindGroup), namespace.MentionsDisabled(false),
		namespace.Or(paths...)).All(ctx)
	if err != nil {
		return nil, err
	}
	var out []*ent.User
	for _, g := range groups {
		_, readable, err := r.policy.GroupLevel(ctx, actor, g)
		if err != nil {
			return nil, err
		}
		if !readable {
			continue
		}
		ms, err := c.Member.Query().Where(member.NamespaceID(g.ID), member.State("active"),
			member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGT(now()))).
			WithUser().Order(member.ByUserID()).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if u := m.Edges.User; u != nil && u.State == user.StateActive {
				out = append(out, u)
			}
		}
	}
	return out, nil
}

// create gives each of users a pending to-do of action on t by actor, except users who already
// have a pending to-do on t (GitLab keeps one pending to-do per user and target).
func (r *Recorder) create(ctx context.Context, c *ent.Client, actor *authz.Actor, t Target, action todo.Action, users []int, note *noteMention) error {
	if len(users) == 0 {
		return nil
	}
	busy, err := c.Todo.Query().Where(todo.TargetType(t.Type), todo.TargetID(t.ID), todo.StateEQ(todo.StatePending),
		todo.UserIDIn(users...)).Select(todo.FieldUserID).Ints(ctx)
	if err != nil {
		return err
	}
	var creates []*ent.TodoCreate
	for _, uid := range users {
		if slices.Contains(busy, uid) {
			continue
		}
		busy = append(busy, uid)
		cr := c.Todo.Create().SetUserID(uid).SetAuthorID(actor.UserID()).SetNillableProjectID(t.ProjectID).
			SetNillableGroupID(t.GroupID).SetTargetType(t.Type).SetTargetID(t.ID).SetAction(action)
		if note != nil {
			cr.SetNoteID(note.id).SetBody(note.body)
		}
		creates = append(creates, cr)
	}
	if len(creates) == 0 {
		return nil
	}
	return c.Todo.CreateBulk(creates...).Exec(ctx)
}

// resolve marks the pending to-dos of user on t done.
func (r *Recorder) resolve(ctx context.Context, c *ent.Client, userID int, t Target) error {
	return c.Todo.Update().Where(todo.UserID(userID), todo.TargetType(t.Type), todo.TargetID(t.ID),
		todo.StateEQ(todo.StatePending)).SetState(todo.StateDone).SetUpdatedAt(now()).Exec(ctx)
}

// now is the current time as the database keeps it (UTC, milliseconds).
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
