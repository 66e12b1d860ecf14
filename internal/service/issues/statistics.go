package issues

import (
	"strconv"

	"anvil/internal/filter"
	"context"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/internal/authz"
)

// Counts are GitLab's issues_statistics counts.
type Counts struct {
	All, Opened, Closed int
}

// Statistics counts the issues of parent matching p by state (the state filter itself is
// ignored, as GitLab's statistics do), with the same visibility and confidentiality as lists.
func (s *Service) Statistics(ctx context.Context, actor *authz.Actor, parent Parent, p ListParams) (Counts, error) {
	p.State = ""
	q, err := s.Query(ctx, actor, parent, p)
	if err != nil {
		return Counts{}, err
	}
	var rows []struct {
		State string `json:"state"`
		Count int    `json:"count"`
	}
	if err := q.GroupBy(issue.FieldState).Aggregate(ent.Count()).Scan(ctx, &rows); err != nil {
		return Counts{}, err
	}
	var c Counts
	for _, r := range rows {
		switch r.State {
		case string(issue.StateOpened):
			c.Opened = r.Count
		case string(issue.StateClosed):
			c.Closed = r.Count
		}
	}
	c.All = c.Opened + c.Closed
	return c, nil
}

// LabelCounts counts the opened and closed issues carrying the label titled title in the
// project (projectID) or the group with its subgroups (groupID), as the actor sees them: the
// counts of the labels API.
func (s *Service) LabelCounts(ctx context.Context, actor *authz.Actor, projectID, groupID int, title string) (opened, closed int, err error) {
	parent := Parent{ProjectRef: strconv.Itoa(projectID)}
	if groupID != 0 {
		parent = Parent{GroupRef: strconv.Itoa(groupID)}
	}
	c, err := s.Statistics(ctx, actor, parent, ListParams{Labels: filter.Field[string]{Is: filter.Of(title)}})
	return c.Opened, c.Closed, err
}
