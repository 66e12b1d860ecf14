package webhooks

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"
)

// MergeRequestHooks is the merge request observer that fires merge request hooks
// (mergerequests.Observer): opened, updated, closed, reopened, merged, approved and unapproved
// merge requests reach the hooks subscribed to merge request events of the target project,
// its groups, and the system hooks that set the flag.
type MergeRequestHooks struct{ s *Service }

// MergeRequestObserver returns the observer to add to the merge request service's observers.
func (s *Service) MergeRequestObserver() MergeRequestHooks { return MergeRequestHooks{s: s} }

// mrActions are GitLab's object_attributes.action of each change.
var mrActions = map[string]string{
	mergerequests.ActionCreated: "open", mergerequests.ActionUpdated: "update",
	mergerequests.ActionClosed: "close", mergerequests.ActionReopened: "reopen",
	mergerequests.ActionMerged: "merge", "approved": "approved", "unapproved": "unapproved",
	"approval": "approval", "unapproval": "unapproval",
}

// MergeRequestChanged queues the merge request hook deliveries of ch in its transaction.
func (o MergeRequestHooks) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch mergerequests.Change) error {
	action := mrActions[ch.Action]
	if ch.After == nil || action == "" || actor.IsAnonymous() {
		return nil
	}
	mr := ch.After
	p, err := o.s.mrProject(ctx, mr)
	if err != nil {
		return err
	}
	hooks, err := o.s.Receivers(ctx, Target{Project: p}, MergeRequestEvent)
	if err != nil || len(hooks) == 0 {
		return err
	}
	out, err := o.s.mrPayload(ctx, actor, p, ch, action)
	if err != nil {
		return err
	}
	return o.s.Trigger(ctx, Target{Project: p}, MergeRequestEvent, out)
}

// mrPayload is the merge request hook payload of ch (GitLab's MergeRequest#to_hook_data) with
// object_attributes.action set to action.
func (s *Service) mrPayload(ctx context.Context, actor *authz.Actor, p *ent.Project, ch mergerequests.Change, action string) (map[string]any, error) {
	mr := ch.After
	pd := s.projectData(p)
	labels := mrLabels(mr)
	attrs, err := s.mrHookAttrs(ctx, mr, p, pd, labels)
	if err != nil {
		return nil, err
	}
	attrs["action"] = action
	if action == "update" {
		attrs["updated_by_id"] = actor.UserID()
	}
	out := map[string]any{
		"object_kind": "merge_request", "event_type": "merge_request", "user": userData(actor.User),
		"project": pd, "repository": shortRepository(pd), "object_attributes": attrs, "labels": labels,
		"changes": mrChanges(ch, actor),
	}
	// assignees and reviewers are there when there are some (GitLab's Issuable data builder).
	if a := mrUsers(mr.Edges.AssigneeLinks); len(a) > 0 {
		out["assignees"] = a
	}
	if r := mrReviewers(mr); len(r) > 0 {
		out["reviewers"] = r
	}
	return out, nil
}

// mrProject is the merge request's target project with its namespace.
func (s *Service) mrProject(ctx context.Context, mr *ent.MergeRequest) (*ent.Project, error) {
	if p := mr.Edges.Project; p != nil && p.Edges.Namespace != nil {
		return p, nil
	}
	return db.ClientFrom(ctx, s.Client).Project.Query().Where(project.ID(mr.ProjectID)).WithNamespace().Only(ctx)
}

// mrHookAttrs is the merge request object of hook payloads (GitLab's MergeRequest#hook_attrs):
// the merge request payload's object_attributes and the merge_request of note payloads.
func (s *Service) mrHookAttrs(ctx context.Context, mr *ent.MergeRequest, p *ent.Project, pd ProjectData, labels []LabelData) (map[string]any, error) {
	assigneeIDs := []int{}
	for _, a := range mr.Edges.AssigneeLinks {
		assigneeIDs = append(assigneeIDs, a.UserID)
	}
	reviewerIDs := []int{}
	for _, r := range mr.Edges.ReviewerLinks {
		reviewerIDs = append(reviewerIDs, r.UserID)
	}
	var assigneeID any
	if len(assigneeIDs) > 0 {
		assigneeID = assigneeIDs[0]
	}
	source := pd
	if sp := mr.Edges.SourceProject; sp != nil && sp.ID != p.ID && sp.Edges.Namespace != nil {
		source = s.projectData(sp)
	}
	first, err := s.firstContribution(ctx, mr)
	if err != nil {
		return nil, err
	}
	var preparedAt any
	if mr.PreparedAt != nil {
		preparedAt = hookTime(*mr.PreparedAt)
	}
	return map[string]any{
		"id": mr.ID, "iid": mr.Iid, "target_branch": mr.TargetBranch, "source_branch": mr.SourceBranch,
		"source_project_id": mr.SourceProjectID, "author_id": mr.AuthorID, "assignee_ids": assigneeIDs,
		"assignee_id": assigneeID, "reviewer_ids": reviewerIDs, "title": mr.Title,
		"created_at": hookTime(mr.CreatedAt), "updated_at": hookTime(mr.UpdatedAt), "last_edited_at": nil,
		"last_edited_by_id": nil, "milestone_id": mr.MilestoneID, "state_id": mrStateID(mr.State),
		"state": string(mr.State), "blocking_discussions_resolved": true, "work_in_progress": mr.Draft,
		"draft": mr.Draft, "first_contribution": first, "merge_status": mergerequests.PublicMergeStatus(mr),
		"target_project_id": mr.ProjectID, "description": mr.Description, "prepared_at": preparedAt,
		"head_pipeline_id": nil, "merge_commit_sha": mr.MergeCommitSha, "merge_error": mr.MergeError,
		"merge_params":  map[string]any{"force_remove_source_branch": mr.ForceRemoveSourceBranch},
		"merge_user_id": mr.MergeUserID, "merge_when_pipeline_succeeds": mr.MergeWhenPipelineSucceeds,
		"updated_by_id": nil, "time_estimate": mr.TimeEstimate, "total_time_spent": mr.TotalTimeSpent,
		"time_change": 0, "human_total_time_spent": humanDuration(mr.TotalTimeSpent),
		"human_time_change": nil, "human_time_estimate": humanDuration(mr.TimeEstimate),
		"url": pd.WebURL + "/-/merge_requests/" + strconv.Itoa(mr.Iid), "source": source, "target": pd,
		"last_commit": s.lastCommit(ctx, mr, p, source), "labels": labels,
		"detailed_merge_status": mergerequests.DetailedMergeStatus(mr),
	}, nil
}

// firstContribution is GitLab's first_contribution: not merged yet, and the author has no
// merged merge request in the target project.
func (s *Service) firstContribution(ctx context.Context, mr *ent.MergeRequest) (bool, error) {
	if mr.State == mergerequest.StateMerged || mr.AuthorID == nil {
		return false, nil
	}
	merged, err := db.ClientFrom(ctx, s.Client).MergeRequest.Query().Where(mergerequest.ProjectID(mr.ProjectID),
		mergerequest.AuthorID(*mr.AuthorID), mergerequest.StateEQ(mergerequest.StateMerged)).Exist(ctx)
	return !merged, err
}

// lastCommit is the head commit of the merge request's latest diff version, read from the
// source repository (nil before the first version, or when the commit cannot be read).
func (s *Service) lastCommit(ctx context.Context, mr *ent.MergeRequest, p *ent.Project, source ProjectData) any {
	d := mergerequests.LatestDiff(mr)
	sha := ""
	switch {
	case d != nil && d.HeadCommitSha != nil:
		sha = *d.HeadCommitSha
	case mr.Sha != nil:
		sha = *mr.Sha
	}
	if sha == "" || s.repos == nil {
		return nil
	}
	repoProject := p
	if sp := mr.Edges.SourceProject; sp != nil {
		repoProject = sp
	}
	repo, err := s.repos.Repository(repoProject)
	if err != nil {
		return nil
	}
	c, err := repo.ReadCommit(ctx, sha)
	if err != nil || c == nil {
		return nil
	}
	return map[string]any{
		"id": string(c.ID), "message": c.Message, "title": c.Subject(), "timestamp": timestamp(c.Author.When),
		"url":    source.WebURL + "/-/commit/" + string(c.ID),
		"author": CommitAuthor{Name: c.Author.Name, Email: c.Author.Email},
	}
}

// mrStateID is GitLab's numeric merge request state.
func mrStateID(s mergerequest.State) int {
	return map[mergerequest.State]int{mergerequest.StateOpened: 1, mergerequest.StateClosed: 2,
		mergerequest.StateMerged: 3, mergerequest.StateLocked: 4}[s]
}

// mrLabels are the merge request's labels in payload form.
func mrLabels(mr *ent.MergeRequest) []LabelData {
	out := []LabelData{}
	for _, l := range mr.Edges.LabelLinks {
		if l.Edges.Label != nil {
			out = append(out, labelData(l.Edges.Label))
		}
	}
	return out
}

// mrUsers are the assignees in payload form.
func mrUsers(links []*ent.MergeRequestAssignee) []UserData {
	out := []UserData{}
	for _, l := range links {
		if l.Edges.User != nil {
			out = append(out, userData(l.Edges.User))
		}
	}
	return out
}

// mrReviewers are the reviewers in payload form.
func mrReviewers(mr *ent.MergeRequest) []UserData {
	out := []UserData{}
	for _, l := range mr.Edges.ReviewerLinks {
		if l.Edges.User != nil {
			out = append(out, userData(l.Edges.User))
		}
	}
	return out
}

// mrChanges are the attributes an update changed, as {previous, current} (GitLab's changes).
func mrChanges(ch mergerequests.Change, actor *authz.Actor) map[string]any {
	out := map[string]any{}
	if ch.Before == nil || ch.After == nil {
		return out
	}
	b, a := ch.Before, ch.After
	pair := func(name string, prev, cur any) { out[name] = map[string]any{"previous": prev, "current": cur} }
	if b.Title != a.Title {
		pair("title", b.Title, a.Title)
	}
	if str(b.Description) != str(a.Description) {
		pair("description", b.Description, a.Description)
	}
	if b.Draft != a.Draft {
		pair("draft", b.Draft, a.Draft)
	}
	if b.State != a.State {
		pair("state_id", mrStateID(b.State), mrStateID(a.State))
	}
	if b.TargetBranch != a.TargetBranch {
		pair("target_branch", b.TargetBranch, a.TargetBranch)
	}
	if intOr(b.MilestoneID) != intOr(a.MilestoneID) {
		pair("milestone_id", b.MilestoneID, a.MilestoneID)
	}
	if bl, al := mrLabels(b), mrLabels(a); !sameLabels(bl, al) {
		pair("labels", bl, al)
	}
	if ba, aa := mrUsers(b.Edges.AssigneeLinks), mrUsers(a.Edges.AssigneeLinks); !sameUsers(ba, aa) {
		pair("assignees", ba, aa)
	}
	if br, ar := mrReviewers(b), mrReviewers(a); !sameUsers(br, ar) {
		pair("reviewers", br, ar)
	}
	if len(out) > 0 {
		pair("updated_at", hookTime(b.UpdatedAt), hookTime(a.UpdatedAt))
		if ch.Action == mergerequests.ActionUpdated {
			pair("updated_by_id", nil, actor.UserID())
		}
	}
	return out
}

func sameUsers(a, b []UserData) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}
