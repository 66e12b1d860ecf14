package repos

import (
	"context"
	"slices"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/projectstatistics"
	"anvil/ent/pushevent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/events"
)

// RefUpdate is one ref a push moved, as git reports it to the post-receive hook: Old is the
// zero id for a created ref, New for a removed one.
type RefUpdate struct {
	Old, New git.ObjectID
	Ref      string
}

// maxPushCommitIDs is how many commit ids a push record keeps, newest first.
const maxPushCommitIDs = 20

// maxCommitTitle is the longest commit title a push record keeps (GitLab's column size).
const maxCommitTitle = 70

// RecordPush records an accepted push by actor into p: one PushEvent per branch or tag it moved
// (before and after ids, created/pushed/removed, the commit count and up to 20 commit ids
// newest first, the newest commit's title), the activity feed's push events made from them
// (events.Pushes), and the project's last activity. When the push
// gave an empty repository its first branches, the default branch becomes HEAD's branch if it
// was pushed, else the first branch pushed; HEAD and the project follow, and the branch gets
// the instance's default protection, as in GitLab.
func (s *Service) RecordPush(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, wasEmpty bool, updates []RefUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	head, err := repo.Head(ctx)
	if err != nil {
		return err
	}
	newDefault := ""
	if wasEmpty {
		if newDefault = firstDefault(head, updates); newDefault != "" && newDefault != head {
			if err := repo.SetHead(ctx, newDefault); err != nil {
				return err
			}
			head = newDefault
		}
	}
	var pushes []*ent.PushEventCreate
	c := db.ClientFrom(ctx, s.client)
	for _, u := range updates {
		ev, err := s.pushEvent(ctx, c, repo, u, head)
		if err != nil {
			return err
		}
		if ev != nil {
			pushes = append(pushes, ev.SetProjectID(p.ID).SetNillableUserID(userID(actor)))
		}
	}
	limit := events.DefaultPushActivitiesLimit
	if err := s.settings.Get(ctx, "push_event_activities_limit", &limit); err != nil {
		return err
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if len(pushes) > 0 {
			rows, err := tx.PushEvent.CreateBulk(pushes...).Save(ctx)
			if err != nil {
				return err
			}
			// The activity feed's push events, in the same transaction.
			if err := events.Record(ctx, tx, events.Pushes(p.ID, rows, limit)...); err != nil {
				return err
			}
			// Webhooks queue their deliveries in the same transaction.
			if err := s.pushes.PushRecorded(ctx, actor, p, rows); err != nil {
				return err
			}
		}
		upd := tx.Project.UpdateOneID(p.ID).SetLastActivityAt(time.Now())
		if newDefault != "" {
			upd.SetDefaultBranch(newDefault)
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		if err := markStatisticsStale(ctx, tx, p.ID); err != nil {
			return err
		}
		return s.countPush(ctx, tx, p.ID)
	})
	if err != nil {
		return err
	}
	if createdBranch(updates, head) {
		return s.protected.ProtectDefaultBranch(ctx, p, head)
	}
	return nil
}

// userID is the pusher's id, nil for none.
func userID(a *authz.Actor) *int {
	if a.IsAnonymous() {
		return nil
	}
	id := a.User.ID
	return &id
}

// firstDefault picks the default branch of a repository whose first branches updates created:
// HEAD's branch when it is among them, else the first one.
func firstDefault(head string, updates []RefUpdate) string {
	var created []string
	for _, u := range updates {
		if b, ok := strings.CutPrefix(u.Ref, git.BranchPrefix); ok && !u.New.IsZero() {
			created = append(created, b)
		}
	}
	if len(created) == 0 {
		return ""
	}
	if slices.Contains(created, head) {
		return head
	}
	return created[0]
}

// createdBranch reports whether updates created branch.
func createdBranch(updates []RefUpdate, branch string) bool {
	for _, u := range updates {
		if u.Ref == git.BranchRef(branch) && u.Old.IsZero() && !u.New.IsZero() {
			return true
		}
	}
	return false
}

// pushEvent builds the record of one ref update; nil for refs that are neither branches nor
// tags.
func (s *Service) pushEvent(ctx context.Context, c *ent.Client, repo *git.Repository, u RefUpdate, defaultBranch string) (*ent.PushEventCreate, error) {
	refType := pushevent.RefTypeBranch
	name, ok := strings.CutPrefix(u.Ref, git.BranchPrefix)
	if !ok {
		if name, ok = strings.CutPrefix(u.Ref, git.TagPrefix); !ok {
			return nil, nil
		}
		refType = pushevent.RefTypeTag
	}
	action := pushevent.ActionPushed
	switch {
	case u.Old.IsZero():
		action = pushevent.ActionCreated
	case u.New.IsZero():
		action = pushevent.ActionRemoved
	}
	ev := c.PushEvent.Create().SetRef(u.Ref).SetRefType(refType).SetAction(action).
		SetBefore(string(orZero(u.Old))).SetAfter(string(orZero(u.New)))
	if action == pushevent.ActionRemoved {
		return ev.SetCommitIds([]string{}), nil
	}
	var (
		commits []*git.Commit
		count   int
		err     error
	)
	if refType == pushevent.RefTypeTag {
		// A tag push carries the tagged commit, when it tags one.
		if cm, err := repo.ReadCommit(ctx, string(u.New)); err == nil {
			commits, count = []*git.Commit{cm}, 1
		}
	} else {
		revs := s.pushRange(ctx, repo, u, name, defaultBranch)
		if commits, err = repo.Log(ctx, git.LogOptions{Revisions: revs, Limit: maxPushCommitIDs}); err != nil {
			return nil, err
		}
		if count, err = repo.CountCommits(ctx, git.LogOptions{Revisions: revs}); err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(commits))
	for _, cm := range commits {
		ids = append(ids, string(cm.ID))
	}
	title := ""
	if len(commits) > 0 {
		title = truncateRunes(commits[0].Subject(), maxCommitTitle)
	}
	return ev.SetCommitCount(count).SetCommitIds(ids).SetCommitTitle(title), nil
}

// pushRange is the revisions whose commits a branch update brought, as GitLab counts them: the
// whole history for the default branch's creation, what the default branch lacks for another
// new branch, old..new for an update.
func (s *Service) pushRange(ctx context.Context, repo *git.Repository, u RefUpdate, branch, defaultBranch string) []string {
	revs := []string{string(u.New)}
	switch {
	case !u.Old.IsZero():
		revs = append(revs, "^"+string(u.Old))
	case branch != defaultBranch:
		if tip, err := repo.ResolveCommit(ctx, git.BranchRef(defaultBranch)); err == nil {
			revs = append(revs, "^"+string(tip))
		}
	}
	return revs
}

// orZero returns id, or the zero id when it is empty.
func orZero(id git.ObjectID) git.ObjectID {
	if id == "" {
		return git.ZeroOID
	}
	return id
}

// truncateRunes cuts s to at most n characters.
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// markStatisticsStale marks the project's storage statistics stale and counts up their version,
// in the transaction that records a push: the statistics service computes them again when they
// are next shown, and values measured before the push cannot overwrite the mark.
func markStatisticsStale(ctx context.Context, c *ent.Client, projectID int) error {
	return c.ProjectStatistics.Create().SetProjectID(projectID).SetStale(true).
		OnConflictColumns(projectstatistics.FieldProjectID).
		Update(func(u *ent.ProjectStatisticsUpsert) { u.SetStale(true).AddVersion(1) }).
		Exec(ctx)
}
