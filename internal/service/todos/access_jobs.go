package todos

import (
	"context"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/mergerequest"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/todo"
	"anvil/internal/jobs"
	"anvil/internal/service/issues"
	"anvil/internal/service/mergerequests"
)

// EntityLeaveJob removes the to-dos a user may no longer read after leaving a project or a
// group (GitLab's TodosDestroyer::EntityLeaveWorker): queued in the transaction that removes
// the membership. One of ProjectID and GroupID is set.
type EntityLeaveJob struct {
	UserID    int  `json:"user_id"`
	ProjectID *int `json:"project_id,omitempty"`
	GroupID   *int `json:"group_id,omitempty"`
}

// Kind names the job.
func (EntityLeaveJob) Kind() string { return "todos_entity_leave" }

// InsertOpts retry the job a few times.
func (EntityLeaveJob) InsertOpts() jobs.InsertOpts { return jobs.InsertOpts{MaxAttempts: 5} }

// ConfidentialIssueJob removes the to-dos on an issue made confidential of the users who may no
// longer read it (GitLab's TodosDestroyer::ConfidentialIssueWorker): queued in the transaction
// of the change.
type ConfidentialIssueJob struct {
	IssueID int `json:"issue_id"`
}

// Kind names the job.
func (ConfidentialIssueJob) Kind() string { return "todos_confidential_issue" }

// InsertOpts retry the job a few times.
func (ConfidentialIssueJob) InsertOpts() jobs.InsertOpts { return jobs.InsertOpts{MaxAttempts: 5} }

// MemberLeft queues the EntityLeaveJob of a user whose membership of a project or a group was
// removed (a members.LeaveObserver), in the removal's transaction.
func (r *Recorder) MemberLeft(ctx context.Context, userID int, projectID, groupID *int) error {
	return r.jobs.Enqueue(ctx, EntityLeaveJob{UserID: userID, ProjectID: projectID, GroupID: groupID})
}

// RunEntityLeave works an EntityLeaveJob: the user's to-dos on issues and merge requests of the
// project (or of the group's projects, subgroups included) that the user may no longer read
// are removed; readable ones stay (the user may still reach them through another membership,
// or the project is public). The job is idempotent.
func (r *Recorder) RunEntityLeave(ctx context.Context, args EntityLeaveJob) error {
	var where predicate.Todo
	switch {
	case args.ProjectID != nil:
		where = todo.ProjectID(*args.ProjectID)
	case args.GroupID != nil:
		g, err := r.client.Namespace.Get(ctx, *args.GroupID)
		if ent.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		where = todo.HasProjectWith(project.HasNamespaceWith(namespace.Or(namespace.ID(g.ID),
			namespace.FullPathHasPrefix(g.FullPath+"/"))))
	default:
		return nil
	}
	ts, err := r.client.Todo.Query().Where(todo.UserID(args.UserID), where).WithUser().All(ctx)
	if err != nil {
		return err
	}
	return r.pruneTodos(ctx, ts)
}

// RunConfidentialIssue works a ConfidentialIssueJob: the to-dos on the issue of the users who
// may no longer read it are removed (none when the issue is gone or public again).
func (r *Recorder) RunConfidentialIssue(ctx context.Context, args ConfidentialIssueJob) error {
	ts, err := r.client.Todo.Query().Where(todo.TargetType(TargetIssue), todo.TargetID(args.IssueID)).WithUser().All(ctx)
	if err != nil {
		return err
	}
	return r.pruneTodos(ctx, ts)
}

// pruneTodos removes those of ts (loaded with their users) whose users may not read their
// targets, reading each target once; to-dos of other kinds of target stay.
func (r *Recorder) pruneTodos(ctx context.Context, ts []*ent.Todo) error {
	targets := map[todoKey]*Target{}
	var gone []int
	for _, td := range ts {
		k := todoKey{td.TargetType, td.TargetID}
		t, ok := targets[k]
		if !ok {
			var err error
			if t, err = r.target(ctx, k); err != nil {
				return err
			}
			targets[k] = t
		}
		if t == nil || td.Edges.User == nil {
			continue
		}
		readable, err := t.Readable(ctx, td.Edges.User)
		if err != nil {
			return err
		}
		if !readable {
			gone = append(gone, td.ID)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	_, err := r.client.Todo.Delete().Where(todo.IDIn(gone...)).Exec(ctx)
	return err
}

type todoKey struct {
	typ string
	id  int
}

// target reads a to-do's target (nil: gone, or a kind this recorder does not judge).
func (r *Recorder) target(ctx context.Context, k todoKey) (*Target, error) {
	switch k.typ {
	case TargetIssue:
		is, err := issues.Load(r.client.Issue.Query().Where(issue.ID(k.id))).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		t := r.IssueTarget(is)
		return &t, nil
	case TargetMergeRequest:
		mr, err := mergerequests.Load(r.client.MergeRequest.Query().Where(mergerequest.ID(k.id))).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		t := r.MergeRequestTarget(mr)
		return &t, nil
	}
	return nil, nil
}
