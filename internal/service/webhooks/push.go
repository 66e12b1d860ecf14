package webhooks

import (
	"context"
	"slices"
	"strings"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/pushevent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
)

// maxPushCommits is how many commits a push payload lists (GitLab's limit of 20).
const maxPushCommits = 20

// PushHookJob builds the payload of one ref's push and queues its deliveries. The push's
// transaction queues it (PushRecorded) only when some hook receives it; reading the commits
// from the repository happens here, outside that transaction.
type PushHookJob struct {
	ProjectID int      `json:"project_id"`
	UserID    int      `json:"user_id"`
	Ref       string   `json:"ref"`
	Before    string   `json:"before"`
	After     string   `json:"after"`
	CommitIDs []string `json:"commit_ids"` // newest first, at most 20
	Total     int      `json:"total_commits_count"`
	Tag       bool     `json:"tag"`
}

// Kind names the job.
func (PushHookJob) Kind() string { return "web_hook_push" }

// PushRecorded is the repository service's push observer, called in the push's transaction:
// each branch or tag moved queues a PushHookJob when some hook receives its push or tag push,
// and system hooks receiving repository updates get one for the whole push.
func (s *Service) PushRecorded(ctx context.Context, actor *authz.Actor, p *ent.Project, pushes []*ent.PushEvent) error {
	if actor.IsAnonymous() || len(pushes) == 0 {
		return nil
	}
	t := Target{Project: p}
	for _, row := range pushes {
		ev := TagPushEvent
		if row.RefType == pushevent.RefTypeBranch {
			ev = PushEvent
			ev.Branch = strings.TrimPrefix(row.Ref, git.BranchPrefix)
		}
		hooks, err := s.Receivers(ctx, t, ev)
		if err != nil {
			return err
		}
		if len(hooks) == 0 {
			continue
		}
		if err := s.Jobs.Enqueue(ctx, PushHookJob{ProjectID: p.ID, UserID: actor.UserID(), Ref: row.Ref,
			Before: row.Before, After: row.After, CommitIDs: row.CommitIds, Total: row.CommitCount,
			Tag: row.RefType == pushevent.RefTypeTag}); err != nil {
			return err
		}
	}
	return s.repositoryUpdate(ctx, actor, p, pushes)
}

// repositoryUpdate queues the repository_update system event of a push.
func (s *Service) repositoryUpdate(ctx context.Context, actor *authz.Actor, p *ent.Project, pushes []*ent.PushEvent) error {
	hooks, err := s.Receivers(ctx, Target{Project: p}, RepositoryUpdateEvent)
	if err != nil || len(hooks) == 0 {
		return err
	}
	type change struct {
		Before string `json:"before"`
		After  string `json:"after"`
		Ref    string `json:"ref"`
	}
	changes, refs := []change{}, []string{}
	for _, r := range pushes {
		changes = append(changes, change{r.Before, r.After, r.Ref})
		refs = append(refs, r.Ref)
	}
	u := actor.User
	return s.Trigger(ctx, Target{Project: p}, RepositoryUpdateEvent, map[string]any{
		"event_name": "repository_update", "user_id": u.ID, "user_name": u.Name,
		"user_email": webhookEmail(u), "user_avatar": avatarURL(u), "project_id": p.ID,
		"project": s.projectData(p), "changes": changes, "refs": refs,
	})
}

// CommitData is one commit of a push payload.
type CommitData struct {
	ID        string       `json:"id"`
	Message   string       `json:"message"`
	Title     string       `json:"title"`
	Timestamp string       `json:"timestamp"`
	URL       string       `json:"url"`
	Author    CommitAuthor `json:"author"`
	Added     []string     `json:"added"`
	Modified  []string     `json:"modified"`
	Removed   []string     `json:"removed"`
}

// CommitAuthor is a commit's author in a push payload.
type CommitAuthor struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// PushPayload is GitLab's push and tag push payload.
type PushPayload struct {
	ObjectKind        string         `json:"object_kind"`
	EventName         string         `json:"event_name"`
	Before            string         `json:"before"`
	After             string         `json:"after"`
	Ref               string         `json:"ref"`
	RefProtected      bool           `json:"ref_protected"`
	CheckoutSHA       *string        `json:"checkout_sha"`
	Message           *string        `json:"message"`
	UserID            int            `json:"user_id"`
	UserName          string         `json:"user_name"`
	UserUsername      string         `json:"user_username"`
	UserEmail         string         `json:"user_email"`
	UserAvatar        string         `json:"user_avatar"`
	ProjectID         int            `json:"project_id"`
	Project           ProjectData    `json:"project"`
	Commits           []CommitData   `json:"commits"`
	TotalCommitsCount int            `json:"total_commits_count"`
	PushOptions       map[string]any `json:"push_options"`
	Repository        RepositoryData `json:"repository"`
}

// ForSystemHooks is the push as system hooks receive it: no commits, their count kept
// (GitLab's build_system_push_data).
func (p PushPayload) ForSystemHooks() any {
	p.Commits = []CommitData{}
	return p
}

// RunPushHook works a PushHookJob: the payload is built and its deliveries queued in one
// transaction. A project or user deleted since needs nothing.
func (s *Service) RunPushHook(ctx context.Context, j PushHookJob) error {
	p, err := s.Client.Project.Query().Where(project.ID(j.ProjectID)).WithNamespace().Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	u, err := s.Client.User.Get(ctx, j.UserID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	payload, err := s.pushPayload(ctx, p, u, j)
	if err != nil {
		return err
	}
	ev := TagPushEvent
	if !j.Tag {
		ev = PushEvent
		ev.Branch = strings.TrimPrefix(j.Ref, git.BranchPrefix)
	}
	return db.WithTx(ctx, s.Client, func(ctx context.Context, _ *ent.Client) error {
		return s.Trigger(ctx, Target{Project: p}, ev, payload)
	})
}

// pushPayload builds the payload of a push of j.Ref by u into p.
func (s *Service) pushPayload(ctx context.Context, p *ent.Project, u *ent.User, j PushHookJob) (PushPayload, error) {
	pd := s.projectData(p)
	out := PushPayload{ObjectKind: "push", EventName: "push", Before: j.Before, After: j.After, Ref: j.Ref,
		UserID: u.ID, UserName: u.Name, UserUsername: u.Username, UserEmail: webhookEmail(u),
		UserAvatar: avatarURL(u), ProjectID: p.ID, Project: pd, Commits: []CommitData{},
		TotalCommitsCount: j.Total, PushOptions: map[string]any{}, Repository: s.repositoryData(pd)}
	removed := strings.Trim(j.After, "0") == ""
	if branch, ok := strings.CutPrefix(j.Ref, git.BranchPrefix); ok && !j.Tag {
		// Protected tags are not modelled: a tag push is never ref_protected.
		prot, err := s.protected.IsProtected(ctx, p, branch)
		if err != nil {
			return out, err
		}
		out.RefProtected = prot
	}
	repo, err := s.repos.Repository(p)
	if err != nil {
		return out, err
	}
	if j.Tag {
		out.ObjectKind, out.EventName, out.TotalCommitsCount = "tag_push", "tag_push", 0
		if !removed {
			if id, err := repo.ResolveCommit(ctx, j.After+"^{commit}"); err == nil {
				sha := string(id)
				out.CheckoutSHA = &sha
			}
			if tag, err := repo.ReadTagObject(ctx, git.ObjectID(j.After)); err == nil && tag != nil {
				msg := strings.TrimRight(tag.Message, "\n")
				out.Message = &msg
			}
		}
		return out, nil
	}
	if removed {
		return out, nil
	}
	after := j.After
	out.CheckoutSHA = &after
	ids := make([]git.ObjectID, 0, len(j.CommitIDs))
	for _, id := range j.CommitIDs {
		ids = append(ids, git.ObjectID(id))
	}
	commits, err := repo.ReadCommits(ctx, ids)
	if err != nil {
		return out, err
	}
	slices.Reverse(commits) // oldest first, as GitLab lists them
	for _, c := range commits {
		if c == nil {
			continue
		}
		out.Commits = append(out.Commits, s.commitData(ctx, repo, pd, c))
	}
	return out, nil
}

// commitData is one commit of a push payload, with the paths it added, modified and removed
// against its first parent.
func (s *Service) commitData(ctx context.Context, repo *git.Repository, pd ProjectData, c *git.Commit) CommitData {
	d := CommitData{ID: string(c.ID), Message: c.Message, Title: c.Subject(),
		Timestamp: timestamp(c.Author.When), URL: pd.WebURL + "/-/commit/" + string(c.ID),
		Author: CommitAuthor{Name: c.Author.Name, Email: c.Author.Email},
		Added:  []string{}, Modified: []string{}, Removed: []string{}}
	from := ""
	if len(c.Parents) > 0 {
		from = string(c.Parents[0])
	}
	diff, err := repo.Diff(ctx, from, string(c.ID), git.DiffOptions{NoRenames: true})
	if err != nil {
		s.Log.WarnContext(ctx, "hook payload: commit changes", "commit", c.ID, "err", err)
		return d
	}
	for _, f := range diff.Files {
		switch f.Status {
		case 'A':
			d.Added = append(d.Added, f.NewPath)
		case 'D':
			d.Removed = append(d.Removed, f.OldPath)
		default:
			d.Modified = append(d.Modified, f.NewPath)
		}
	}
	return d
}
