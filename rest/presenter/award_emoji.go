package presenter

import "anvil/ent"

// AwardEmoji is GitLab's award emoji entity (Entities::AwardEmoji); url is a custom emoji's
// image, always null here (Anvil has no custom emoji).
type AwardEmoji struct {
	ID            int        `json:"id"`
	Name          string     `json:"name"`
	User          *UserBasic `json:"user"`
	CreatedAt     Time       `json:"created_at"`
	UpdatedAt     Time       `json:"updated_at"`
	AwardableID   int        `json:"awardable_id"`
	AwardableType string     `json:"awardable_type"`
	URL           *string    `json:"url"`
}

// AwardEmoji renders an award loaded with its user.
func (p *Presenter) AwardEmoji(a *ent.AwardEmoji) *AwardEmoji {
	return &AwardEmoji{
		ID: a.ID, Name: a.Name, User: p.UserBasic(a.Edges.User), CreatedAt: Time(a.CreatedAt),
		UpdatedAt: Time(a.UpdatedAt), AwardableID: a.AwardableID, AwardableType: string(a.AwardableType),
	}
}

// AwardEmojis renders a list of awards.
func (p *Presenter) AwardEmojis(list []*ent.AwardEmoji) []*AwardEmoji {
	out := make([]*AwardEmoji, 0, len(list))
	for _, a := range list {
		out = append(out, p.AwardEmoji(a))
	}
	return out
}
