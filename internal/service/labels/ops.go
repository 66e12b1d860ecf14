package labels

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/label"
	"anvil/ent/labelsubscription"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// IssueCounts counts a label's issues as the actor sees them (the issue service).
type IssueCounts interface {
	LabelCounts(ctx context.Context, actor *authz.Actor, projectID, groupID int, title string) (opened, closed int, err error)
}

// ListParams are the filters of GET /projects/:id/labels and GET /groups/:id/labels.
type ListParams struct {
	// WithCounts (with_counts) adds the issue and merge request counts.
	WithCounts bool
	// IncludeAncestorGroups (include_ancestor_groups, default true) adds the ancestors' labels.
	IncludeAncestorGroups bool
	// IncludeDescendantGroups (include_descendant_groups, groups) adds the subgroups' labels;
	// OnlyGroupLabels (only_group_labels, groups, default true) leaves projects' labels out.
	IncludeDescendantGroups bool
	OnlyGroupLabels         bool
	// Search (search) matches titles and descriptions.
	Search string
	// Title (GraphQL's title) matches the title exactly.
	Title *string
}

// Query returns the owner's labels matching p, unordered (REST pages it in title order;
// GraphQL paginates it). An owner the actor cannot read is 404.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, o Owner, p ListParams) (*ent.LabelQuery, error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadLabel)
	if err != nil {
		return nil, err
	}
	c := db.ClientFrom(ctx, s.client)
	avail, err := s.available(ctx, c, own, p.IncludeAncestorGroups)
	if err != nil {
		return nil, err
	}
	q := c.Label.Query().Where(avail)
	if own.group != nil && p.IncludeDescendantGroups {
		sc, err := s.scope(ctx, actor)
		if err != nil {
			return nil, err
		}
		q = c.Label.Query().Where(label.Or(avail, label.HasGroupWith(authz.Descendants(own.group.FullPath), authz.VisibleGroupsIn(actor, sc))))
	}
	if p.Search != "" {
		q = q.Where(label.Or(db.ContainsFold(label.FieldTitle, p.Search), db.ContainsFold(label.FieldDescription, p.Search)))
	}
	if p.Title != nil {
		q = q.Where(label.Title(*p.Title))
	}
	return q, nil
}

// List returns a page of the owner's labels in title order.
func (s *Service) List(ctx context.Context, actor *authz.Actor, o Owner, p ListParams, page pagination.Offset) (pagination.Result[View], error) {
	res := pagination.Result[View]{Page: page}
	own, err := s.resolve(ctx, actor, o, authz.ReadLabel)
	if err != nil {
		return res, err
	}
	q, err := s.Query(ctx, actor, o, p)
	if err != nil {
		return res, err
	}
	c := db.ClientFrom(ctx, s.client)
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	rows, err := q.Order(label.ByTitle(), label.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	subs, err := s.subscribed(ctx, c, actor, rows)
	if err != nil {
		return res, err
	}
	for _, l := range rows {
		v := View{Label: l, Subscribed: subs[l.ID]}
		if p.WithCounts {
			if v.Counts, err = s.countsOf(ctx, actor, own, l); err != nil {
				return res, err
			}
		}
		res.Items = append(res.Items, v)
	}
	return res, nil
}

// FindByID returns the label with id if the actor may read its project or group (GraphQL's
// node(id:)): 404 Label Not Found otherwise.
func (s *Service) FindByID(ctx context.Context, actor *authz.Actor, id int) (*ent.Label, error) {
	l, err := db.ClientFrom(ctx, s.client).Label.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Label")
	}
	if err != nil {
		return nil, err
	}
	o := Owner{}
	switch {
	case l.GroupID != nil:
		o = Owner{Group: true, Ref: strconv.Itoa(*l.GroupID)}
	case l.ProjectID != nil:
		o.Ref = strconv.Itoa(*l.ProjectID)
	}
	if _, err := s.resolve(ctx, actor, o, authz.ReadLabel); err != nil {
		if apperr.IsNotFound(err) || apperr.Is(err, apperr.KindForbidden, apperr.KindUnauthorized) {
			return nil, apperr.NotFound("Label")
		}
		return nil, err
	}
	return l, nil
}

func (s *Service) scope(ctx context.Context, actor *authz.Actor) (*authz.Scope, error) {
	if actor.IsAnonymous() {
		return nil, nil
	}
	return s.policy.Scope(ctx, actor, authz.Guest)
}

// counts are the label's counts in the owner.
func (s *Service) countsOf(ctx context.Context, actor *authz.Actor, own owner, l *ent.Label) (*Counts, error) {
	pid, gid := 0, 0
	if own.group != nil {
		gid = own.group.ID
	} else {
		pid = own.project.ID
	}
	opened, closed, err := s.issueCounts.LabelCounts(ctx, actor, pid, gid, l.Title)
	if err != nil {
		return nil, err
	}
	return &Counts{OpenIssues: opened, ClosedIssues: closed}, nil
}

// Get returns the label ref names (id or title) of the owner or its ancestors.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, o Owner, ref string) (View, error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadLabel)
	if err != nil {
		return View{}, err
	}
	c := db.ClientFrom(ctx, s.client)
	l, err := s.find(ctx, c, own, ref, true)
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, c, actor, own, l)
}

func (s *Service) view(ctx context.Context, c *ent.Client, actor *authz.Actor, own owner, l *ent.Label) (View, error) {
	subs, err := s.subscribed(ctx, c, actor, []*ent.Label{l})
	if err != nil {
		return View{}, err
	}
	return View{Label: l, Subscribed: subs[l.ID]}, nil
}

// Input is the body of POST and PUT .../labels; nil fields are left alone.
type Input struct {
	Title       *string // name on create, new_name on update
	Color       *string
	Description *string
	Priority    *int
	// ClearPriority removes the priority (priority= or null on update).
	ClearPriority bool
}

// Create creates a label of the owner (admin_label): 409 "Label already exists" for a title
// taken in the owner.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, o Owner, in Input) (View, error) {
	own, err := s.resolve(ctx, actor, o, authz.AdminLabel)
	if err != nil {
		return View{}, err
	}
	color, err := checkInput(in, true)
	if err != nil {
		return View{}, err
	}
	var l *ent.Label
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		taken, err := c.Label.Query().Where(own.own(), label.Title(*in.Title)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return apperr.Conflict("Label already exists")
		}
		create := c.Label.Create().SetTitle(*in.Title).SetColor(color).SetNillableDescription(in.Description)
		if own.group != nil {
			create.SetGroupID(own.group.ID)
		} else {
			create.SetProjectID(own.project.ID).SetNillablePriority(in.Priority)
		}
		l, err = create.Save(ctx)
		if ent.IsConstraintError(err) {
			return apperr.Conflict("Label already exists")
		}
		return err
	})
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, s.client, actor, own, l)
}

// checkInput validates a title and color; the color comes back normalised ("" when absent).
func checkInput(in Input, create bool) (string, error) {
	fields := map[string][]string{}
	if in.Title != nil && !validTitle(*in.Title) {
		fields["title"] = []string{"is invalid"}
	}
	color := ""
	if in.Color != nil {
		c, ok := NormalizeColor(*in.Color)
		if !ok {
			fields["color"] = []string{"must be a valid color code"}
		}
		color = c
	}
	if len(fields) > 0 {
		return "", apperr.Validation(fields)
	}
	if create && color == "" {
		color = DefaultColor
	}
	return color, nil
}

// Update changes the owner's own label ref names (an ancestor's is not found).
func (s *Service) Update(ctx context.Context, actor *authz.Actor, o Owner, ref string, in Input) (View, error) {
	own, err := s.resolve(ctx, actor, o, authz.AdminLabel)
	if err != nil {
		return View{}, err
	}
	color, err := checkInput(in, false)
	if err != nil {
		return View{}, err
	}
	var l *ent.Label
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		cur, err := s.find(ctx, c, own, ref, false)
		if err != nil {
			return err
		}
		if in.Title != nil && *in.Title != cur.Title {
			taken, err := c.Label.Query().Where(own.own(), label.Title(*in.Title)).Exist(ctx)
			if err != nil {
				return err
			}
			if taken {
				return apperr.Conflict("Label already exists")
			}
		}
		up := c.Label.UpdateOne(cur).SetNillableTitle(in.Title).SetNillableDescription(in.Description)
		if color != "" {
			up.SetColor(color)
		}
		if own.project != nil {
			if in.ClearPriority {
				up.ClearPriority()
			} else {
				up.SetNillablePriority(in.Priority)
			}
		}
		l, err = up.Save(ctx)
		return err
	})
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, s.client, actor, own, l)
}

// Delete removes the owner's own label ref names; its issue links go with it.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, o Owner, ref string) error {
	own, err := s.resolve(ctx, actor, o, authz.AdminLabel)
	if err != nil {
		return err
	}
	c := db.ClientFrom(ctx, s.client)
	l, err := s.find(ctx, c, own, ref, false)
	if err != nil {
		return err
	}
	return c.Label.DeleteOne(l).Exec(ctx)
}

// Subscribe subscribes the actor to the label ref names (the owner's or an ancestor's);
// changed is false when it already was (GitLab answers 304).
func (s *Service) Subscribe(ctx context.Context, actor *authz.Actor, o Owner, ref string, subscribe bool) (View, bool, error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadLabel)
	if err != nil {
		return View{}, false, err
	}
	c := db.ClientFrom(ctx, s.client)
	l, err := s.find(ctx, c, own, ref, true)
	if err != nil {
		return View{}, false, err
	}
	mine := labelsubscription.And(labelsubscription.LabelID(l.ID), labelsubscription.UserID(actor.UserID()))
	changed := false
	if subscribe {
		exists, err := c.LabelSubscription.Query().Where(mine).Exist(ctx)
		if err != nil {
			return View{}, false, err
		}
		if !exists {
			err := c.LabelSubscription.Create().SetLabelID(l.ID).SetUserID(actor.UserID()).Exec(ctx)
			if err != nil && !ent.IsConstraintError(err) {
				return View{}, false, err
			}
			changed = err == nil
		}
	} else {
		n, err := c.LabelSubscription.Delete().Where(mine).Exec(ctx)
		if err != nil {
			return View{}, false, err
		}
		changed = n > 0
	}
	v, err := s.view(ctx, c, actor, own, l)
	return v, changed, err
}
