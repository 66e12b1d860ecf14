package labels

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/label"
	"anvil/ent/labelsubscription"
	"anvil/ent/predicate"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/wire"
)

// Service is the label service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	groups   *groups.Service
	// issueCounts counts a label's issues (the issue service, built before this one).
	issueCounts IssueCounts
}

// New returns the label service.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, g *groups.Service, counts IssueCounts) *Service {
	wire.Require("labels", wire.D("client", client), wire.D("policy", policy), wire.D("projects", p),
		wire.D("groups", g), wire.D("issue counts", counts))
	return &Service{client: client, policy: policy, projects: p, groups: g, issueCounts: counts}
}

// Owner names the project or group whose labels an operation addresses.
type Owner struct {
	Group bool
	Ref   string
}

// owner is a resolved Owner.
type owner struct {
	project *ent.Project
	group   *ent.Namespace
}

// own selects the owner's own labels.
func (o owner) own() predicate.Label {
	if o.group != nil {
		return label.GroupID(o.group.ID)
	}
	return label.ProjectID(o.project.ID)
}

// fullPath is the owner's namespace path (its ancestors' labels apply).
func (o owner) fullPath() string {
	if o.group != nil {
		return o.group.FullPath
	}
	return o.project.Edges.Namespace.FullPath
}

func (s *Service) resolve(ctx context.Context, actor *authz.Actor, o Owner, ability authz.Ability) (owner, error) {
	if o.Group {
		g, err := s.groups.Find(ctx, actor, o.Ref, ability)
		return owner{group: g}, err
	}
	p, err := s.projects.Find(ctx, actor, o.Ref, ability)
	return owner{project: p}, err
}

// available selects the owner's labels and, with ancestors, its ancestor groups'.
func (s *Service) available(ctx context.Context, c *ent.Client, own owner, ancestors bool) (predicate.Label, error) {
	if !ancestors {
		return own.own(), nil
	}
	ids, err := GroupChain(ctx, c, own.fullPath())
	if err != nil {
		return nil, err
	}
	if own.group != nil {
		return label.GroupIDIn(ids...), nil
	}
	return label.Or(own.own(), label.GroupIDIn(ids...)), nil
}

// View is a label with what its presentation needs besides the row.
type View struct {
	Label      *ent.Label
	Subscribed bool
	// Counts are set when asked for (with_counts).
	Counts *Counts
}

// Counts are a label's issue and merge request counts as the caller sees them.
type Counts struct {
	OpenIssues, ClosedIssues, OpenMergeRequests int
}

// find returns the label ref names (an id, else a title) among the owner's labels (and its
// ancestors' when ancestors is set): 404 Label Not Found otherwise.
func (s *Service) find(ctx context.Context, c *ent.Client, own owner, ref string, ancestors bool) (*ent.Label, error) {
	avail, err := s.available(ctx, c, own, ancestors)
	if err != nil {
		return nil, err
	}
	by := label.Title(ref)
	if id, err := strconv.Atoi(ref); err == nil {
		by = label.Or(label.ID(id), label.Title(ref))
	}
	ls, err := c.Label.Query().Where(avail, by).WithGroup().All(ctx)
	if err != nil {
		return nil, err
	}
	if len(ls) == 0 {
		return nil, apperr.NotFound("Label")
	}
	for _, l := range ls { // an id beats a title; the owner's own label beats an ancestor's
		if strconv.Itoa(l.ID) == ref {
			return l, nil
		}
	}
	for _, l := range ls {
		if own.project != nil && l.ProjectID != nil {
			return l, nil
		}
	}
	return ls[0], nil
}

// subscribed returns the ids among ls the actor is subscribed to.
func (s *Service) subscribed(ctx context.Context, c *ent.Client, actor *authz.Actor, ls []*ent.Label) (map[int]bool, error) {
	out := map[int]bool{}
	if actor.IsAnonymous() || len(ls) == 0 {
		return out, nil
	}
	ids := make([]int, len(ls))
	for i, l := range ls {
		ids[i] = l.ID
	}
	subs, err := c.LabelSubscription.Query().Where(labelsubscription.UserID(actor.UserID()), labelsubscription.LabelIDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, sub := range subs {
		out[sub.LabelID] = true
	}
	return out, nil
}

// validTitle reports GitLab's label title rules: not blank, no commas ("Title is invalid").
func validTitle(t string) bool { return strings.TrimSpace(t) != "" && !strings.Contains(t, ",") }
