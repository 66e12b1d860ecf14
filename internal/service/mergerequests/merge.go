package mergerequests

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/projects"
)

// GitLab's answers to a merge it refuses or that fails.
const (
	msgBranchCannotBeMerged = "Branch cannot be merged"
	msgSHAMismatch          = "SHA does not match HEAD of source branch: "
	msgNotMergeable         = "Merge request is not mergeable"
	// msgTargetMoved is the merge_error when the target branch kept moving under the merge.
	msgTargetMoved = "Could not update the target branch. Please refresh and try again."
)

// autoMergeStrategy is GitLab's strategy name for merge_when_pipeline_succeeds.
const autoMergeStrategy = "merge_when_pipeline_succeeds"

// mergeAttempts bounds how often a merge is rebuilt when the target branch moves between
// reading its tip and moving it (each attempt merges onto the new tip).
const mergeAttempts = 3

// LockTimeout is how long a merge may hold a merge request locked before a reader takes the
// lock for abandoned (the process crashed before moving the target branch) and releases it.
// A variable for tests.
var LockTimeout = 2 * time.Minute

// MergeInput is PUT /projects/:id/merge_requests/:merge_request_iid/merge in GitLab's names;
// nil fields were not given.
type MergeInput struct {
	MergeCommitMessage        *string // merge_commit_message
	SquashCommitMessage       *string // squash_commit_message
	Squash                    *bool   // squash
	ShouldRemoveSourceBranch  *bool   // should_remove_source_branch
	MergeWhenPipelineSucceeds *bool   // merge_when_pipeline_succeeds (deprecated)
	AutoMerge                 *bool   // auto_merge
	SHA                       *string // sha: the source head the caller reviewed
}

// Merge merges the merge request iid of project ref into its target branch with the project's
// merge method (merge: a merge commit; rebase_merge: a merge commit, only when the source is
// on top of the target; ff: the target moves to the source head), squashing first when the
// project's squash option or the request says so. Refusals, in GitLab's order: 401 when the
// actor may not merge into the target branch; 405 "405 Method Not Allowed" when the merge
// request is not open (or another merge holds it), is a draft, has a missing branch, has
// unresolved threads the project requires resolved, or needs a pipeline that cannot exist;
// 422 "Branch cannot be merged" on conflicts, when a rebase is needed or a blocking merge
// request is open; 409 when sha is not the source head.
//
// With auto_merge (or merge_when_pipeline_succeeds) the merge happens at once unless the
// project requires a pipeline: then auto-merge is set and waits, as GitLab does with no
// pipeline yet (none ever runs here).
//
// Two merges of one merge request: the lock (state opened -> locked, a conditional UPDATE)
// admits one; the other is answered 405 as GitLab answers a locked merge request.
func (s *Service) Merge(ctx context.Context, actor *authz.Actor, ref, iid string, in MergeInput) (*ent.MergeRequest, authz.Level, error) {
	mr, level, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.merge(ctx, actor, level, mr, in)
	return out, level, err
}

// merge checks and performs the merge of mr (Merge).
func (s *Service) merge(ctx context.Context, actor *authz.Actor, level authz.Level, mr *ent.MergeRequest, in MergeInput) (*ent.MergeRequest, error) {
	if mr.State == mergerequest.StateLocked {
		if err := s.recoverLocked(ctx, mr); err != nil {
			return nil, err
		}
	}
	p := mr.Edges.Project
	if err := s.authorizeMerge(ctx, actor, level, mr); err != nil {
		return nil, err
	}
	st, err := s.branchState(ctx, mr)
	if err != nil {
		return nil, err
	}
	c, err := s.checks(ctx, mr, st)
	if err != nil {
		return nil, err
	}
	autoMerge := isTrue(in.AutoMerge) || isTrue(in.MergeWhenPipelineSucceeds)
	if mr.State != mergerequest.StateOpened || mr.Draft || c.broken || !c.discussionsResolved {
		return nil, apperr.NotAllowed("")
	}
	if c.ciMustPass {
		if !autoMerge {
			return nil, apperr.NotAllowed("")
		}
		return s.setAutoMerge(ctx, actor, mr, in)
	}
	if err := s.refreshMergeStatus(ctx, mr, st); err != nil {
		return nil, err
	}
	if mr.MergeStatus != StatusCanBeMerged || c.needRebase || c.blocked || c.notApproved {
		return nil, apperr.Unprocessable(msgBranchCannotBeMerged)
	}
	if in.SHA != nil && *in.SHA != string(st.sourceTip) {
		return nil, apperr.Conflict(msgSHAMismatch + string(st.sourceTip))
	}
	opts := mergeOptions{actor: actor, squash: squashOnMerge(p, mr, in.Squash), input: in, head: st.sourceTip}
	return s.execute(ctx, mr, st, opts)
}

// authorizeMerge refuses a merge the actor may not make (mayMerge) with 401, as GitLab's merge
// API answers it.
func (s *Service) authorizeMerge(ctx context.Context, actor *authz.Actor, level authz.Level, mr *ent.MergeRequest) error {
	ok, err := s.mayMerge(ctx, actor, mr.Edges.Project, level, mr.TargetBranch)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Unauthorized()
	}
	return nil
}

// mayMerge is GitLab's can_be_merged_by?, which both user.can_merge and PUT .../merge ask:
// push access to the project (level) and can_update_branch? on the target branch, that is push
// OR merge access to it. On a protected branch either rule admits the actor: a Developer whom
// only the merge rule names may merge, and so may one whom only the push rule names (GitLab
// lets a user who could push the merge result merge it); on an unprotected branch push access
// is enough.
func (s *Service) mayMerge(ctx context.Context, actor *authz.Actor, p *ent.Project, level authz.Level, branch string) (bool, error) {
	if actor.IsAnonymous() || !authz.CanProject(actor, p, level, authz.PushCode) {
		return false, nil
	}
	if err := s.protected.CanMerge(ctx, actor, p, branch); err != nil {
		if apperr.Is(err, apperr.KindForbidden) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// squashOnMerge is GitLab's squash_on_merge?: the project's always and never win over the
// request, which wins over the merge request's own choice.
func squashOnMerge(p *ent.Project, mr *ent.MergeRequest, requested *bool) bool {
	switch p.SquashOption {
	case "always":
		return true
	case "never":
		return false
	}
	if requested != nil {
		return *requested
	}
	return mr.Squash
}

// mergeOptions are one merge's choices.
type mergeOptions struct {
	actor  *authz.Actor
	squash bool
	input  MergeInput
	// head is the source commit merged: the tip the checks (and the sha parameter) saw.
	head git.ObjectID
}

// mergeResult is what the git side of a merge wrote.
type mergeResult struct {
	oldTarget, newTarget git.ObjectID
	mergeCommit          *string
	squashCommit         *string
}

// execute performs a checked merge. Its order keeps a crash from losing an acknowledged merge
// or leaving the merge request locked for good:
//
//  1. lock: state opened -> locked in one conditional UPDATE (one of concurrent merges wins);
//  2. write the commits (unreferenced objects until the target moves);
//  3. store the commit the target will point at as in_progress_merge_commit_sha;
//  4. move the target branch with a compare-and-swap on the tip the commits were built on
//     (recorded as the merger's push, with its webhooks);
//  5. finish in one transaction: merged, merged_by, merged_at, the commit ids, the observers
//     (events, system notes, webhooks).
//
// A crash after 4 leaves a locked merge request whose target contains
// in_progress_merge_commit_sha: the next read or merge attempt finishes it (recoverLocked). A
// crash before 4 leaves one whose target does not: it is released after LockTimeout. Any
// failure in 2-4 releases the lock at once with merge_error set.
func (s *Service) execute(ctx context.Context, mr *ent.MergeRequest, st branchState, o mergeOptions) (*ent.MergeRequest, error) {
	client := db.ClientFrom(ctx, s.client)
	n, err := client.MergeRequest.Update().Where(mergerequest.ID(mr.ID), mergerequest.StateEQ(mergerequest.StateOpened)).
		SetState(mergerequest.StateLocked).SetMergeUserID(o.actor.UserID()).ClearInProgressMergeCommitSha().
		ClearMergeError().Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, apperr.NotAllowed("") // another merge (or a close) came first
	}
	before := *mr
	// The request may go away now; the merge runs to its end either way.
	ctx = context.WithoutCancel(ctx)
	res, err := s.writeMerge(ctx, mr, st, o)
	if err != nil {
		msg := msgBranchCannotBeMerged
		if errors.Is(err, git.ErrStaleRef) {
			msg = msgTargetMoved
		}
		if uerr := s.unlock(ctx, mr.ID, msg); uerr != nil {
			return nil, errors.Join(err, uerr)
		}
		if apperr.Is(err, apperr.KindUnprocessable) || errors.Is(err, git.ErrStaleRef) {
			return nil, apperr.Unprocessable(msgBranchCannotBeMerged)
		}
		return nil, err
	}
	if o.input.ShouldRemoveSourceBranch != nil {
		mr.ShouldRemoveSourceBranch = o.input.ShouldRemoveSourceBranch
	}
	if o.input.Squash != nil {
		mr.Squash = *o.input.Squash
	}
	done, err := s.finish(ctx, o.actor, &before, mr, res)
	if err != nil {
		return nil, err
	}
	s.afterMerge(ctx, o.actor, mr, st, o)
	return done, nil
}

// writeMerge writes the merge's commits and moves the target branch (steps 2-4 of execute),
// rebuilding onto the new tip when the target moved in between.
func (s *Service) writeMerge(ctx context.Context, mr *ent.MergeRequest, st branchState, o mergeOptions) (mergeResult, error) {
	if err := bringSource(ctx, st); err != nil {
		return mergeResult{}, err
	}
	target := st.target
	for attempt := 1; ; attempt++ {
		res, err := s.buildMerge(ctx, mr, st, o)
		if err != nil {
			return res, err
		}
		if err := db.ClientFrom(ctx, s.client).MergeRequest.UpdateOneID(mr.ID).
			SetInProgressMergeCommitSha(string(res.newTarget)).Exec(ctx); err != nil {
			return res, err
		}
		err = s.repos.UpdateRefs(ctx, o.actor, target, st.targetRepo, false,
			git.RefUpdate{Name: git.BranchRef(mr.TargetBranch), NewOID: res.newTarget, OldOID: res.oldTarget})
		if err == nil {
			return res, nil
		}
		if !errors.Is(err, git.ErrStaleRef) || attempt == mergeAttempts {
			return res, err
		}
		// The target moved (a push): merge again onto its new tip.
		if st.targetTip, err = tip(ctx, st.targetRepo, mr.TargetBranch); err != nil {
			return res, err
		}
		if st.targetTip == "" {
			return res, apperr.Unprocessable(msgBranchCannotBeMerged)
		}
	}
}

// buildMerge writes the commits of a merge onto st.targetTip: the squash commit when asked,
// then the merge commit (merge, rebase_merge) or nothing (ff).
func (s *Service) buildMerge(ctx context.Context, mr *ent.MergeRequest, st branchState, o mergeOptions) (mergeResult, error) {
	repo, p := st.targetRepo, st.target
	res := mergeResult{oldTarget: st.targetTip}
	head := o.head
	committer := signature(o.actor.User)
	if o.squash {
		id, err := s.squash(ctx, mr, repo, st.targetTip, head, o, committer)
		if err != nil {
			return res, err
		}
		head = id
		sq := string(id)
		res.squashCommit = &sq
	}
	if ffRequired(p) {
		ok, err := repo.IsAncestor(ctx, string(st.targetTip), string(head))
		if err != nil {
			return res, err
		}
		if !ok {
			return res, apperr.Unprocessable(msgBranchCannotBeMerged) // the target moved: rebase again
		}
	}
	if p.MergeMethod == "ff" {
		res.newTarget = head
		id := string(head)
		res.mergeCommit = &id
		return res, nil
	}
	msg := defaultMergeMessage(mr, s.closingReferences(ctx, mr))
	if m := o.input.MergeCommitMessage; m != nil && strings.TrimSpace(*m) != "" {
		msg = *m
	}
	id, err := repo.MergeCommit(ctx, git.MergeCommitOptions{Ours: st.targetTip, Theirs: head, Message: msg,
		Author: committer, Committer: committer})
	if err != nil {
		if errors.Is(err, git.ErrConflict) || errors.Is(err, git.ErrUnrelatedHistories) {
			return res, apperr.Unprocessable(msgBranchCannotBeMerged)
		}
		return res, err
	}
	res.newTarget = id
	mc := string(id)
	res.mergeCommit = &mc
	return res, nil
}

// squash writes the squash commit of the source's commits since the merge base, authored by
// the merge request's author (GitLab's squash), with the squash message or the title. A
// single commit with no message asked for is kept as it is, as GitLab skips a redundant
// squash.
func (s *Service) squash(ctx context.Context, mr *ent.MergeRequest, repo *git.Repository, target, head git.ObjectID, o mergeOptions, committer git.Signature) (git.ObjectID, error) {
	base, err := repo.MergeBase(ctx, string(target), string(head))
	if err != nil {
		return "", err
	}
	msg := mr.Title
	custom := o.input.SquashCommitMessage != nil && strings.TrimSpace(*o.input.SquashCommitMessage) != ""
	if custom {
		msg = *o.input.SquashCommitMessage
	}
	if !custom {
		n, err := repo.CountCommits(ctx, git.LogOptions{Revisions: []string{string(head), "^" + string(base)}})
		if err != nil {
			return "", err
		}
		if n <= 1 {
			return head, nil
		}
	}
	author := committer
	if a := mr.Edges.Author; a != nil {
		author = signature(a)
	}
	return repo.Squash(ctx, git.SquashOptions{Base: base, Head: head, Message: msg, Author: author, Committer: committer})
}

// finish records a merge whose target branch has moved (step 5 of execute): the merge
// request merged by actor, with its commit ids, handed to the observers in the same
// transaction. A merge request no longer locked was finished by a reader meanwhile.
func (s *Service) finish(ctx context.Context, actor *authz.Actor, before, mr *ent.MergeRequest, res mergeResult) (*ent.MergeRequest, error) {
	var out *ent.MergeRequest
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		up := c.MergeRequest.Update().Where(mergerequest.ID(mr.ID), mergerequest.StateEQ(mergerequest.StateLocked)).
			SetState(mergerequest.StateMerged).SetMergedAt(time.Now().UTC().Truncate(time.Millisecond)).
			SetNillableMergeCommitSha(res.mergeCommit).SetNillableSquashCommitSha(res.squashCommit).
			ClearInProgressMergeCommitSha().ClearMergeError().SetMergeStatus(StatusCanBeMerged).
			SetSquash(mr.Squash).SetNillableShouldRemoveSourceBranch(mr.ShouldRemoveSourceBranch)
		if !actor.IsAnonymous() {
			up.SetMergedByID(actor.UserID()).SetMergeUserID(actor.UserID())
		}
		n, err := up.Save(ctx)
		if err != nil {
			return err
		}
		after, err := s.reload(ctx, mr.ID)
		if err != nil {
			return err
		}
		out = after
		if n == 0 {
			return nil
		}
		return s.observer.MergeRequestChanged(ctx, actor, Change{Action: ActionMerged, Before: before, After: after})
	})
	return out, err
}

// unlock releases a merge request a merge held (locked -> opened), noting why in merge_error.
func (s *Service) unlock(ctx context.Context, id int, reason string) error {
	up := db.ClientFrom(ctx, s.client).MergeRequest.Update().
		Where(mergerequest.ID(id), mergerequest.StateEQ(mergerequest.StateLocked)).
		SetState(mergerequest.StateOpened).ClearInProgressMergeCommitSha()
	if reason != "" {
		up.SetMergeError(reason)
	}
	_, err := up.Save(ctx)
	return err
}

// recoverLocked settles a merge request a merge left locked: finished as merged (by the
// user who took the lock) when the target branch contains in_progress_merge_commit_sha,
// released when the lock is older than LockTimeout, left alone otherwise (a merge is running).
// mr is updated in place.
func (s *Service) recoverLocked(ctx context.Context, mr *ent.MergeRequest) error {
	st, err := s.branchState(ctx, mr)
	if err != nil {
		return err
	}
	if sha := mr.InProgressMergeCommitSha; sha != nil && st.targetTip != "" {
		in, err := st.targetRepo.IsAncestor(ctx, *sha, string(st.targetTip))
		if err != nil && !errors.Is(err, git.ErrReferenceNotFound) {
			return err
		}
		if in {
			actor := authz.Anonymous
			if mr.MergeUserID != nil {
				if u, err := db.ClientFrom(ctx, s.client).User.Get(ctx, *mr.MergeUserID); err == nil {
					actor = &authz.Actor{User: u}
				}
			}
			before := *mr
			before.State = mergerequest.StateOpened
			mc := *sha
			after, err := s.finish(ctx, actor, &before, mr, mergeResult{mergeCommit: &mc})
			if err != nil {
				return err
			}
			*mr = *after
			return nil
		}
	}
	if time.Since(mr.UpdatedAt) < LockTimeout {
		return nil
	}
	if err := s.unlock(ctx, mr.ID, ""); err != nil {
		return err
	}
	after, err := s.reload(ctx, mr.ID)
	if err != nil {
		return err
	}
	*mr = *after
	return nil
}

// afterMerge does what follows an acknowledged merge and may fail without undoing it:
// removing the source branch when asked (GitLab's can_remove_source_branch?: not protected,
// not the source project's default branch, the merger can push there, and it has not moved
// since the merge).
func (s *Service) afterMerge(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest, st branchState, o mergeOptions) {
	remove := mr.ForceRemoveSourceBranch != nil && *mr.ForceRemoveSourceBranch
	if o.input.ShouldRemoveSourceBranch != nil {
		remove = *o.input.ShouldRemoveSourceBranch
	}
	if remove {
		_ = s.removeSourceBranch(ctx, actor, mr, st, o.head)
	}
	s.closeIssues(ctx, actor, mr)
}

// removeSourceBranch deletes the merged source branch if the merger may.
func (s *Service) removeSourceBranch(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest, st branchState, head git.ObjectID) error {
	sp := st.source
	if sp == nil || st.sourceRepo == nil || sp.DefaultBranch == mr.SourceBranch {
		return nil
	}
	if err := s.policy.Project(ctx, actor, sp, authz.PushCode); err != nil {
		return err
	}
	if protected, err := s.protected.IsProtected(ctx, sp, mr.SourceBranch); err != nil || protected {
		return err
	}
	return s.repos.UpdateRefs(ctx, actor, sp, st.sourceRepo, false,
		git.RefUpdate{Name: git.BranchRef(mr.SourceBranch), NewOID: git.ZeroOID, OldOID: head})
}

// setAutoMerge turns on merge_when_pipeline_succeeds for actor (the merge waits for a
// pipeline) and returns the merge request.
func (s *Service) setAutoMerge(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest, in MergeInput) (*ent.MergeRequest, error) {
	var out *ent.MergeRequest
	before := *mr
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		up := c.MergeRequest.UpdateOneID(mr.ID).SetMergeWhenPipelineSucceeds(true).
			SetAutoMergeStrategy(autoMergeStrategy).SetMergeUserID(actor.UserID()).
			SetNillableShouldRemoveSourceBranch(in.ShouldRemoveSourceBranch).
			SetNillableMergeCommitMessage(in.MergeCommitMessage).SetNillableSquashCommitMessage(in.SquashCommitMessage)
		if in.Squash != nil {
			up.SetSquash(*in.Squash)
		}
		if err := up.Exec(ctx); err != nil {
			return err
		}
		after, err := s.reload(ctx, mr.ID)
		if err != nil {
			return err
		}
		out = after
		return s.observer.MergeRequestChanged(ctx, actor, Change{Action: ActionUpdated, Before: &before, After: after})
	})
	return out, err
}

// CancelAutoMerge is POST .../cancel_merge_when_pipeline_succeeds: 405 unless auto-merge is
// set; 401 unless the actor may merge or wrote the merge request.
func (s *Service) CancelAutoMerge(ctx context.Context, actor *authz.Actor, ref, iid string) (*ent.MergeRequest, authz.Level, error) {
	mr, level, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, 0, err
	}
	if !mr.MergeWhenPipelineSucceeds {
		return nil, 0, apperr.NotAllowed("")
	}
	author := mr.AuthorID != nil && !actor.IsAnonymous() && *mr.AuthorID == actor.UserID()
	if !author {
		if err := s.authorizeMerge(ctx, actor, level, mr); err != nil {
			return nil, 0, err
		}
	}
	var out *ent.MergeRequest
	before := *mr
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := c.MergeRequest.UpdateOneID(mr.ID).SetMergeWhenPipelineSucceeds(false).ClearAutoMergeStrategy().
			ClearMergeUserID().Exec(ctx); err != nil {
			return err
		}
		after, err := s.reload(ctx, mr.ID)
		if err != nil {
			return err
		}
		out = after
		return s.observer.MergeRequestChanged(ctx, actor, Change{Action: ActionUpdated, Before: &before, After: after})
	})
	return out, level, err
}

// MergeRef is GET .../merge_ref: the commit refs/merge-requests/:iid/merge holds after a
// fresh mergeability check, or 400 "Merge request is not mergeable".
func (s *Service) MergeRef(ctx context.Context, actor *authz.Actor, ref, iid string) (string, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return "", err
	}
	if _, err := s.CheckMergeability(ctx, mr); err != nil {
		return "", err
	}
	if mr.State != mergerequest.StateOpened || mr.MergeStatus != StatusCanBeMerged || mr.MergeRefSha == nil {
		return "", apperr.Refused(msgNotMergeable)
	}
	return *mr.MergeRefSha, nil
}

// defaultMergeMessage is GitLab's default merge commit message: the branches, the title, the
// issues it closes ("Closes #1 and #2", when known) and the full reference.
func defaultMergeMessage(mr *ent.MergeRequest, closes []string) string {
	parts := []string{fmt.Sprintf("Merge branch '%s' into '%s'", mr.SourceBranch, mr.TargetBranch), mr.Title}
	if len(closes) > 0 {
		parts = append(parts, "Closes "+sentence(closes))
	}
	parts = append(parts, "See merge request "+reference(mr))
	return strings.Join(parts, "\n\n")
}

// reference is the merge request's full reference: group/project!iid.
func reference(mr *ent.MergeRequest) string {
	path := ""
	if p := mr.Edges.Project; p != nil {
		path = projects.FullPath(p)
	}
	return path + "!" + strconv.Itoa(mr.Iid)
}

// sentence joins words as Rails' to_sentence: "a", "a and b", "a, b, and c".
func sentence(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	case 2:
		return words[0] + " and " + words[1]
	}
	return strings.Join(words[:len(words)-1], ", ") + ", and " + words[len(words)-1]
}

// signature is a user's git identity now: their commit email when set.
func signature(u *ent.User) git.Signature {
	email := u.Email
	if u.CommitEmail != "" {
		email = u.CommitEmail
	}
	return git.Signature{Name: u.Name, Email: email, When: time.Now().UTC()}
}

func isTrue(b *bool) bool { return b != nil && *b }
