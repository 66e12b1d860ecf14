package issues

import (
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
