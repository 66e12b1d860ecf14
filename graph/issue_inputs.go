package graph

import (
	"context"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/service/issues"
	"anvil/internal/service/labels"
	"anvil/internal/service/users"
)

// Issue and label mutation inputs mapped onto the services' inputs (GitLab's names on both
// sides), and their payloads read back through the finders.

// parseDate reads an ISO 8601 date (YYYY-MM-DD) as midnight UTC, how due dates are stored.
func parseDate(name, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return t, badInput("%s is not a valid date for %s", s, name)
	}
	return t, nil
}

// parseModelID reads an id argument typed ID in GitLab's schema, which takes a global id of one
// of models or a plain number.
func parseModelID(s string, models ...string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, nil
	}
	return parseGIDOf(s, models...)
}

// parseModelIDs parses each of ids with parseModelID; nil stays nil.
func parseModelIDs(ids []string, models ...string) ([]int, error) {
	if ids == nil {
		return nil, nil
	}
	out := make([]int, 0, len(ids))
	for _, s := range ids {
		id, err := parseModelID(s, models...)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

func createIssueInput(in model.CreateIssueInput) (issues.CreateInput, error) {
	out := issues.CreateInput{Title: in.Title, Description: in.Description, Confidential: in.Confidential,
		Labels: in.Labels, CreatedAt: in.CreatedAt, IssueType: issueType(in.Type)}
	var err error
	if in.DueDate != nil {
		d, err := parseDate("dueDate", *in.DueDate)
		if err != nil {
			return out, err
		}
		out.DueDate = &d
	}
	if out.AssigneeIDs, err = parseGIDs(in.AssigneeIds, gidUser); err != nil {
		return out, err
	}
	if out.LabelIDs, err = parseModelIDs(in.LabelIds, labelModels...); err != nil {
		return out, err
	}
	if in.MilestoneID != nil {
		id, err := parseGIDOf(*in.MilestoneID, gidMilestone)
		if err != nil {
			return out, err
		}
		out.MilestoneID = &id
	}
	return out, nil
}

func updateIssueInput(in model.UpdateIssueInput) (issues.UpdateInput, error) {
	out := issues.UpdateInput{Title: in.Title, Description: in.Description, Confidential: in.Confidential,
		DiscussionLocked: in.Locked, IssueType: issueType(in.Type)}
	if in.StateEvent != nil {
		ev := strings.ToLower(string(*in.StateEvent))
		out.StateEvent = &ev
	}
	if d, set := in.DueDate.ValueOK(); set {
		if d == nil {
			out.ClearDueDate = true
		} else {
			t, err := parseDate("dueDate", *d)
			if err != nil {
				return out, err
			}
			out.DueDate = &t
		}
	}
	if m, set := in.MilestoneID.ValueOK(); set {
		id := 0 // null removes the milestone
		if m != nil {
			var err error
			if id, err = parseModelID(*m, gidMilestone); err != nil {
				return out, err
			}
		}
		out.MilestoneID = &id
	}
	var err error
	if out.LabelIDs, err = parseModelIDs(in.LabelIds, labelModels...); err != nil {
		return out, err
	}
	if out.AddLabelIDs, err = parseModelIDs(in.AddLabelIds, labelModels...); err != nil {
		return out, err
	}
	out.RemoveLabelIDs, err = parseModelIDs(in.RemoveLabelIds, labelModels...)
	return out, err
}

// issueType is IssueType as the service's issue_type (INCIDENT → incident).
func issueType(t *model.IssueType) *string {
	if t == nil {
		return nil
	}
	s := strings.ToLower(string(*t))
	return &s
}

// issueAssignees is issueSetAssignees' resulting assignee ids: the named users replace the
// current assignees, or are appended to or removed from them. Unknown usernames are ignored.
func (r *Resolver) issueAssignees(ctx context.Context, is *ent.Issue, usernames []string, mode *model.MutationOperationMode) ([]int, error) {
	named := []int{}
	if len(usernames) > 0 {
		q, err := r.svc.Users.Query(ctx, actor(ctx), users.ListParams{Usernames: usernames})
		if err != nil {
			return nil, err
		}
		if named, err = q.IDs(ctx); err != nil {
			return nil, err
		}
	}
	if mode == nil || *mode == model.MutationOperationModeReplace {
		return named, nil
	}
	in := map[int]bool{}
	for _, id := range named {
		in[id] = true
	}
	out := []int{}
	for _, l := range is.Edges.AssigneeLinks {
		if *mode == model.MutationOperationModeAppend || !in[l.UserID] {
			out = append(out, l.UserID)
		}
		delete(in, l.UserID)
	}
	if *mode == model.MutationOperationModeAppend {
		for _, id := range named {
			if in[id] {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// issueResult is the payload side of an issue mutation: the refused change's messages, or the
// issue as project.issue(iid:) now shows it.
func (r *Resolver) issueResult(ctx context.Context, is *ent.Issue, err error) (*ent.Issue, []string, error) {
	msgs, err := payloadErrors(err)
	if err != nil || is == nil {
		return nil, msgs, err
	}
	is, _, err = r.svc.Issues.Find(ctx, actor(ctx), strconv.Itoa(is.ProjectID), strconv.Itoa(is.Iid))
	is, err = orNull(is, err)
	return is, msgs, err
}

// labelCreate creates a label of the project or the group named (exactly one of them).
func (r *Resolver) labelCreate(ctx context.Context, in model.LabelCreateInput) (*ent.Label, []string, error) {
	if (in.ProjectPath == nil) == (in.GroupPath == nil) {
		return nil, nil, badInput("Exactly one of group_path or project_path arguments is required")
	}
	owner := labels.Owner{Group: in.GroupPath != nil, Ref: str(in.ProjectPath)}
	if owner.Group {
		owner.Ref = *in.GroupPath
	}
	v, err := r.svc.Labels.Create(ctx, actor(ctx), owner, labels.Input{Title: &in.Title, Color: in.Color, Description: in.Description})
	msgs, err := payloadErrors(err)
	if err != nil || len(msgs) > 0 {
		return nil, msgs, err
	}
	return v.Label, msgs, nil
}
