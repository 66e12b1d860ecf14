package presenter

import "anvil/ent"

// UserStarsProject is GitLab's UserStarsProject: one user who starred a project, and since when.
type UserStarsProject struct {
	StarredSince Time       `json:"starred_since"`
	User         *UserBasic `json:"user"`
}

// Starrers renders GET /projects/:id/starrers; the stars carry their users.
func (p *Presenter) Starrers(stars []*ent.ProjectStar) []*UserStarsProject {
	out := make([]*UserStarsProject, len(stars))
	for i, s := range stars {
		out[i] = &UserStarsProject{StarredSince: Time(s.CreatedAt), User: p.UserBasic(s.Edges.User)}
	}
	return out
}
