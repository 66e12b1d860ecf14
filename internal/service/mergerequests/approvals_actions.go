package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestapproval"
	"anvil/ent/mergerequestreviewer"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
	"anvil/internal/service/users"
)

// ApprovalView is a merge request's approval state for one actor (GET .../approvals and the
// answers of approve and unapprove).
type ApprovalView struct {
	*ApprovalState
	// HasApproved: the actor approved; CanApprove: the actor may approve now.
	HasApproved bool
	CanApprove  bool
}

// ApproveInput is POST .../approve.
type ApproveInput struct {
	SHA      *string // must be the source branch head when given (409 otherwise)
	Password *string // approval_password, when the project requires it
}

// find returns the merge request readable by the actor and its approval state.
func (a *Approvals) find(ctx context.Context, actor *authz.Actor, ref, iid string) (*ent.MergeRequest, authz.Level, *ApprovalState, error) {
	mr, level, err := a.mrs.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, 0, nil, err
	}
	st, err := a.State(ctx, mr)
	if err != nil {
		return nil, 0, nil, err
	}
	return mr, level, st, nil
}

// View returns the approval state of a merge request for the actor (GET .../approvals).
func (a *Approvals) View(ctx context.Context, actor *authz.Actor, ref, iid string) (*ApprovalView, error) {
	mr, level, st, err := a.find(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	return a.view(actor, level, mr, st), nil
}

func (a *Approvals) view(actor *authz.Actor, level authz.Level, mr *ent.MergeRequest, st *ApprovalState) *ApprovalView {
	v := &ApprovalView{ApprovalState: st}
	if !actor.IsAnonymous() {
		v.HasApproved = st.ApprovedBy(actor.UserID())
		v.CanApprove = a.canApprove(actor, level, mr, st)
	}
	return v
}

// mayApprove is GitLab's approve_merge_request ability: Developer+ (update_merge_request), or
// an eligible approver of one of the rules who reads the merge request.
func (a *Approvals) mayApprove(actor *authz.Actor, level authz.Level, mr *ent.MergeRequest, st *ApprovalState) bool {
	if actor.IsAnonymous() {
		return false
	}
	if authz.CanProject(actor, mr.Edges.Project, level, authz.UpdateMergeRequest) {
		return true
	}
	for _, r := range st.Rules {
		if containsUser(r.Eligible, actor.UserID()) {
			return true
		}
	}
	return false
}

// canApprove is GitLab's eligible_for_approval_by?: the ability, not yet approved, the author
// only when authors may approve, and, while rules that name approvers still need approvals,
// only their eligible approvers (any_approver rules and approved rules admit anyone able).
func (a *Approvals) canApprove(actor *authz.Actor, level authz.Level, mr *ent.MergeRequest, st *ApprovalState) bool {
	if !a.mayApprove(actor, level, mr, st) || st.ApprovedBy(actor.UserID()) {
		return false
	}
	uid := actor.UserID()
	if mr.AuthorID != nil && *mr.AuthorID == uid && !st.Project.MergeRequestsAuthorApproval {
		return false
	}
	anyone := true
	for _, r := range st.Rules {
		if containsUser(r.Eligible, uid) && !r.Approved() {
			return true // an unactioned approver
		}
		if r.Rule.RuleType != "any_approver" && !r.Approved() {
			anyone = false
		}
	}
	return anyone
}

// Approve records the actor's approval (POST .../approve): 403 without the ability, 409 when
// sha is not the head, 401 when the password is wrong or the actor may not approve (already
// approved, the author). It writes the "approved this merge request" note, the "approved"
// event and the reviewer's approved state.
func (a *Approvals) Approve(ctx context.Context, actor *authz.Actor, ref, iid string, in ApproveInput) (*ApprovalView, error) {
	mr, level, st, err := a.find(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	if !a.mayApprove(actor, level, mr, st) {
		return nil, apperr.Forbidden("")
	}
	if in.SHA != nil {
		head := ""
		if mr.Sha != nil {
			head = *mr.Sha
		}
		if *in.SHA != head {
			return nil, apperr.Conflict("SHA does not match HEAD of source branch: " + head)
		}
	}
	if st.Project.RequirePasswordToApprove && (in.Password == nil || !users.CheckPassword(actor.User, *in.Password)) {
		return nil, apperr.Unauthorized()
	}
	if !a.canApprove(actor, level, mr, st) {
		return nil, apperr.Unauthorized()
	}
	err = db.WithTx(ctx, a.mrs.client, func(ctx context.Context, c *ent.Client) error {
		create := c.MergeRequestApproval.Create().SetMergeRequestID(mr.ID).SetUserID(actor.UserID())
		if d := LatestDiff(mr); d != nil {
			create.SetNillablePatchIDSha(d.PatchIDSha)
		}
		if err := create.Exec(ctx); err != nil {
			if ent.IsConstraintError(err) {
				return apperr.Unauthorized() // approved meanwhile
			}
			return err
		}
		if err := a.reviewerState(ctx, c, mr.ID, actor.UserID(), "approved"); err != nil {
			return err
		}
		pid := mr.ProjectID
		iid := mr.Iid
		if err := events.Record(ctx, a.mrs.client, events.Entry{Action: event.ActionApproved, AuthorID: actor.UserID(),
			ProjectID: &pid, Target: &events.Target{Type: events.TargetMergeRequest, ID: mr.ID, IID: &iid, Title: mr.Title}}); err != nil {
			return err
		}
		for _, f := range a.approved {
			if err := f(ctx, actor, mr); err != nil {
				return err
			}
		}
		return a.notes.MergeRequestSystemNote(ctx, actor, level, mr, "approved this merge request")
	})
	if err != nil {
		return nil, err
	}
	return a.View(ctx, actor, ref, iid)
}

// Unapprove withdraws the actor's approval (POST .../unapprove): 403 without the ability, 404
// when the actor had not approved.
func (a *Approvals) Unapprove(ctx context.Context, actor *authz.Actor, ref, iid string) (*ApprovalView, error) {
	mr, level, st, err := a.find(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	if !a.mayApprove(actor, level, mr, st) && !st.ApprovedBy(actor.UserID()) {
		return nil, apperr.Forbidden("")
	}
	err = db.WithTx(ctx, a.mrs.client, func(ctx context.Context, c *ent.Client) error {
		n, err := c.MergeRequestApproval.Delete().Where(mergerequestapproval.MergeRequestID(mr.ID),
			mergerequestapproval.UserID(actor.UserID())).Exec(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.RecordNotFound()
		}
		if err := a.reviewerState(ctx, c, mr.ID, actor.UserID(), "unapproved"); err != nil {
			return err
		}
		return a.notes.MergeRequestSystemNote(ctx, actor, level, mr, "unapproved this merge request")
	})
	if err != nil {
		return nil, err
	}
	return a.View(ctx, actor, ref, iid)
}

// reviewerState sets the approver's reviewer state when they are a reviewer.
func (a *Approvals) reviewerState(ctx context.Context, c *ent.Client, mrID, userID int, state string) error {
	return c.MergeRequestReviewer.Update().Where(mergerequestreviewer.MergeRequestID(mrID),
		mergerequestreviewer.UserID(userID)).SetState(state).Exec(ctx)
}

// ResetApprovals removes every approval (PUT .../reset_approvals): bot users of project or
// group access tokens and administrators only, never on a merged merge request (401).
func (a *Approvals) ResetApprovals(ctx context.Context, actor *authz.Actor, ref, iid string) error {
	mr, _, err := a.mrs.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return err
	}
	bot := !actor.IsAnonymous() && (actor.User.UserType == "project_bot" || actor.User.UserType == "group_bot")
	if (!bot && !actor.IsAdmin()) || mr.State == mergerequest.StateMerged {
		return apperr.Unauthorized()
	}
	_, err = db.ClientFrom(ctx, a.mrs.client).MergeRequestApproval.Delete().
		Where(mergerequestapproval.MergeRequestID(mr.ID)).Exec(ctx)
	return err
}

// ResetOnPush is the diff versions' observer that resets approvals when a push adds a version
// and the project has reset_approvals_on_push (GitLab's ResetApprovalsService): the approvals
// given to another patch (or to none recorded) are removed, the approvers' reviewer state goes
// back to unapproved, and the pusher writes "reset approvals from @a and @b by pushing to the
// branch". Approvals of a rebase that keeps the patch (same patch id) stay.
func (a *Approvals) ResetOnPush(ctx context.Context, mr *ent.MergeRequest, authorID *int, previous, current *ent.MergeRequestDiff) error {
	if previous.HeadCommitSha != nil && current.HeadCommitSha != nil && *previous.HeadCommitSha == *current.HeadCommitSha {
		return nil // only the target branch moved
	}
	c := db.ClientFrom(ctx, a.mrs.client)
	proj, err := c.Project.Get(ctx, mr.ProjectID)
	if err != nil {
		return err
	}
	if !proj.ResetApprovalsOnPush {
		return nil
	}
	q := c.MergeRequestApproval.Query().Where(mergerequestapproval.MergeRequestID(mr.ID))
	if current.PatchIDSha != nil {
		q.Where(mergerequestapproval.Or(mergerequestapproval.PatchIDShaIsNil(),
			mergerequestapproval.PatchIDShaNEQ(*current.PatchIDSha)))
	}
	stale, err := q.WithUser().Order(mergerequestapproval.ByCreatedAt(), mergerequestapproval.ByID()).All(ctx)
	if err != nil || len(stale) == 0 {
		return err
	}
	ids := make([]int, 0, len(stale))
	refs := make([]string, 0, len(stale))
	for _, ap := range stale {
		ids = append(ids, ap.ID)
		if err := a.reviewerState(ctx, c, mr.ID, ap.UserID, "unapproved"); err != nil {
			return err
		}
		if ap.Edges.User != nil {
			refs = append(refs, "@"+ap.Edges.User.Username)
		}
	}
	if _, err := c.MergeRequestApproval.Delete().Where(mergerequestapproval.IDIn(ids...)).Exec(ctx); err != nil {
		return err
	}
	if len(refs) == 0 {
		return nil
	}
	return a.notes.MergeRequestSystemNoteBy(ctx, authorID, mr, "reset approvals from "+sentence(refs)+" by pushing to the branch")
}
