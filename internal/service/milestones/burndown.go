package milestones

import (
	"context"
	"strconv"
	"time"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/resourcestateevent"
	"anvil/internal/authz"
	"anvil/internal/filter"
	"anvil/internal/service/issues"
)

// BurndownEvent is one point of a milestone's burndown chart (GitLab's Burndown): an issue
// created, closed or reopened, with the issue's weight (issues carry no weight here: nil).
type BurndownEvent struct {
	CreatedAt time.Time
	Weight    *int
	Action    string // created, closed or reopened
}

// BurndownEvents returns the burndown events of milestone id of the owner (read_milestone),
// from the milestone's issues the actor may read (confidential ones only for those who see
// them) and their recorded state events, as GitLab's Burndown computes them: nothing unless
// the milestone has both a start and a due date; only issues created and events recorded up
// to the end of the due date (or today, when the due date is later); per issue its creation,
// then each close or reopen that changes its state; and a closed issue without a recorded
// close counts as closed at the start of the start date.
func (s *Service) BurndownEvents(ctx context.Context, actor *authz.Actor, o Owner, id string) ([]BurndownEvent, error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadMilestone)
	if err != nil {
		return nil, err
	}
	m, err := s.find(ctx, own, id)
	if err != nil {
		return nil, err
	}
	out := []BurndownEvent{}
	if m.StartDate == nil || m.DueDate == nil {
		return out, nil
	}
	end := m.DueDate.UTC()
	if today := time.Now().UTC().Truncate(24 * time.Hour); end.After(today) {
		end = today
	}
	endOfDay := end.Add(24*time.Hour - time.Nanosecond)
	parent := issues.Parent{GroupRef: strconv.Itoa(own.groupID())}
	if own.project != nil {
		parent = issues.Parent{ProjectRef: strconv.Itoa(own.project.ID)}
	}
	q, err := s.issues.Query(ctx, actor, parent, issues.ListParams{
		MilestoneID: filter.Field[int]{Is: filter.Of(m.ID)}, IncludeArchived: true,
	})
	if err != nil {
		return nil, err
	}
	list, err := q.Where(issue.CreatedAtLTE(endOfDay)).Order(issue.ByID()).All(ctx)
	if err != nil || len(list) == 0 {
		return out, err
	}
	ids := make([]int, len(list))
	for i, is := range list {
		ids[i] = is.ID
	}
	evs, err := s.client.ResourceStateEvent.Query().Where(resourcestateevent.IssueIDIn(ids...),
		resourcestateevent.StateIn(resourcestateevent.StateClosed, resourcestateevent.StateReopened),
		resourcestateevent.CreatedAtLTE(endOfDay)).
		Order(resourcestateevent.ByCreatedAt(), resourcestateevent.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	byIssue := map[int][]*ent.ResourceStateEvent{}
	for _, e := range evs {
		byIssue[*e.IssueID] = append(byIssue[*e.IssueID], e)
	}
	for _, is := range list {
		out = append(out, BurndownEvent{CreatedAt: is.CreatedAt, Action: "created"})
		previous, closedRecorded := "", false
		for _, e := range byIssue[is.ID] {
			action := string(e.State)
			if action == previous {
				continue // a second close of a closed issue changes nothing
			}
			previous = action
			closedRecorded = closedRecorded || action == "closed"
			out = append(out, BurndownEvent{CreatedAt: e.CreatedAt, Action: action})
		}
		if is.State == issue.StateClosed && !closedRecorded {
			out = append(out, BurndownEvent{CreatedAt: m.StartDate.UTC(), Action: "closed"})
		}
	}
	return out, nil
}

// groupID is the id of a group owner.
func (o owner) groupID() int {
	if o.group == nil {
		return 0
	}
	return o.group.ID
}
