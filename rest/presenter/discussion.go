package presenter

import "anvil/internal/service/notes"

// Discussion is GitLab's Discussion entity: a thread, or one note outside any (individual_note).
type Discussion struct {
	ID             string  `json:"id"`
	IndividualNote bool    `json:"individual_note"`
	Notes          []*Note `json:"notes"`
}

// Discussion renders a discussion with its notes oldest first.
func (p *Presenter) Discussion(d *notes.Discussion) *Discussion {
	return &Discussion{ID: d.ID, IndividualNote: d.Individual, Notes: p.Notes(d.Notes)}
}

// Discussions renders a list of discussions.
func (p *Presenter) Discussions(list []*notes.Discussion) []*Discussion {
	out := make([]*Discussion, 0, len(list))
	for _, d := range list {
		out = append(out, p.Discussion(d))
	}
	return out
}
