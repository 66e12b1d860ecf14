package graph

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/apperr"
	"anvil/internal/service/awardemoji"

	"entgo.io/contrib/entgql"
)

// awardConnection pages an awardable's awards, oldest first (an object has few: read whole).
// A kind not served yet has none.
func (r *Resolver) awardConnection(ctx context.Context, k awardemoji.Kind, ref awardemoji.Ref, after, before *entgql.Cursor[int], first, last *int) (*model.AwardEmojiConnection, error) {
	all := []*ent.AwardEmoji{}
	if r.svc.AwardEmoji.Registry().Has(k) {
		var err error
		if all, err = r.svc.AwardEmoji.All(ctx, actor(ctx), k, ref); err != nil {
			return orNull[model.AwardEmojiConnection](nil, err)
		}
	}
	if all == nil {
		all = []*ent.AwardEmoji{} // nodes: [], never null
	}
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(a *ent.AwardEmoji) int { return a.ID }, after, before, first, last)
	c := &model.AwardEmojiConnection{Nodes: nodes, PageInfo: info, TotalCount: len(all), Edges: make([]*model.AwardEmojiEdge, len(nodes))}
	for i, a := range nodes {
		c.Edges[i] = &model.AwardEmojiEdge{Node: a, Cursor: cursors[i]}
	}
	return c, nil
}

// issueAwardRef names an issue for the award emoji domain.
func issueAwardRef(is *ent.Issue) awardemoji.Ref {
	return awardemoji.Ref{Parent: strconv.Itoa(is.ProjectID), Keys: []string{strconv.Itoa(is.Iid)}}
}

// awardable resolves the awardableId of an award mutation.
func (r *Resolver) awardable(ctx context.Context, id string) (awardemoji.Awardable, error) {
	g, err := parseGID(id)
	if err != nil {
		return awardemoji.Awardable{}, err
	}
	return r.svc.AwardEmoji.ByGlobalID(ctx, g.Model, g.ID)
}

// awardResult is the payload side of an award mutation: the service's refusals of the name
// ("Award Emoji Name has already been taken" in REST's words) are the payload's errors, in
// GitLab GraphQL's words ("Name has already been taken"); a target the caller may not see or
// award to is the resource access error.
func awardResult(a *ent.AwardEmoji, err error) (*ent.AwardEmoji, []string, error) {
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindNotFound {
		if rest, found := strings.CutPrefix(e.Resource, "Award Emoji "); found {
			return nil, []string{rest}, nil
		}
	}
	msgs, err := payloadErrors(err)
	if err != nil || len(msgs) > 0 {
		return nil, msgs, err
	}
	return a, msgs, nil
}

// awardEmojiDescription is the emoji's name in words ("thumbsup" → "thumbsup", "heart_eyes" →
// "heart eyes").
func awardEmojiDescription(name string) string { return strings.ReplaceAll(name, "_", " ") }
