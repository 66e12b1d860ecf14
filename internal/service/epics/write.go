package epics

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/epic"
	"anvil/ent/epiclabel"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/nullable"
	"anvil/internal/service/awardemoji"
	"anvil/internal/service/iids"
	"anvil/internal/service/labels"
	"anvil/internal/service/resourceevents"
)

// Input is the body of POST and PUT /groups/:id/epics: absent fields are left alone.
type Input struct {
	Title        *string
	Description  nullable.Value[string]
	Color        *string
	Confidential *bool
	// StartDateFixed and DueDateFixed are the fixed dates (start_date and end_date, GitLab's
	// deprecated names, fill them when they are absent); null clears one.
	StartDateFixed   nullable.Value[time.Time]
	StartDateIsFixed *bool
	DueDateFixed     nullable.Value[time.Time]
	DueDateIsFixed   *bool
	// Labels replaces the labels (nil: absent); AddLabels and RemoveLabels (update) change them.
	Labels, AddLabels, RemoveLabels []string
	// ParentID is the global id of the parent epic; one the actor may not link is ignored.
	ParentID *int
	// StateEvent (update): close or reopen.
	StateEvent *string
	// CreatedAt (create) and UpdatedAt (update) back-date the epic: group Owners and
	// administrators only, ignored for others.
	CreatedAt, UpdatedAt *time.Time
}

// Create creates an epic in group ref (create_epic: Planner, Reporter and up) with the
// group's next iid; labels missing from the group and its ancestors are created in the group.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, ref string, in Input) (View, error) {
	g, err := s.group(ctx, actor, ref, authz.CreateEpic)
	if err != nil {
		return View{}, err
	}
	return s.create(ctx, actor, g, in)
}

// create writes a new epic of g.
func (s *Service) create(ctx context.Context, actor *authz.Actor, g Group, in Input) (View, error) {
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return View{}, apperr.FieldError("title", "can't be blank")
	}
	color := DefaultColor
	if in.Color != nil {
		c, ok := labels.NormalizeColor(*in.Color)
		if !ok {
			return View{}, apperr.FieldError("color", "must be a valid color code")
		}
		color = c
	}
	var id int
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		parent, err := s.linkableParent(ctx, actor, in.ParentID)
		if err != nil {
			return err
		}
		confidential := in.Confidential != nil && *in.Confidential
		if parent != nil {
			if err := parentErrors(ctx, c, g.Namespace, nil, confidential, parent); err != nil {
				return err
			}
		}
		iid, err := iids.Next(ctx, s.client, iids.Epics, iids.Group(g.ID), func(ctx context.Context, c *ent.Client) (int, error) {
			last, err := c.Epic.Query().Where(epic.GroupID(g.ID)).Order(ent.Desc(epic.FieldIid)).First(ctx)
			if ent.IsNotFound(err) {
				return 0, nil
			}
			if err != nil {
				return 0, err
			}
			return last.Iid, nil
		})
		if err != nil {
			return err
		}
		create := c.Epic.Create().SetGroupID(g.ID).SetIid(iid).SetTitle(*in.Title).
			SetNillableDescription(in.Description.Ptr()).SetConfidential(confidential).SetColor(color).
			SetNillableStartDateFixed(in.StartDateFixed.Ptr()).SetNillableStartDateIsFixed(in.StartDateIsFixed).
			SetNillableDueDateFixed(in.DueDateFixed.Ptr()).SetNillableDueDateIsFixed(in.DueDateIsFixed).
			SetAuthorID(actor.UserID())
		if parent != nil {
			create.SetParentID(parent.ID)
		}
		if in.CreatedAt != nil && g.Can(actor, authz.AdminGroup) {
			create.SetCreatedAt(*in.CreatedAt).SetUpdatedAt(*in.CreatedAt)
		}
		e, err := create.Save(ctx)
		if err != nil {
			return err
		}
		id = e.ID
		ls, err := labels.ResolveInGroup(ctx, c, g.Namespace, in.Labels)
		if err != nil {
			return err
		}
		if err := linkLabels(ctx, c, e.ID, ls); err != nil {
			return err
		}
		if err := (resourceevents.Recorder{C: c, Actor: actor, Of: resourceevents.Epic(e.ID)}).Labels(ctx, ls, nil); err != nil {
			return err
		}
		e.Edges.Group = g.Namespace
		if err := s.changed(ctx, actor, Change{Action: "created", After: e}); err != nil {
			return err
		}
		if parent == nil {
			return nil
		}
		return s.noteRelation(ctx, actor, parent, e, true)
	})
	if err != nil {
		return View{}, err
	}
	return s.reload(ctx, g.Namespace, id)
}

// Update changes the epic iid of group ref (admin_epic: Planner, Reporter and up).
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref, iid string, in Input) (View, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return View{}, err
	}
	cur, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return View{}, err
	}
	if !g.Can(actor, authz.AdminEpic) {
		return View{}, apperr.Forbidden("")
	}
	if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
		return View{}, apperr.FieldError("title", "can't be blank")
	}
	var color *string
	if in.Color != nil {
		c, ok := labels.NormalizeColor(*in.Color)
		if !ok {
			return View{}, apperr.FieldError("color", "must be a valid color code")
		}
		color = &c
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		up := c.Epic.UpdateOneID(cur.ID).SetNillableTitle(in.Title).SetNillableColor(color).
			SetNillableStartDateIsFixed(in.StartDateIsFixed).SetNillableDueDateIsFixed(in.DueDateIsFixed)
		in.Description.Apply(func(v string) { up.SetDescription(v) }, func() { up.ClearDescription() })
		in.StartDateFixed.Apply(func(v time.Time) { up.SetStartDateFixed(v) }, func() { up.ClearStartDateFixed() })
		in.DueDateFixed.Apply(func(v time.Time) { up.SetDueDateFixed(v) }, func() { up.ClearDueDateFixed() })
		confidential := cur.Confidential
		if in.Confidential != nil {
			confidential = *in.Confidential
			if err := confidentialityErrors(ctx, c, cur, confidential); err != nil {
				return err
			}
			up.SetConfidential(confidential)
		}
		if in.ParentID != nil {
			parent, err := s.linkableParent(ctx, actor, in.ParentID)
			if err != nil {
				return err
			}
			if parent != nil && (cur.ParentID == nil || *cur.ParentID != parent.ID) {
				if err := parentErrors(ctx, c, g.Namespace, cur, confidential, parent); err != nil {
					return err
				}
				up.SetParentID(parent.ID)
				if err := s.noteRelation(ctx, actor, parent, cur, true); err != nil {
					return err
				}
			}
		} else if cur.Edges.Parent != nil && !confidential && cur.Edges.Parent.Confidential {
			return apperr.FieldError("confidential", msgConfidentialParent)
		}
		switch {
		case in.StateEvent != nil && *in.StateEvent == "close" && cur.State == epic.StateOpened:
			up.SetState(epic.StateClosed).SetClosedAt(time.Now().UTC().Truncate(time.Millisecond)).SetClosedByID(actor.UserID())
		case in.StateEvent != nil && *in.StateEvent == "reopen" && cur.State == epic.StateClosed:
			up.SetState(epic.StateOpened).ClearClosedAt().ClearClosedByID()
		}
		if in.UpdatedAt != nil && g.Can(actor, authz.AdminGroup) {
			up.SetUpdatedAt(*in.UpdatedAt)
		}
		after, err := up.Save(ctx)
		if err != nil {
			return err
		}
		if err := s.updateLabels(ctx, c, actor, g, cur, in); err != nil {
			return err
		}
		before := *cur
		before.Edges.Group, after.Edges.Group = g.Namespace, g.Namespace
		return s.changed(ctx, actor, Change{Action: "updated", Before: &before, After: after})
	})
	if err != nil {
		return View{}, err
	}
	return s.reload(ctx, g.Namespace, cur.ID)
}

// updateLabels applies labels (a replacement), then add_labels and remove_labels, and records
// the labels added and removed as the epic's label events.
func (s *Service) updateLabels(ctx context.Context, c *ent.Client, actor *authz.Actor, g Group, cur *ent.Epic, in Input) error {
	if in.Labels == nil && in.AddLabels == nil && in.RemoveLabels == nil {
		return nil
	}
	want := map[int]*ent.Label{}
	if in.Labels != nil {
		ls, err := labels.ResolveInGroup(ctx, c, g.Namespace, in.Labels)
		if err != nil {
			return err
		}
		for _, l := range ls {
			want[l.ID] = l
		}
	} else {
		for _, l := range cur.Edges.LabelLinks {
			want[l.LabelID] = l.Edges.Label
		}
	}
	add, err := labels.ResolveInGroup(ctx, c, g.Namespace, in.AddLabels)
	if err != nil {
		return err
	}
	for _, l := range add {
		want[l.ID] = l
	}
	for id, l := range want {
		for _, t := range in.RemoveLabels {
			if l.Title == t {
				delete(want, id)
			}
		}
	}
	if _, err := c.EpicLabel.Delete().Where(epiclabel.EpicID(cur.ID)).Exec(ctx); err != nil {
		return err
	}
	ls := make([]*ent.Label, 0, len(want))
	var added, removed []*ent.Label
	had := map[int]bool{}
	for _, l := range cur.Edges.LabelLinks {
		had[l.LabelID] = true
		if _, kept := want[l.LabelID]; !kept && l.Edges.Label != nil {
			removed = append(removed, l.Edges.Label)
		}
	}
	for _, l := range want {
		ls = append(ls, l)
		if !had[l.ID] {
			added = append(added, l)
		}
	}
	slices.SortFunc(ls, func(a, b *ent.Label) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(added, func(a, b *ent.Label) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(removed, func(a, b *ent.Label) int { return cmp.Compare(a.ID, b.ID) })
	if err := linkLabels(ctx, c, cur.ID, ls); err != nil {
		return err
	}
	return resourceevents.Recorder{C: c, Actor: actor, Of: resourceevents.Epic(cur.ID)}.Labels(ctx, added, removed)
}

// linkLabels applies labels to epic id.
func linkLabels(ctx context.Context, c *ent.Client, id int, ls []*ent.Label) error {
	if len(ls) == 0 {
		return nil
	}
	builders := make([]*ent.EpicLabelCreate, len(ls))
	for i, l := range ls {
		builders[i] = c.EpicLabel.Create().SetEpicID(id).SetLabelID(l.ID)
	}
	return c.EpicLabel.CreateBulk(builders...).Exec(ctx)
}

// Delete removes the epic iid of group ref and its descendants (destroy_epic: Planner or
// Owner, and administrators).
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref, iid string) error {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return err
	}
	e, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return err
	}
	if !g.Can(actor, authz.DestroyEpic) {
		return apperr.Forbidden("")
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		// The awards first: those of the notes are found through the notes.
		if err := awardemoji.RemoveWithNotes(ctx, c, "Epic", e.ID); err != nil {
			return err
		}
		if err := s.deleteNotes(ctx, c, e.ID); err != nil {
			return err
		}
		e.Edges.Group = g.Namespace
		if err := s.changed(ctx, actor, Change{Action: "destroyed", Before: e}); err != nil {
			return err
		}
		return c.Epic.DeleteOneID(e.ID).Exec(ctx)
	})
}
