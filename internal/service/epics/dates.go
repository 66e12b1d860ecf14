package epics

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/epicissue"
	"anvil/ent/issue"
	"anvil/internal/db"
)

// Dates are an epic's dates: Start and Due as shown (the fixed date when its flag is on, else
// the inherited one), and the dates inherited from the milestones of its issues (the earliest
// start and the latest due date). Dates inherited from child epics are not computed.
type Dates struct {
	Start, Due                             *time.Time
	StartFromMilestones, DueFromMilestones *time.Time
}

// dates computes the dates of epics in one read of their issues' milestones.
func (s *Service) dates(ctx context.Context, es []*ent.Epic) (map[int]Dates, error) {
	out := make(map[int]Dates, len(es))
	if len(es) == 0 {
		return out, nil
	}
	ids := make([]int, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	links, err := db.ClientFrom(ctx, s.client).EpicIssue.Query().
		Where(epicissue.EpicIDIn(ids...), epicissue.HasIssueWith(issue.MilestoneIDNotNil())).
		WithIssue(func(q *ent.IssueQuery) { q.WithMilestone() }).All(ctx)
	if err != nil {
		return nil, err
	}
	inherited := map[int]*Dates{}
	for _, l := range links {
		m := l.Edges.Issue.Edges.Milestone
		if m == nil {
			continue
		}
		d := inherited[l.EpicID]
		if d == nil {
			d = &Dates{}
			inherited[l.EpicID] = d
		}
		if m.StartDate != nil && (d.StartFromMilestones == nil || m.StartDate.Before(*d.StartFromMilestones)) {
			d.StartFromMilestones = m.StartDate
		}
		if m.DueDate != nil && (d.DueFromMilestones == nil || m.DueDate.After(*d.DueFromMilestones)) {
			d.DueFromMilestones = m.DueDate
		}
	}
	for _, e := range es {
		var d Dates
		if in := inherited[e.ID]; in != nil {
			d = *in
		}
		d.Start, d.Due = d.StartFromMilestones, d.DueFromMilestones
		if e.StartDateIsFixed {
			d.Start = e.StartDateFixed
		}
		if e.DueDateIsFixed {
			d.Due = e.DueDateFixed
		}
		out[e.ID] = d
	}
	return out, nil
}
