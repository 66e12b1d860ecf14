package presenter

import "anvil/internal/git"

// Contributor is one entry of GET /projects/:id/repository/contributors. GitLab no longer
// counts lines: additions and deletions are always 0.
type Contributor struct {
	Name      string `json:"name"`
	Email     string `json:"email"`
	Commits   int    `json:"commits"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
}

// Contributors renders contributors (never null).
func Contributors(cs []git.Contributor) []Contributor {
	out := make([]Contributor, len(cs))
	for i, c := range cs {
		out[i] = Contributor{Name: c.Name, Email: c.Email, Commits: c.Commits, Additions: c.Additions, Deletions: c.Deletions}
	}
	return out
}
