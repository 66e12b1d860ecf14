package milestones

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/ent/milestone"
	"anvil/ent/predicate"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
	"anvil/internal/service/iids"
)

// Input is the body of POST and PUT .../milestones: nil fields are left alone; a Clear flag
// empties a date (an empty value).
type Input struct {
	Title          *string
	Description    *string
	DueDate        *time.Time
	StartDate      *time.Time
	ClearDueDate   bool
	ClearStartDate bool
	// ClearDescription (update only): the description was sent as null.
	ClearDescription bool
	// StateEvent (update only): close or activate.
	StateEvent *string
}

// Create creates a milestone of the owner (admin_milestone) with the owner's next iid; a
// project milestone's creation is recorded as activity.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, o Owner, in Input) (*ent.Milestone, string, error) {
	own, err := s.resolve(ctx, actor, o, authz.AdminMilestone)
	if err != nil {
		return nil, "", err
	}
	var m *ent.Milestone
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if errs := validate(ctx, c, own, nil, in); len(errs) > 0 {
			return failed("create", errs)
		}
		iid, err := s.nextIID(ctx, own)
		if err != nil {
			return err
		}
		create := c.Milestone.Create().SetIid(iid).SetTitle(*in.Title).SetNillableDescription(in.Description).
			SetNillableDueDate(in.DueDate).SetNillableStartDate(in.StartDate)
		if own.group != nil {
			create.SetGroupID(own.group.ID)
		} else {
			create.SetProjectID(own.project.ID)
		}
		if m, err = create.Save(ctx); err != nil {
			return err
		}
		if own.project == nil || actor.IsAnonymous() {
			return nil // group milestones record no activity, as in GitLab
		}
		return events.Record(ctx, c, events.Milestone(event.ActionCreated, m, actor.UserID()))
	})
	if err != nil {
		return nil, "", err
	}
	return m, own.FullPath(), nil
}

// Update changes a milestone of the owner (admin_milestone); state_event closes or activates
// it, recorded as activity (closed, reopened) for a project milestone.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, o Owner, id string, in Input) (*ent.Milestone, string, error) {
	own, err := s.resolve(ctx, actor, o, authz.AdminMilestone)
	if err != nil {
		return nil, "", err
	}
	var m *ent.Milestone
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		cur, err := s.find(ctx, own, id)
		if err != nil {
			return err
		}
		if errs := validate(ctx, c, own, cur, in); len(errs) > 0 {
			return failed("update", errs)
		}
		up := c.Milestone.UpdateOne(cur).SetNillableTitle(in.Title).SetNillableDescription(in.Description).
			SetNillableDueDate(in.DueDate).SetNillableStartDate(in.StartDate)
		if in.ClearDueDate {
			up.ClearDueDate()
		}
		if in.ClearDescription {
			up.ClearDescription()
		}
		if in.ClearStartDate {
			up.ClearStartDate()
		}
		var action event.Action // the activity of a state change, none for another edit
		if in.StateEvent != nil {
			switch {
			case *in.StateEvent == "close" && cur.State != milestone.StateClosed:
				up.SetState(milestone.StateClosed)
				action = event.ActionClosed
			case *in.StateEvent == "activate" && cur.State != milestone.StateActive:
				up.SetState(milestone.StateActive)
				action = event.ActionReopened
			}
		}
		if m, err = up.Save(ctx); err != nil {
			return err
		}
		if own.project == nil {
			return nil // group milestones record no activity
		}
		if m.Title != cur.Title {
			if err := events.MilestoneRetitled(ctx, c, m); err != nil {
				return err
			}
		}
		if action == "" || actor.IsAnonymous() {
			return nil
		}
		return events.Record(ctx, c, events.Milestone(action, m, actor.UserID()))
	})
	if err != nil {
		return nil, "", err
	}
	return m, own.FullPath(), nil
}

// Delete removes a milestone of the owner (destroy_milestone: Reporter in a project,
// Developer in a group); its issues lose their milestone, and a project milestone's deletion
// is recorded as activity.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, o Owner, id string) error {
	own, err := s.resolve(ctx, actor, o, authz.DestroyMilestone)
	if err != nil {
		return err
	}
	m, err := s.find(ctx, own, id)
	if err != nil {
		return err
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if own.project != nil && !actor.IsAnonymous() {
			if err := events.MilestoneDestroyed(ctx, c, m, actor.UserID()); err != nil {
				return err
			}
		}
		return c.Milestone.DeleteOne(m).Exec(ctx)
	})
}

// nextIID takes the next milestone iid of the owner, inside the creating transaction; a
// counter made now starts at the owner's largest iid.
func (s *Service) nextIID(ctx context.Context, own owner) (int, error) {
	var scope iids.Scope
	if own.group != nil {
		scope = iids.Group(own.group.ID)
	} else {
		scope = iids.Project(own.project.ID)
	}
	return iids.Next(ctx, s.client, iids.Milestones, scope, func(ctx context.Context, c *ent.Client) (int, error) {
		last, err := c.Milestone.Query().Where(ownedBy(own)).Order(ent.Desc(milestone.FieldIid)).First(ctx)
		if ent.IsNotFound(err) {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		return last.Iid, nil
	})
}

// ownedBy selects the owner's own milestones.
func ownedBy(own owner) predicate.Milestone {
	if own.group != nil {
		return milestone.GroupID(own.group.ID)
	}
	return milestone.ProjectID(own.project.ID)
}

// validate checks the title (present, unique in the owner) and the dates, as GitLab's
// Milestone model does; cur is the milestone being updated (nil on create).
func validate(ctx context.Context, c *ent.Client, own owner, cur *ent.Milestone, in Input) map[string][]string {
	errs := map[string][]string{}
	if in.Title != nil {
		t := strings.TrimSpace(*in.Title)
		switch {
		case t == "":
			errs["title"] = append(errs["title"], "can't be blank")
		default:
			q := c.Milestone.Query().Where(ownedBy(own), milestone.Title(*in.Title))
			if cur != nil {
				q = q.Where(milestone.IDNEQ(cur.ID))
			}
			if taken, err := q.Exist(ctx); err == nil && taken {
				errs["title"] = append(errs["title"], "already being used for another group or project milestone.")
			}
		}
	}
	start, due := in.StartDate, in.DueDate
	if cur != nil {
		if start == nil && !in.ClearStartDate {
			start = cur.StartDate
		}
		if due == nil && !in.ClearDueDate {
			due = cur.DueDate
		}
	}
	if start != nil && due != nil && due.Before(*start) {
		errs["due_date"] = append(errs["due_date"], "must be greater than start date")
	}
	return errs
}

// failed is GitLab's "Failed to create milestone {:title=>[...]}" 400, the model's errors in
// Ruby's hash notation.
func failed(op string, errs map[string][]string) error {
	keys := make([]string, 0, len(errs))
	for k := range errs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		msgs := make([]string, len(errs[k]))
		for i, m := range errs[k] {
			msgs[i] = fmt.Sprintf("%q", m)
		}
		parts = append(parts, ":"+k+"=>["+strings.Join(msgs, ", ")+"]")
	}
	return apperr.Refused("Failed to " + op + " milestone {" + strings.Join(parts, ", ") + "}")
}
