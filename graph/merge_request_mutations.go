package graph

import (
	"context"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/timetracking"
	"anvil/internal/service/users"
)

// Merge request mutations on an existing merge request (projectPath and iid): their inputs
// mapped onto mergerequests.UpdateInput, MergeInput and the time tracking service, the same
// operations REST's PUT .../merge_requests/:iid, .../merge and .../rebase call. As in GitLab, a
// merge request that is missing, invisible or not changeable by the caller is the top-level
// resource access error; a refused change is the payload's errors, beside the merge request as
// it now is.

// GitLab's messages for a merge mergeRequestAccept refuses, and for a time estimate it
// cannot read.
const (
	msgAcceptNotMergeable = "This branch cannot be merged"
	msgAcceptSHAMismatch  = "The merge-head is not at the anticipated SHA"
	msgSourceMissing      = "Source branch does not exist"
	msgEstimateFormat     = "timeEstimate must be formatted correctly, for example `1h 30m`"
	msgEstimateNegative   = "timeEstimate must be greater than or equal to zero. Remember that every new timeEstimate overwrites the previous value."
)

// mergeRequestPayload is the payload side of a mutation on the merge request iid of project
// path: a refused change's messages beside the merge request as project.mergeRequest(iid:)
// now shows it; anything else (missing, invisible, forbidden, internal) stays an error.
func (r *Resolver) mergeRequestPayload(ctx context.Context, path, iid string, err error) (*ent.MergeRequest, []string, error) {
	msgs, err := payloadErrors(err)
	if err != nil {
		return nil, nil, err
	}
	mr, _, err := r.svc.MergeRequests.Find(ctx, actor(ctx), path, iid, authz.ReadMergeRequest)
	mr, err = orNull(mr, err)
	return mr, msgs, err
}

// updateMergeRequest applies in to the merge request through the merge request service.
func (r *Resolver) updateMergeRequest(ctx context.Context, path, iid string, in mergerequests.UpdateInput) error {
	_, err := r.svc.MergeRequests.Update(ctx, actor(ctx), path, iid, in)
	return err
}

// mergeRequestUpdate is mergeRequestUpdate: title, description, target branch and state
// through the update, then the time estimate (null or "0" removes it) through time tracking.
func (r *Resolver) mergeRequestUpdate(ctx context.Context, input model.MergeRequestUpdateInput) (*ent.MergeRequest, []string, error) {
	estimate, estimateSet := input.TimeEstimate.ValueOK()
	if estimateSet && estimate != nil {
		secs, ok := timetracking.Parse(*estimate, true)
		if !ok {
			return nil, nil, badInput(msgEstimateFormat)
		}
		if secs < 0 {
			return nil, nil, badInput(msgEstimateNegative)
		}
	}
	in := mergerequests.UpdateInput{Title: input.Title, Description: input.Description, TargetBranch: input.TargetBranch}
	if input.State != nil {
		ev := "reopen"
		if *input.State == model.MergeRequestNewStateClosed {
			ev = "close"
		}
		in.StateEvent = &ev
	}
	var err error
	if in.Title != nil || in.Description != nil || in.TargetBranch != nil || in.StateEvent != nil {
		err = r.updateMergeRequest(ctx, input.ProjectPath, input.Iid, in)
	} else {
		// Nothing to update still needs the right to update it.
		_, _, err = r.svc.MergeRequests.Find(ctx, actor(ctx), input.ProjectPath, input.Iid, authz.UpdateMergeRequest)
	}
	if err == nil && estimateSet {
		ref := timetracking.Ref{Type: timetracking.TypeMergeRequest, Project: input.ProjectPath, IID: input.Iid}
		if estimate == nil {
			_, err = r.svc.TimeTracking.ResetEstimate(ctx, actor(ctx), ref)
		} else {
			_, err = r.svc.TimeTracking.SetEstimate(ctx, actor(ctx), ref, *estimate)
		}
	}
	return r.mergeRequestPayload(ctx, input.ProjectPath, input.Iid, err)
}

// setMergeRequestUsers is mergeRequestSetAssignees and mergeRequestSetReviewers: the named
// users (unknown usernames are ignored) replace the current ones, or are appended to or
// removed from them, then set through the update (ids).
func (r *Resolver) setMergeRequestUsers(ctx context.Context, path, iid string, usernames []string, mode *model.MutationOperationMode, reviewers bool) (*ent.MergeRequest, []string, error) {
	mr, _, err := r.svc.MergeRequests.Find(ctx, actor(ctx), path, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, nil, err
	}
	named := []int{}
	if len(usernames) > 0 {
		q, err := r.svc.Users.Query(ctx, actor(ctx), users.ListParams{Usernames: usernames})
		if err != nil {
			return nil, nil, err
		}
		if named, err = q.IDs(ctx); err != nil {
			return nil, nil, err
		}
	}
	var in mergerequests.UpdateInput
	if reviewers {
		in.ReviewerIDs = applyMode(userIDs(mergeRequestReviewers(mr)), named, mode)
	} else {
		in.AssigneeIDs = applyMode(userIDs(mergeRequestAssignees(mr)), named, mode)
	}
	err = r.updateMergeRequest(ctx, path, iid, in)
	return r.mergeRequestPayload(ctx, path, iid, err)
}

// setMergeRequestLabels is mergeRequestSetLabels: the labels by id replace the current ones,
// or are added or removed (labels not available to the project are ignored).
func (r *Resolver) setMergeRequestLabels(ctx context.Context, input model.MergeRequestSetLabelsInput) (*ent.MergeRequest, []string, error) {
	ids, err := parseModelIDs(input.LabelIds, labelModels...)
	if err != nil {
		return nil, nil, err
	}
	var in mergerequests.UpdateInput
	switch {
	case input.OperationMode != nil && *input.OperationMode == model.MutationOperationModeAppend:
		in.AddLabelIDs = ids
	case input.OperationMode != nil && *input.OperationMode == model.MutationOperationModeRemove:
		in.RemoveLabelIDs = ids
	default:
		in.LabelIDs = ids
	}
	err = r.updateMergeRequest(ctx, input.ProjectPath, input.Iid, in)
	return r.mergeRequestPayload(ctx, input.ProjectPath, input.Iid, err)
}

// setMergeRequestMilestone is mergeRequestSetMilestone: null removes the milestone.
func (r *Resolver) setMergeRequestMilestone(ctx context.Context, input model.MergeRequestSetMilestoneInput) (*ent.MergeRequest, []string, error) {
	id := 0
	if input.MilestoneID != nil {
		var err error
		if id, err = parseModelID(*input.MilestoneID, gidMilestone); err != nil {
			return nil, nil, err
		}
	}
	err := r.updateMergeRequest(ctx, input.ProjectPath, input.Iid, mergerequests.UpdateInput{MilestoneID: &id})
	return r.mergeRequestPayload(ctx, input.ProjectPath, input.Iid, err)
}

// acceptMergeRequest is mergeRequestAccept: the merge REST's PUT .../merge performs (a
// strategy asks for auto-merge). The merge happens before the answer, so the payload shows the
// merge request merged. GitLab's mutation words the refusals its own way: an unmergeable
// merge request and a stale sha are payload errors.
func (r *Resolver) acceptMergeRequest(ctx context.Context, input model.MergeRequestAcceptInput) (*ent.MergeRequest, []string, error) {
	in := mergerequests.MergeInput{MergeCommitMessage: input.CommitMessage, SquashCommitMessage: input.SquashCommitMessage,
		Squash: input.Squash, ShouldRemoveSourceBranch: input.ShouldRemoveSourceBranch, SHA: &input.Sha}
	if input.Strategy != nil {
		auto := true
		in.AutoMerge = &auto
	}
	_, _, err := r.svc.MergeRequests.Merge(ctx, actor(ctx), input.ProjectPath, input.Iid, in)
	if e, ok := apperr.As(err); ok {
		switch e.Kind {
		case apperr.KindNotAllowed, apperr.KindUnprocessable:
			err = apperr.UnprocessableMessages([]string{msgAcceptNotMergeable})
		case apperr.KindConflict:
			err = apperr.UnprocessableMessages([]string{msgAcceptSHAMismatch})
		case apperr.KindUnauthorized:
			err = apperr.Forbidden("") // the caller may not merge: the resource access error
		}
	}
	return r.mergeRequestPayload(ctx, input.ProjectPath, input.Iid, err)
}

// applyMode is the ids an operation mode leaves: named (REPLACE, the default), current then
// the named not among them (APPEND), or current without the named (REMOVE).
func applyMode(current, named []int, mode *model.MutationOperationMode) []int {
	if mode == nil || *mode == model.MutationOperationModeReplace {
		return named
	}
	in := map[int]bool{}
	for _, id := range named {
		in[id] = true
	}
	out := []int{}
	for _, id := range current {
		if *mode == model.MutationOperationModeAppend || !in[id] {
			out = append(out, id)
		}
		delete(in, id)
	}
	if *mode == model.MutationOperationModeAppend {
		for _, id := range named {
			if in[id] {
				out = append(out, id)
				delete(in, id)
			}
		}
	}
	return out
}

// userIDs are the users' ids, in order.
func userIDs(us []*ent.User) []int {
	out := make([]int, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

// rebaseMergeRequest is mergeRequestRebase: the rebase REST's PUT .../rebase performs, done
// before the answer. A missing source branch is a payload error; a caller who may not push to
// it gets the resource access error, as for the other mutations.
func (r *Resolver) rebaseMergeRequest(ctx context.Context, input model.MergeRequestRebaseInput) (*ent.MergeRequest, []string, error) {
	err := r.svc.MergeRequests.Rebase(ctx, actor(ctx), input.ProjectPath, input.Iid, flag(input.SkipCi))
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindForbidden {
		if e.Text() == msgSourceMissing {
			err = apperr.UnprocessableMessages([]string{msgSourceMissing})
		} else {
			err = apperr.Forbidden("")
		}
	}
	return r.mergeRequestPayload(ctx, input.ProjectPath, input.Iid, err)
}

// Anvil's words for the approval refusals REST answers with a bare 401 or 404 (GitLab's
// GraphQL API has no approval mutations to copy them from).
const (
	msgCannotApprove = "You cannot approve this merge request"
	msgNotApproved   = "You have not approved this merge request"
)

// approveMergeRequest is mergeRequestApprove: the approval REST's POST .../approve records.
// A caller without the ability is the resource access error, as for the other mutations; a
// stale sha (REST's 409) and an approval the caller may not give now (already given, the
// author's, a password the project requires: REST's 401) are the payload's errors.
func (r *Resolver) approveMergeRequest(ctx context.Context, input model.MergeRequestApproveInput) (*ent.MergeRequest, []string, error) {
	_, err := r.svc.Approvals.Approve(ctx, actor(ctx), input.ProjectPath, input.Iid, mergerequests.ApproveInput{SHA: input.Sha})
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindUnauthorized && !actor(ctx).IsAnonymous() {
		err = apperr.UnprocessableMessages([]string{msgCannotApprove})
	}
	return r.mergeRequestPayload(ctx, input.ProjectPath, input.Iid, err)
}

// unapproveMergeRequest is mergeRequestUnapprove: the withdrawal REST's POST .../unapprove
// makes; not having approved (REST's 404) is the payload's error.
func (r *Resolver) unapproveMergeRequest(ctx context.Context, input model.MergeRequestUnapproveInput) (*ent.MergeRequest, []string, error) {
	_, err := r.svc.Approvals.Unapprove(ctx, actor(ctx), input.ProjectPath, input.Iid)
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindNotFound && e.Record {
		err = apperr.UnprocessableMessages([]string{msgNotApproved})
	}
	return r.mergeRequestPayload(ctx, input.ProjectPath, input.Iid, err)
}
