package presenter

import "anvil/internal/service/milestones"

// BurndownEvent is one event of a milestone's burndown chart.
type BurndownEvent struct {
	CreatedAt Time   `json:"created_at"`
	Weight    *int   `json:"weight"`
	Action    string `json:"action"`
}

// BurndownEvents renders a milestone's burndown events.
func (p *Presenter) BurndownEvents(evs []milestones.BurndownEvent) []BurndownEvent {
	out := make([]BurndownEvent, 0, len(evs))
	for _, e := range evs {
		out = append(out, BurndownEvent{CreatedAt: Time(e.CreatedAt), Weight: e.Weight, Action: e.Action})
	}
	return out
}
