package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/note"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/subscriptions"
)

// Details are the facts the single read shows beside the merge request itself, for the actor.
type Details struct {
	// Subscribed is GitLab's subscribed?: the actor's explicit choice, else participation.
	Subscribed bool
	// CanMerge: the actor may merge into the target branch (GitLab's can_be_merged_by?).
	CanMerge bool
	// BuildsAvailable: the builds feature is available to the actor (latest_build_*,
	// pipeline); ReadPipeline: read_pipeline (head_pipeline).
	BuildsAvailable bool
	ReadPipeline    bool
	// FirstContribution: the author had no merged merge request in the project before.
	FirstContribution bool
}

// Details computes the single read's facts for a merge request Find returned (level is the
// actor's level in its project).
func (s *Service) Details(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest, level authz.Level) (Details, error) {
	proj := mr.Edges.Project
	d := Details{
		BuildsAvailable: authz.FeatureAvailable(actor, proj, level, authz.FeatureBuilds),
		ReadPipeline:    authz.CanProject(actor, proj, level, authz.ReadPipeline),
	}
	var err error
	if d.Subscribed, err = s.subscribed(ctx, actor, mr); err != nil {
		return d, err
	}
	if d.CanMerge, err = s.canMerge(ctx, actor, proj, level, mr); err != nil {
		return d, err
	}
	if d.FirstContribution, err = s.firstContribution(ctx, mr); err != nil {
		return d, err
	}
	return d, nil
}

// subscribed is the actor's explicit subscription, else whether the actor participates.
func (s *Service) subscribed(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest) (bool, error) {
	if actor.IsAnonymous() {
		return false, nil
	}
	c := db.ClientFrom(ctx, s.client)
	choice, err := subscriptions.Explicit(ctx, c, subscriptions.MergeRequest, mr.ID, actor.UserID())
	if err != nil || choice != nil {
		return choice != nil && *choice, err
	}
	ids, err := s.participantIDs(ctx, mr)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if id == actor.UserID() {
			return true, nil
		}
	}
	return false, nil
}

// canMerge is user.can_merge: the same can_be_merged_by? PUT .../merge applies (mayMerge).
func (s *Service) canMerge(ctx context.Context, actor *authz.Actor, proj *ent.Project, level authz.Level, mr *ent.MergeRequest) (bool, error) {
	return s.mayMerge(ctx, actor, proj, level, mr.TargetBranch)
}

// firstContribution is GitLab's first_contribution?: not merged yet, and the author has no
// merged merge request in the target project (members count as contributors too here).
func (s *Service) firstContribution(ctx context.Context, mr *ent.MergeRequest) (bool, error) {
	if mr.State == mergerequest.StateMerged || mr.AuthorID == nil {
		return false, nil
	}
	merged, err := db.ClientFrom(ctx, s.client).MergeRequest.Query().Where(mergerequest.ProjectID(mr.ProjectID),
		mergerequest.AuthorID(*mr.AuthorID), mergerequest.StateEQ(mergerequest.StateMerged)).Exist(ctx)
	return !merged, err
}

// participantIDs are GitLab's participants of a merge request, in order: its author,
// assignees, reviewers, then the authors of its comments in the order they wrote first.
func (s *Service) participantIDs(ctx context.Context, mr *ent.MergeRequest) ([]int, error) {
	seen := map[int]bool{}
	var ids []int
	add := func(id int) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if mr.AuthorID != nil {
		add(*mr.AuthorID)
	}
	for _, a := range mr.Edges.AssigneeLinks {
		add(a.UserID)
	}
	for _, r := range mr.Edges.ReviewerLinks {
		add(r.UserID)
	}
	notes, err := db.ClientFrom(ctx, s.client).Note.Query().
		Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.NoteableID(mr.ID), note.System(false),
			note.AuthorIDNotNil()).
		Order(ent.Asc(note.FieldID)).Select(note.FieldAuthorID).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		add(*n.AuthorID)
	}
	return ids, nil
}

// Participants returns the users taking part in the merge request iid of project ref
// (GET .../participants): its author, assignees, reviewers and commenters, active first-seen
// order.
func (s *Service) Participants(ctx context.Context, actor *authz.Actor, ref, iid string) ([]*ent.User, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	ids, err := s.participantIDs(ctx, mr)
	if err != nil || len(ids) == 0 {
		return []*ent.User{}, err
	}
	users, err := db.ClientFrom(ctx, s.client).User.Query().Where(user.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int]*ent.User{}
	for _, u := range users {
		byID[u.ID] = u
	}
	out := make([]*ent.User, 0, len(ids))
	for _, id := range ids {
		if u := byID[id]; u != nil {
			out = append(out, u)
		}
	}
	return out, nil
}

// Reviewers returns the review requests of the merge request iid of project ref (GET
// .../reviewers, GitLab's merge_request_reviewers): each with its user loaded, in the order
// they were asked.
func (s *Service) Reviewers(ctx context.Context, actor *authz.Actor, ref, iid string) ([]*ent.MergeRequestReviewer, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	out := make([]*ent.MergeRequestReviewer, 0, len(mr.Edges.ReviewerLinks))
	for _, r := range mr.Edges.ReviewerLinks {
		if r.Edges.User != nil {
			out = append(out, r)
		}
	}
	return out, nil
}
