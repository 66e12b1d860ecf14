package presenter

import (
	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/service/tags"
)

// Tag is GitLab's Tag entity. message and created_at are null for lightweight tags; target is
// the tag object of an annotated tag, else the tagged commit; commit is null when the tag does
// not point at a commit. Anvil has no releases or protected tags.
type Tag struct {
	Name      string    `json:"name"`
	Message   *string   `json:"message"`
	Target    string    `json:"target"`
	Commit    *Commit   `json:"commit"`
	Release   *struct{} `json:"release"`
	Protected bool      `json:"protected"`
	CreatedAt *Time     `json:"created_at"`
}

// Tag renders a tag of project pr.
func (p *Presenter) Tag(pr *ent.Project, t *git.Tag) Tag {
	out := Tag{Name: t.Name, Message: tags.Message(t), Target: string(t.ID)}
	if t.Commit != nil {
		c := p.Commit(pr, t.Commit, false)
		out.Commit = &c
	}
	if t.Tagger != nil && !t.Tagger.When.IsZero() {
		when := Time(t.Tagger.When)
		out.CreatedAt = &when
	}
	return out
}

// Tags renders a page of tags of project pr.
func (p *Presenter) Tags(pr *ent.Project, ts []git.Tag) []Tag {
	out := make([]Tag, len(ts))
	for i := range ts {
		out[i] = p.Tag(pr, &ts[i])
	}
	return out
}
