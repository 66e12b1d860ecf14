package mergerequests

import (
	"context"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// UpdateInput is PUT /projects/:id/merge_requests/:merge_request_iid; nil fields are left alone.
type UpdateInput struct {
	Title        *string
	Description  *string
	TargetBranch *string
	StateEvent   *string // close or reopen
	// AssigneeIDs, ReviewerIDs (nil: unchanged; empty: none), MilestoneID (0 clears), the
	// labels and DiscussionLocked are metadata: set by those who admin merge requests,
	// silently dropped for others as in GitLab.
	AssigneeIDs      []int
	ReviewerIDs      []int
	MilestoneID      *int
	Labels           []string
	AddLabels        []string
	RemoveLabels     []string
	DiscussionLocked *bool
	// LabelIDs (replacing the labels), AddLabelIDs and RemoveLabelIDs are the labels by id
	// (GraphQL's labelIds); ids of labels not available to the project are ignored. Metadata.
	LabelIDs       []int
	AddLabelIDs    []int
	RemoveLabelIDs []int
	// Draft marks the merge request a draft (true: its title gets the "Draft: " prefix) or
	// ready (false: the prefix goes), as GitLab's wip_event; applied to Title when both are
	// given.
	Draft *bool
	// RemoveSourceBranch is remove_source_branch (force_remove_source_branch).
	RemoveSourceBranch *bool
	Squash             *bool
	AllowCollaboration *bool
}

// Update changes the merge request iid of project ref. Its author, assignees and those who
// update merge requests (Developer+) may change it; metadata needs admin_merge_request. A
// closed merge request reopens only when no other open one has its branches (409); a merged
// one neither closes nor reopens.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref, iid string, in UpdateInput) (*ent.MergeRequest, error) {
	mr, level, err := s.Find(ctx, actor, ref, iid, authz.UpdateMergeRequest)
	if err != nil {
		return nil, err
	}
	proj := mr.Edges.Project
	if in.Draft != nil {
		in.Title = draftTitle(mr.Title, in.Title, *in.Draft)
	}
	if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
		return nil, apperr.FieldError("title", "can't be blank")
	}
	if in.TargetBranch != nil && *in.TargetBranch != mr.TargetBranch {
		if err := s.checkTarget(ctx, mr, proj, *in.TargetBranch); err != nil {
			return nil, err
		}
	}
	meta := authz.CanProject(actor, proj, level, authz.AdminMergeRequest)
	before := *mr
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		up := c.MergeRequest.UpdateOneID(mr.ID).SetNillableDescription(in.Description).
			SetNillableForceRemoveSourceBranch(in.RemoveSourceBranch).SetNillableSquash(in.Squash).
			SetNillableAllowCollaboration(in.AllowCollaboration)
		if in.Title != nil {
			up.SetTitle(*in.Title).SetDraft(IsDraft(*in.Title))
		}
		if in.TargetBranch != nil && *in.TargetBranch != mr.TargetBranch {
			// A new target asks for a new mergeability check (and a new diff version, which the
			// diff observer records on "updated").
			up.SetTargetBranch(*in.TargetBranch).SetMergeStatus(StatusUnchecked)
		}
		action, err := s.stateChange(ctx, c, actor, up, mr, in)
		if err != nil {
			return err
		}
		if meta {
			if in.DiscussionLocked != nil {
				up.SetDiscussionLocked(*in.DiscussionLocked)
			}
			if err := s.updateMilestone(ctx, c, up, proj, mr, in.MilestoneID); err != nil {
				return err
			}
			if err := setAssignees(ctx, c, mr.ID, in.AssigneeIDs); err != nil {
				return err
			}
			if err := setReviewers(ctx, c, mr.ID, mr.Edges.ReviewerLinks, in.ReviewerIDs); err != nil {
				return err
			}
			lc := labelChange{set: in.Labels, given: in.Labels != nil, add: in.AddLabels, remove: in.RemoveLabels,
				setIDs: in.LabelIDs, idsGiven: in.LabelIDs != nil, addIDs: in.AddLabelIDs, removeIDs: in.RemoveLabelIDs}
			if err := s.setLabels(ctx, c, proj, mr.ID, mr.Edges.LabelLinks, lc); err != nil {
				return err
			}
		}
		if err := up.Exec(ctx); err != nil {
			return err
		}
		after, err := s.reload(ctx, mr.ID)
		if err != nil {
			return err
		}
		return s.observer.MergeRequestChanged(ctx, actor, Change{Action: action, Before: &before, After: after})
	})
	if err != nil {
		return nil, err
	}
	return s.reload(ctx, mr.ID)
}

// checkTarget validates a new target branch: another than the source in the same project
// (422), existing (400), and not shared with another open merge request of the same source
// (409).
func (s *Service) checkTarget(ctx context.Context, mr *ent.MergeRequest, proj *ent.Project, target string) error {
	if mr.SourceProjectID != nil && *mr.SourceProjectID == mr.ProjectID && mr.SourceBranch == target {
		return apperr.UnprocessableMessages([]string{msgSameBranch})
	}
	head, err := s.branchHead(ctx, proj, target)
	if err != nil {
		return err
	}
	if head == "" {
		return apperr.FieldError("target_branch", msgDoesNotExist)
	}
	if mr.State == mergerequest.StateOpened && mr.SourceProjectID != nil {
		return s.checkNoOtherOpen(ctx, db.ClientFrom(ctx, s.client), mr.ID, *mr.SourceProjectID, mr.SourceBranch, mr.ProjectID, target)
	}
	return nil
}

// stateChange applies state_event to up and returns the change's action: closed (an open merge
// request), reopened (a closed one, unless another open one has the same branches: 409), else
// updated.
func (s *Service) stateChange(ctx context.Context, c *ent.Client, actor *authz.Actor, up *ent.MergeRequestUpdateOne, mr *ent.MergeRequest, in UpdateInput) (string, error) {
	if in.StateEvent == nil {
		return ActionUpdated, nil
	}
	switch {
	case *in.StateEvent == "close" && mr.State == mergerequest.StateOpened:
		up.SetState(mergerequest.StateClosed).SetClosedAt(now()).SetClosedByID(actor.UserID())
		return ActionClosed, nil
	case *in.StateEvent == "reopen" && mr.State == mergerequest.StateClosed:
		target := mr.TargetBranch
		if in.TargetBranch != nil {
			target = *in.TargetBranch
		}
		if mr.SourceProjectID != nil {
			if err := s.checkNoOtherOpen(ctx, c, mr.ID, *mr.SourceProjectID, mr.SourceBranch, mr.ProjectID, target); err != nil {
				return "", err
			}
		}
		up.SetState(mergerequest.StateOpened).ClearClosedAt().ClearClosedByID().SetMergeStatus(StatusUnchecked)
		return ActionReopened, nil
	}
	return ActionUpdated, nil
}

// draftTitle is the title (the new one when given, else current) with the draft prefix added
// (draft) or removed; an unchanged title when it already is (or is not) a draft.
func draftTitle(current string, given *string, draft bool) *string {
	t := current
	if given != nil {
		t = *given
	}
	if IsDraft(t) == draft {
		return &t
	}
	if draft {
		t = "Draft: " + t
	} else {
		t = DraftlessTitle(t)
	}
	return &t
}

// now is the write time, at the database's millisecond precision.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// updateMilestone sets (or with 0 clears) the milestone; one not available is ignored.
func (s *Service) updateMilestone(ctx context.Context, c *ent.Client, up *ent.MergeRequestUpdateOne, proj *ent.Project, mr *ent.MergeRequest, id *int) error {
	if id == nil {
		return nil
	}
	if *id == 0 {
		up.ClearMilestoneID()
		return nil
	}
	ms, err := availableMilestone(ctx, c, proj, *id)
	if err != nil || ms == nil {
		return err
	}
	up.SetMilestoneID(ms.ID)
	return nil
}

// Delete removes the merge request (Owners and administrators, as GitLab's
// destroy_merge_request).
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref, iid string) error {
	mr, level, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return err
	}
	proj := mr.Edges.Project
	if !authz.CanProject(actor, proj, level, authz.AdminMergeRequest) || !authz.CanProject(actor, proj, level, authz.RemoveProject) {
		return apperr.Forbidden("")
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := s.observer.MergeRequestChanged(ctx, actor, Change{Action: ActionDestroyed, Before: mr}); err != nil {
			return err
		}
		if err := deleteSubscriptions(ctx, c, mr.ID); err != nil {
			return err
		}
		return c.MergeRequest.DeleteOneID(mr.ID).Exec(ctx)
	})
}
