package mergerequests

import (
	"context"
	"sort"

	"anvil/ent"
	"anvil/ent/mergerequestassignee"
	"anvil/ent/mergerequestlabel"
	"anvil/ent/mergerequestreviewer"
	"anvil/ent/milestone"
	"anvil/ent/user"
	"anvil/internal/service/labels"
)

// availableMilestone returns milestone id if it belongs to the project or one of its ancestor
// groups, else nil (GitLab ignores a milestone from elsewhere).
func availableMilestone(ctx context.Context, c *ent.Client, proj *ent.Project, id int) (*ent.Milestone, error) {
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

// existingUsers returns the ids of ids naming users, each once, in the order given (ids of
// no user are left out, as GitLab does).
func existingUsers(ctx context.Context, c *ent.Client, ids []int) ([]int, error) {
	seen := map[int]bool{}
	var wanted []int
	for _, uid := range ids {
		if uid > 0 && !seen[uid] {
			seen[uid] = true
			wanted = append(wanted, uid)
		}
	}
	if len(wanted) == 0 {
		return nil, nil
	}
	found, err := c.User.Query().Where(user.IDIn(wanted...)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	exists := map[int]bool{}
	for _, id := range found {
		exists[id] = true
	}
	out := wanted[:0]
	for _, id := range wanted {
		if exists[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// setAssignees replaces the merge request's assignees with ids (nil: unchanged).
func setAssignees(ctx context.Context, c *ent.Client, mrID int, ids []int) error {
	if ids == nil {
		return nil
	}
	if _, err := c.MergeRequestAssignee.Delete().Where(mergerequestassignee.MergeRequestID(mrID)).Exec(ctx); err != nil {
		return err
	}
	users, err := existingUsers(ctx, c, ids)
	if err != nil {
		return err
	}
	for _, uid := range users {
		if err := c.MergeRequestAssignee.Create().SetMergeRequestID(mrID).SetUserID(uid).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// setReviewers replaces the merge request's reviewers with ids (nil: unchanged), keeping the
// review state of those who stay.
func setReviewers(ctx context.Context, c *ent.Client, mrID int, current []*ent.MergeRequestReviewer, ids []int) error {
	if ids == nil {
		return nil
	}
	users, err := existingUsers(ctx, c, ids)
	if err != nil {
		return err
	}
	keep := map[int]bool{}
	for _, id := range users {
		keep[id] = true
	}
	had := map[int]bool{}
	var gone []int
	for _, r := range current {
		had[r.UserID] = true
		if !keep[r.UserID] {
			gone = append(gone, r.UserID)
		}
	}
	if len(gone) > 0 {
		if _, err := c.MergeRequestReviewer.Delete().Where(mergerequestreviewer.MergeRequestID(mrID),
			mergerequestreviewer.UserIDIn(gone...)).Exec(ctx); err != nil {
			return err
		}
	}
	for _, uid := range users {
		if had[uid] {
			continue
		}
		if err := c.MergeRequestReviewer.Create().SetMergeRequestID(mrID).SetUserID(uid).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// labelChange is what a write does to the labels: set replaces them (when given), then add
// and remove.
type labelChange struct {
	set         []string
	given       bool
	add, remove []string
	// setIDs (when idsGiven), addIDs and removeIDs are the same by label id (GraphQL's
	// labelIds); ids of labels not available to the project are ignored.
	setIDs            []int
	idsGiven          bool
	addIDs, removeIDs []int
}

// empty reports a change that touches no label.
func (l labelChange) empty() bool {
	return !l.given && l.add == nil && l.remove == nil && !l.idsGiven && l.addIDs == nil && l.removeIDs == nil
}

// setLabels applies the change to the merge request whose current label links are current
// (labels loaded), creating labels named but missing as project labels as GitLab does.
func (s *Service) setLabels(ctx context.Context, c *ent.Client, proj *ent.Project, mrID int, current []*ent.MergeRequestLabel, ch labelChange) error {
	if ch.empty() {
		return nil
	}
	cur := map[int]*ent.Label{}
	for _, l := range current {
		cur[l.LabelID] = l.Edges.Label
	}
	want := map[int]*ent.Label{}
	if ch.given || ch.idsGiven {
		ls, err := labels.Resolve(ctx, c, proj, ch.set)
		if err != nil {
			return err
		}
		byID, err := labels.ByIDs(ctx, c, proj, ch.setIDs)
		if err != nil {
			return err
		}
		for _, l := range append(ls, byID...) {
			want[l.ID] = l
		}
	} else {
		for id, l := range cur {
			want[id] = l
		}
	}
	add, err := labels.Resolve(ctx, c, proj, ch.add)
	if err != nil {
		return err
	}
	addByID, err := labels.ByIDs(ctx, c, proj, ch.addIDs)
	if err != nil {
		return err
	}
	for _, l := range append(add, addByID...) {
		want[l.ID] = l
	}
	for id, l := range want {
		for _, t := range ch.remove {
			if l.Title == t {
				delete(want, id)
			}
		}
	}
	for _, id := range ch.removeIDs {
		delete(want, id)
	}
	var removed, added []int
	for id := range cur {
		if _, ok := want[id]; !ok {
			removed = append(removed, id)
		}
	}
	for id := range want {
		if _, ok := cur[id]; !ok {
			added = append(added, id)
		}
	}
	sort.Ints(added)
	if len(removed) > 0 {
		if _, err := c.MergeRequestLabel.Delete().Where(mergerequestlabel.MergeRequestID(mrID),
			mergerequestlabel.LabelIDIn(removed...)).Exec(ctx); err != nil {
			return err
		}
	}
	for _, id := range added {
		if err := c.MergeRequestLabel.Create().SetMergeRequestID(mrID).SetLabelID(id).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
