package issues

import (
	"context"
	"sort"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/issueassignee"
	"anvil/ent/issuelabel"
	"anvil/ent/milestone"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/nullable"
	"anvil/internal/service/iids"
	"anvil/internal/service/labels"
	"anvil/internal/service/resourceevents"
)

// CreateInput is POST /projects/:id/issues.
type CreateInput struct {
	Title        string
	Description  *string
	Confidential *bool
	IssueType    *string
	DueDate      *time.Time
	// AssigneeIDs (assignee_ids, assignee_id), MilestoneID and Labels are metadata: set only
	// by those who may triage issues (admin_issue), silently dropped for others as in GitLab.
	AssigneeIDs []int
	MilestoneID *int
	Labels      []string
	// LabelIDs (GraphQL's labelIds) adds labels by id; ids of labels not available are ignored.
	LabelIDs []int
	// CreatedAt back-dates the issue: administrators and project owners only.
	CreatedAt *time.Time
	// Weight is Premium's issue weight (0 or more).
	Weight *int
}

// UpdateInput is PUT /projects/:id/issues/:iid; nil fields are left alone.
type UpdateInput struct {
	Title            *string
	Description      *string
	Confidential     *bool
	IssueType        *string
	StateEvent       *string // close or reopen
	DueDate          *time.Time
	ClearDueDate     bool
	DiscussionLocked *bool
	AssigneeIDs      []int // nil: unchanged; empty: unassign
	MilestoneID      *int  // 0 clears
	Labels           []string
	AddLabels        []string
	RemoveLabels     []string
	// LabelIDs, AddLabelIDs and RemoveLabelIDs are the same by label id (GraphQL's labelIds,
	// addLabelIds, removeLabelIds).
	LabelIDs       []int
	AddLabelIDs    []int
	RemoveLabelIDs []int
	UpdatedAt      *time.Time
	Weight         nullable.Value[int] // null clears
	// ClosedVia names what closes the issue when it is not a direct edit (the merge request
	// whose merge closes it): its state event's source. Not an API parameter.
	ClosedVia resourceevents.Source
}

// Create creates an issue in project ref with the next iid, its metadata, resource events and
// activity in one transaction, and returns it loaded.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, ref string, in CreateInput) (*ent.Issue, error) {
	proj, level, readable, err := s.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if err := authz.Check(actor, proj, level, readable, authz.CreateIssue); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Title) == "" {
		return nil, apperr.FieldError("title", "can't be blank")
	}
	if err := validWeight(in.Weight); err != nil {
		return nil, err
	}
	triage := authz.CanProject(actor, proj, level, authz.AdminIssue)
	var id int
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		iid, err := iids.Next(ctx, s.client, iids.Issues, iids.Project(proj.ID), func(ctx context.Context, c *ent.Client) (int, error) {
			last, err := c.Issue.Query().Where(issue.ProjectID(proj.ID)).Order(ent.Desc(issue.FieldIid)).First(ctx)
			if ent.IsNotFound(err) {
				return 0, nil
			}
			if err != nil {
				return 0, err
			}
			return last.Iid, nil
		})
		if err != nil {
			return err
		}
		create := c.Issue.Create().SetProjectID(proj.ID).SetIid(iid).SetTitle(in.Title).
			SetNillableDescription(in.Description).SetNillableConfidential(in.Confidential).
			SetNillableDueDate(in.DueDate).SetNillableWeight(in.Weight).SetAuthorID(actor.UserID())
		if in.IssueType != nil {
			create.SetIssueType(issue.IssueType(*in.IssueType))
		}
		if in.CreatedAt != nil && authz.CanProject(actor, proj, level, authz.RemoveProject) {
			create.SetCreatedAt(*in.CreatedAt).SetUpdatedAt(*in.CreatedAt)
		}
		var ms *ent.Milestone
		if triage && in.MilestoneID != nil && *in.MilestoneID != 0 {
			if ms, err = s.availableMilestone(ctx, c, proj, *in.MilestoneID); err != nil {
				return err
			}
			if ms != nil {
				create.SetMilestoneID(ms.ID)
			}
		}
		is, err := create.Save(ctx)
		if err != nil {
			return err
		}
		id = is.ID
		rec := recorder{c: c, actor: actor, issue: is}
		if triage {
			if err := s.setAssignees(ctx, c, is, in.AssigneeIDs); err != nil {
				return err
			}
			ls, err := labels.Resolve(ctx, c, proj, in.Labels)
			if err != nil {
				return err
			}
			byID, err := labels.ByIDs(ctx, c, proj, in.LabelIDs)
			if err != nil {
				return err
			}
			if err := rec.labels(ctx, union(ls, byID), nil); err != nil {
				return err
			}
			if ms != nil {
				if err := rec.milestone(ctx, ms, nil); err != nil {
					return err
				}
			}
		}
		after, err := Load(c.Issue.Query().Where(issue.ID(is.ID))).Only(ctx)
		if err != nil {
			return err
		}
		return s.observer.IssueChanged(ctx, actor, Change{Action: "created", After: after})
	})
	if err != nil {
		return nil, err
	}
	return Load(s.client.Issue.Query().Where(issue.ID(id))).Only(ctx)
}

// validWeight refuses a negative weight as GitLab's issue validation does.
func validWeight(w *int) error {
	if w != nil && *w < 0 {
		return apperr.FieldError("weight", "must be greater than or equal to 0")
	}
	return nil
}

// availableMilestone returns the milestone id if it belongs to the project or one of its
// ancestor groups, else nil (GitLab ignores a milestone from elsewhere).
func (s *Service) availableMilestone(ctx context.Context, c *ent.Client, proj *ent.Project, id int) (*ent.Milestone, error) {
	groupIDs, err := labels.GroupChain(ctx, c, proj.Edges.Namespace.FullPath)
	if err != nil {
		return nil, err
	}
	ms, err := c.Milestone.Query().Where(milestone.ID(id),
		milestone.Or(milestone.ProjectID(proj.ID), milestone.GroupIDIn(groupIDs...))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return ms, err
}

// setAssignees replaces the issue's assignees with the users of ids that exist, each once, in
// the order given: with every tier on, an issue has several assignees (GitLab Premium's
// multiple_issue_assignees), and ids of no user are left out as GitLab does.
func (s *Service) setAssignees(ctx context.Context, c *ent.Client, is *ent.Issue, ids []int) error {
	if ids == nil {
		return nil
	}
	if _, err := c.IssueAssignee.Delete().Where(issueassignee.IssueID(is.ID)).Exec(ctx); err != nil {
		return err
	}
	seen := map[int]bool{}
	var wanted []int
	for _, uid := range ids {
		if uid > 0 && !seen[uid] {
			seen[uid] = true
			wanted = append(wanted, uid)
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	found, err := c.User.Query().Where(user.IDIn(wanted...)).IDs(ctx)
	if err != nil {
		return err
	}
	exists := map[int]bool{}
	for _, id := range found {
		exists[id] = true
	}
	for _, uid := range wanted {
		if !exists[uid] {
			continue
		}
		if err := c.IssueAssignee.Create().SetIssueID(is.ID).SetUserID(uid).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Update changes the issue iid of project ref. Authors and assignees may change their issue's
// content and state; metadata (labels, milestone, assignees, lock) needs admin_issue and is
// dropped silently otherwise, as in GitLab.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref, iidText string, in UpdateInput) (*ent.Issue, error) {
	is, level, err := s.Find(ctx, actor, ref, iidText)
	if err != nil {
		return nil, err
	}
	proj := is.Edges.Project
	if !canUpdate(actor, proj, level, is) {
		if actor.IsAnonymous() {
			return nil, apperr.Unauthorized()
		}
		return nil, apperr.Forbidden("")
	}
	if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
		return nil, apperr.FieldError("title", "can't be blank")
	}
	if err := validWeight(in.Weight.Ptr()); err != nil {
		return nil, err
	}
	triage := authz.CanProject(actor, proj, level, authz.AdminIssue)
	before := *is // the state observers compare with; is.State follows the write below
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		up := c.Issue.UpdateOneID(is.ID).SetNillableTitle(in.Title).SetNillableDescription(in.Description).
			SetNillableConfidential(in.Confidential)
		if in.IssueType != nil {
			up.SetIssueType(issue.IssueType(*in.IssueType))
		}
		if in.ClearDueDate {
			up.ClearDueDate()
		} else if in.DueDate != nil {
			up.SetDueDate(*in.DueDate)
		}
		if in.Weight.IsNull() {
			up.ClearWeight()
		} else if w, ok := in.Weight.Get(); ok {
			up.SetWeight(w)
		}
		if in.UpdatedAt != nil && authz.CanProject(actor, proj, level, authz.RemoveProject) {
			up.SetUpdatedAt(*in.UpdatedAt)
		}
		rec := recorder{c: c, actor: actor, issue: is}
		action := "updated"
		if in.StateEvent != nil {
			switch {
			case *in.StateEvent == "close" && is.State == issue.StateOpened:
				up.SetState(issue.StateClosed).SetClosedAt(time.Now().UTC().Truncate(time.Millisecond)).SetClosedByID(actor.UserID())
				action = "closed"
				is.State = issue.StateClosed
				if err := rec.state(ctx, "closed", in.ClosedVia); err != nil {
					return err
				}
			case *in.StateEvent == "reopen" && is.State == issue.StateClosed:
				up.SetState(issue.StateOpened).ClearClosedAt().ClearClosedByID()
				action = "reopened"
				is.State = issue.StateOpened
				if err := rec.state(ctx, "reopened", resourceevents.Source{}); err != nil {
					return err
				}
			}
		}
		if triage {
			if in.DiscussionLocked != nil {
				up.SetDiscussionLocked(*in.DiscussionLocked)
			}
			if err := s.updateMilestone(ctx, c, &rec, up, proj, is, in.MilestoneID); err != nil {
				return err
			}
			if err := s.updateLabels(ctx, c, &rec, proj, is, in); err != nil {
				return err
			}
			if err := s.setAssignees(ctx, c, is, in.AssigneeIDs); err != nil {
				return err
			}
		}
		if err := up.Exec(ctx); err != nil {
			return err
		}
		after, err := Load(c.Issue.Query().Where(issue.ID(is.ID))).Only(ctx)
		if err != nil {
			return err
		}
		return s.observer.IssueChanged(ctx, actor, Change{Action: action, Before: &before, After: after})
	})
	if err != nil {
		return nil, err
	}
	return Load(s.client.Issue.Query().Where(issue.ID(is.ID))).Only(ctx)
}

// canUpdate: update_issue (Reporter+), or the issue's author or an assignee who reads it.
func canUpdate(actor *authz.Actor, proj *ent.Project, level authz.Level, is *ent.Issue) bool {
	if authz.CanProject(actor, proj, level, authz.UpdateIssue) {
		return true
	}
	if actor.IsAnonymous() || proj.Archived || !authz.CanProject(actor, proj, level, authz.CreateIssue) {
		return false
	}
	if is.AuthorID != nil && *is.AuthorID == actor.UserID() {
		return true
	}
	for _, a := range is.Edges.AssigneeLinks {
		if a.UserID == actor.UserID() {
			return true
		}
	}
	return false
}

func (s *Service) updateMilestone(ctx context.Context, c *ent.Client, rec *recorder, up *ent.IssueUpdateOne, proj *ent.Project, is *ent.Issue, id *int) error {
	if id == nil {
		return nil
	}
	old := is.Edges.Milestone
	if *id == 0 {
		if old == nil {
			return nil
		}
		up.ClearMilestoneID()
		return rec.milestone(ctx, nil, old)
	}
	ms, err := s.availableMilestone(ctx, c, proj, *id)
	if err != nil || ms == nil || (old != nil && old.ID == ms.ID) {
		return err
	}
	up.SetMilestoneID(ms.ID)
	return rec.milestone(ctx, ms, old)
}

// updateLabels applies labels (a replacement), then add_labels and remove_labels.
func (s *Service) updateLabels(ctx context.Context, c *ent.Client, rec *recorder, proj *ent.Project, is *ent.Issue, in UpdateInput) error {
	if in.Labels == nil && in.AddLabels == nil && in.RemoveLabels == nil &&
		in.LabelIDs == nil && in.AddLabelIDs == nil && in.RemoveLabelIDs == nil {
		return nil
	}
	current := map[int]*ent.Label{}
	for _, l := range is.Edges.LabelLinks {
		current[l.LabelID] = l.Edges.Label
	}
	want := map[int]*ent.Label{}
	if in.Labels != nil || in.LabelIDs != nil {
		ls, err := labels.Resolve(ctx, c, proj, in.Labels)
		if err != nil {
			return err
		}
		byID, err := labels.ByIDs(ctx, c, proj, in.LabelIDs)
		if err != nil {
			return err
		}
		for _, l := range union(ls, byID) {
			want[l.ID] = l
		}
	} else {
		for id, l := range current {
			want[id] = l
		}
	}
	add, err := labels.Resolve(ctx, c, proj, in.AddLabels)
	if err != nil {
		return err
	}
	addByID, err := labels.ByIDs(ctx, c, proj, in.AddLabelIDs)
	if err != nil {
		return err
	}
	for _, l := range union(add, addByID) {
		want[l.ID] = l
	}
	for _, l := range current {
		for _, t := range in.RemoveLabels {
			if l.Title == t {
				delete(want, l.ID)
			}
		}
		for _, id := range in.RemoveLabelIDs {
			if l.ID == id {
				delete(want, l.ID)
			}
		}
	}
	var added, removed []*ent.Label
	for id, l := range want {
		if _, ok := current[id]; !ok {
			added = append(added, l)
		}
	}
	for id, l := range current {
		if _, ok := want[id]; !ok {
			removed = append(removed, l)
		}
	}
	// Maps hold the sets; the events are written in label order so that they list predictably.
	byID := func(ls []*ent.Label) { sort.Slice(ls, func(i, j int) bool { return ls[i].ID < ls[j].ID }) }
	byID(added)
	byID(removed)
	if len(removed) > 0 {
		ids := make([]int, len(removed))
		for i, l := range removed {
			ids[i] = l.ID
		}
		if _, err := c.IssueLabel.Delete().Where(issuelabel.IssueID(is.ID), issuelabel.LabelIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
	}
	return rec.labels(ctx, added, removed)
}

// Delete removes the issue (destroy_issue: Owners and administrators).
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref, iidText string) error {
	is, level, err := s.Find(ctx, actor, ref, iidText)
	if err != nil {
		return err
	}
	if !authz.CanProject(actor, is.Edges.Project, level, authz.DestroyIssue) {
		return apperr.Forbidden("")
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := s.observer.IssueChanged(ctx, actor, Change{Action: "destroyed", Before: is}); err != nil {
			return err
		}
		return c.Issue.DeleteOneID(is.ID).Exec(ctx)
	})
}

// union is a followed by the labels of b not in a.
func union(a, b []*ent.Label) []*ent.Label {
	seen := map[int]bool{}
	out := make([]*ent.Label, 0, len(a)+len(b))
	for _, l := range append(append([]*ent.Label{}, a...), b...) {
		if !seen[l.ID] {
			seen[l.ID] = true
			out = append(out, l)
		}
	}
	return out
}
