package mergerequests

import (
	"context"
	"errors"
	"fmt"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestblock"
	"anvil/ent/note"
	"anvil/internal/db"
	"anvil/internal/git"
)

// The detailed_merge_status values the live checks add to DetailedMergeStatus's stored ones
// (GitLab's names).
const (
	DetailedBroken                 = "broken_status"
	DetailedNeedRebase             = "need_rebase"
	DetailedDiscussionsNotResolved = "discussions_not_resolved"
	DetailedNotApproved            = "not_approved"
	DetailedBlocked                = "blocked_status"
	DetailedCIMustPass             = "ci_must_pass"
)

// Mergeability is what a single read of a merge request shows of whether it can merge:
// merge_status, detailed_merge_status, has_conflicts and blocking_discussions_resolved.
type Mergeability struct {
	MergeStatus                 string
	DetailedMergeStatus         string
	HasConflicts                bool
	BlockingDiscussionsResolved bool
	// ShouldBeRebased: the merge method needs the source on top of the target and it is not
	// (GitLab's should_be_rebased?).
	ShouldBeRebased bool
}

// checks are the facts beyond the stored columns that detailed_merge_status depends on.
type checks struct {
	broken              bool // a branch (or the source project) is gone
	needRebase          bool // the merge method needs the source on top of the target
	discussionsResolved bool // no unresolved thread blocks the merge (or the project allows it)
	blocked             bool // a blocking merge request is not merged
	ciMustPass          bool // the project requires a pipeline, and none exists
	notApproved         bool // approval rules are not met (reported by the approvals domain)
}

// mergeabilityOf refines the stored state's DetailedMergeStatus with the live checks, in
// GitLab's order of mergeability checks (draft, broken, conflict, rebase, discussions,
// approvals, blocks, pipeline).
func mergeabilityOf(mr *ent.MergeRequest, c checks) Mergeability {
	m := Mergeability{MergeStatus: PublicMergeStatus(mr), DetailedMergeStatus: DetailedMergeStatus(mr),
		HasConflicts: CannotBeMerged(mr), BlockingDiscussionsResolved: c.discussionsResolved,
		ShouldBeRebased: c.needRebase}
	switch m.DetailedMergeStatus {
	case "conflict":
		if c.broken {
			m.DetailedMergeStatus = DetailedBroken
		}
	case "mergeable":
		switch {
		case c.broken:
			m.DetailedMergeStatus = DetailedBroken
		case c.needRebase:
			m.DetailedMergeStatus = DetailedNeedRebase
		case !c.discussionsResolved:
			m.DetailedMergeStatus = DetailedDiscussionsNotResolved
		case c.notApproved:
			m.DetailedMergeStatus = DetailedNotApproved
		case c.blocked:
			m.DetailedMergeStatus = DetailedBlocked
		case c.ciMustPass:
			m.DetailedMergeStatus = DetailedCIMustPass
		}
	}
	return m
}

// CheckMergeability is the mergeability a single read shows (GitLab checks merge status
// lazily there): it finishes or releases a merge left locked by a crash (recoverLocked),
// computes merge_status when it is unchecked or stale (the merge ref no longer has the
// branches' current tips as parents), storing it with merge_ref_sha and
// refs/merge-requests/:iid/merge, and makes the checks of detailed_merge_status. mr is updated
// in place (state, merge_status, merge_ref_sha, and the merge's columns when a locked merge is
// finished). mr must be loaded with its project and source project (Load).
func (s *Service) CheckMergeability(ctx context.Context, mr *ent.MergeRequest) (Mergeability, error) {
	if mr.State == mergerequest.StateLocked {
		if err := s.recoverLocked(ctx, mr); err != nil {
			return Mergeability{}, err
		}
	}
	if mr.State != mergerequest.StateOpened {
		return mergeabilityOf(mr, checks{discussionsResolved: true}), nil
	}
	st, err := s.branchState(ctx, mr)
	if err != nil {
		return Mergeability{}, err
	}
	if err := s.refreshMergeStatus(ctx, mr, st); err != nil {
		return Mergeability{}, err
	}
	c, err := s.checks(ctx, mr, st)
	if err != nil {
		return Mergeability{}, err
	}
	return mergeabilityOf(mr, c), nil
}

// branchState is what the repositories say of a merge request's branches.
type branchState struct {
	target, source         *ent.Project
	targetRepo, sourceRepo *git.Repository
	// targetTip and sourceTip are the branches' tips; "" when a branch (or the source
	// project) is gone.
	targetTip, sourceTip git.ObjectID
}

// broken reports whether a branch is gone (GitLab's broken?).
func (b branchState) broken() bool { return b.targetTip == "" || b.sourceTip == "" }

// fork reports whether the source branch lives in another repository.
func (b branchState) fork() bool { return b.source != nil && b.source.ID != b.target.ID }

// branchState reads the tips of the merge request's branches.
func (s *Service) branchState(ctx context.Context, mr *ent.MergeRequest) (branchState, error) {
	st := branchState{target: mr.Edges.Project, source: mr.Edges.SourceProject}
	if st.target == nil {
		return st, fmt.Errorf("merge request %d: project not loaded", mr.ID)
	}
	repo, err := s.repos.Repository(st.target)
	if err != nil {
		return st, err
	}
	st.targetRepo = repo
	if st.targetTip, err = tip(ctx, repo, mr.TargetBranch); err != nil {
		return st, err
	}
	if st.source == nil {
		return st, nil // the fork is gone
	}
	st.sourceRepo = repo
	if st.fork() {
		if st.sourceRepo, err = s.repos.Repository(st.source); err != nil {
			return st, err
		}
	}
	st.sourceTip, err = tip(ctx, st.sourceRepo, mr.SourceBranch)
	return st, err
}

// tip is a branch's commit, "" when the branch (or the repository) does not exist.
func tip(ctx context.Context, repo *git.Repository, branch string) (git.ObjectID, error) {
	if !repo.Exists() {
		return "", nil
	}
	id, ok, err := repo.BranchTip(ctx, branch)
	if err != nil || !ok {
		return "", err
	}
	return id, nil
}

// bringSource copies the source tip's objects into the target repository when the merge
// request comes from a fork (the groundwork's object copy), so merges run in the target.
func bringSource(ctx context.Context, st branchState) error {
	if !st.fork() || st.sourceTip == "" {
		return nil
	}
	return st.targetRepo.FetchFrom(ctx, st.sourceRepo, git.FetchOptions{Objects: []git.ObjectID{st.sourceTip}})
}

// The merge ref's name parts and the identity of the commits a mergeability check writes
// when the merge request has no author left.
const (
	mergeRefPrefix           = "refs/merge-requests/"
	mergeRefSuffix           = "/merge"
	mergeStatusIdentityName  = "Anvil"
	mergeStatusIdentityEmail = "anvil@localhost"
)

// mergeRef is the ref holding the commit a merge would make (GitLab's merge ref).
func mergeRef(iid int) string { return fmt.Sprintf("%s%d%s", mergeRefPrefix, iid, mergeRefSuffix) }

// refreshMergeStatus computes and stores merge_status unless it is fresh: can_be_merged with
// a merge ref whose parents are the current tips. cannot_be_merged is checked again each time
// (conflicts are rare, and a push may have resolved them). Only an open merge request is
// written, without touching updated_at, as GitLab updates the column alone.
func (s *Service) refreshMergeStatus(ctx context.Context, mr *ent.MergeRequest, st branchState) error {
	if mr.MergeStatus == StatusCanBeMerged && mr.MergeRefSha != nil && !st.broken() {
		if c, err := st.targetRepo.ReadCommit(ctx, *mr.MergeRefSha); err == nil &&
			len(c.Parents) == 2 && c.Parents[0] == st.targetTip && c.Parents[1] == st.sourceTip {
			return nil
		}
	}
	status, ref, err := s.tryMerge(ctx, mr, st)
	if err != nil {
		return err
	}
	if status == mr.MergeStatus && ptrEq(ref, mr.MergeRefSha) {
		return nil
	}
	up := db.ClientFrom(ctx, s.client).MergeRequest.Update().
		Where(mergerequest.ID(mr.ID), mergerequest.StateEQ(mergerequest.StateOpened)).
		SetMergeStatus(status).SetUpdatedAt(mr.UpdatedAt)
	if ref != nil {
		up.SetMergeRefSha(*ref)
	} else {
		up.ClearMergeRefSha()
	}
	if _, err := up.Save(ctx); err != nil {
		return err
	}
	mr.MergeStatus, mr.MergeRefSha = status, ref
	return nil
}

// tryMerge merges the source tip into the target tip as a merge would and moves the merge
// ref to the result: can_be_merged and its id, or cannot_be_merged (conflicts, unrelated
// histories, a branch gone) and nil.
func (s *Service) tryMerge(ctx context.Context, mr *ent.MergeRequest, st branchState) (string, *string, error) {
	if st.broken() {
		return StatusCannotBeMerged, nil, nil
	}
	if err := bringSource(ctx, st); err != nil {
		return "", nil, err
	}
	who := git.Signature{Name: mergeStatusIdentityName, Email: mergeStatusIdentityEmail}
	if a := mr.Edges.Author; a != nil {
		who = signature(a)
	}
	id, err := st.targetRepo.MergeCommit(ctx, git.MergeCommitOptions{Ours: st.targetTip, Theirs: st.sourceTip,
		Message: defaultMergeMessage(mr, nil), Author: who})
	switch {
	case errors.Is(err, git.ErrConflict), errors.Is(err, git.ErrUnrelatedHistories):
		return StatusCannotBeMerged, nil, nil
	case err != nil:
		return "", nil, err
	}
	if err := st.targetRepo.UpdateRef(ctx, mergeRef(mr.Iid), id, ""); err != nil {
		return "", nil, err
	}
	ref := string(id)
	return StatusCanBeMerged, &ref, nil
}

// checks gathers the facts of detailed_merge_status beyond merge_status.
func (s *Service) checks(ctx context.Context, mr *ent.MergeRequest, st branchState) (checks, error) {
	p := st.target
	c := checks{broken: st.broken(), discussionsResolved: true,
		ciMustPass: p.OnlyAllowMergeIfPipelineSucceeds} // no pipeline ever succeeds yet
	if !c.broken && ffRequired(p) {
		ok, err := st.targetRepo.IsAncestor(ctx, string(st.targetTip), string(st.sourceTip))
		if err != nil {
			return c, err
		}
		c.needRebase = !ok
	}
	client := db.ClientFrom(ctx, s.client)
	if p.OnlyAllowMergeIfAllDiscussionsAreResolved {
		unresolved, err := client.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest),
			note.NoteableID(mr.ID), note.Resolvable(true), note.ResolvedAtIsNil()).Exist(ctx)
		if err != nil {
			return c, err
		}
		c.discussionsResolved = !unresolved
	}
	blocked, err := client.MergeRequestBlock.Query().Where(mergerequestblock.BlockedMergeRequestID(mr.ID),
		mergerequestblock.HasBlockingWith(mergerequest.StateNEQ(mergerequest.StateMerged))).Exist(ctx)
	if err != nil {
		return c, err
	}
	c.blocked = blocked
	return c, nil
}

// ffRequired reports whether the project's merge method needs the source on top of the
// target (GitLab's ff_merge_must_be_possible?: rebase_merge and ff).
func ffRequired(p *ent.Project) bool { return p.MergeMethod == "rebase_merge" || p.MergeMethod == "ff" }

func ptrEq(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// DivergedCommitsCount is GitLab's diverged_commits_count: the commits of the target branch
// the source branch does not have (count_commits_between(source, target)), 0 when either
// branch is gone. mr must be loaded with its project and source project (Load).
func (s *Service) DivergedCommitsCount(ctx context.Context, mr *ent.MergeRequest) (int, error) {
	st, err := s.branchState(ctx, mr)
	if err != nil || st.broken() {
		return 0, err
	}
	if err := bringSource(ctx, st); err != nil {
		return 0, err
	}
	return st.targetRepo.CountCommits(ctx, git.LogOptions{Revisions: []string{"^" + string(st.sourceTip), string(st.targetTip)}})
}
