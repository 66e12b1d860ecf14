package timetracking

import (
	"context"
	"math"
	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/timelog"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// MaxTotalTimeSpent bounds an object's total spent time: about 4 years (GitLab's
// Timelog::MAX_TOTAL_TIME_SPENT, below 2^31 so GraphQL's Int holds it).
const MaxTotalTimeSpent = 126230400

// maxEstimate is the largest estimate stored (GitLab clamps to its integer column).
const maxEstimate = math.MaxInt32

// estimateInvalid is GitLab's refusal of an estimate it cannot read or that is negative.
const estimateInvalid = "Time estimate must have a valid format and be greater than or equal to zero."

// Stats returns the time tracking of ref for an actor who may read it.
func (s *Service) Stats(ctx context.Context, actor *authz.Actor, ref Ref) (Stats, error) {
	_, it, err := s.find(ctx, actor, ref, false)
	if err != nil {
		return Stats{}, err
	}
	return Stats{TimeEstimate: it.TimeEstimate, TotalTimeSpent: it.TotalTimeSpent}, nil
}

// find returns ref's kind and the object; admin requires the right to change its time
// tracking (403, or 401 for anonymous callers).
func (s *Service) find(ctx context.Context, actor *authz.Actor, ref Ref, admin bool) (Trackable, *Item, error) {
	k, err := s.kind(ref.Type)
	if err != nil {
		return nil, nil, err
	}
	it, err := k.Find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	if admin && !it.Admin {
		if it.Anonymous {
			return nil, nil, apperr.Unauthorized()
		}
		return nil, nil, apperr.Forbidden("")
	}
	return k, it, nil
}

// SetEstimate sets ref's time estimate to the human duration (POST .../time_estimate); 0 is
// allowed. As GitLab, the caller is authorized before the duration is read. A changed
// estimate writes GitLab's system note.
func (s *Service) SetEstimate(ctx context.Context, actor *authz.Actor, ref Ref, duration string) (Stats, error) {
	k, it, err := s.find(ctx, actor, ref, true)
	if err != nil {
		return Stats{}, err
	}
	secs, ok := Parse(duration, true)
	if !ok || secs < 0 {
		return Stats{}, apperr.BadRequest(estimateInvalid)
	}
	return s.estimate(ctx, actor, k, it, min(secs, maxEstimate))
}

// ResetEstimate sets ref's time estimate to 0 (POST .../reset_time_estimate).
func (s *Service) ResetEstimate(ctx context.Context, actor *authz.Actor, ref Ref) (Stats, error) {
	k, it, err := s.find(ctx, actor, ref, true)
	if err != nil {
		return Stats{}, err
	}
	return s.estimate(ctx, actor, k, it, 0)
}

func (s *Service) estimate(ctx context.Context, actor *authz.Actor, k Trackable, it *Item, secs int) (Stats, error) {
	hours := s.HoursOnly(ctx)
	var out Stats
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		old, total, err := k.Read(ctx, c, it, false)
		if err != nil {
			return err
		}
		out = Stats{TimeEstimate: secs, TotalTimeSpent: total}
		if old == secs {
			return nil
		}
		if err := k.Save(ctx, c, actor, it, &secs, nil); err != nil {
			return err
		}
		body := "removed time estimate"
		if secs != 0 {
			body = "changed time estimate to " + Human(secs, hours)
		}
		return s.notes.AddSystem(ctx, it.Note, author(actor), body)
	})
	return out, err
}

// AddSpent logs time spent on ref (POST .../add_spent_time): a negative duration subtracts,
// never below a total of 0 nor above MaxTotalTimeSpent.
func (s *Service) AddSpent(ctx context.Context, actor *authz.Actor, ref Ref, duration string, summary *string) (Stats, error) {
	k, it, err := s.find(ctx, actor, ref, true)
	if err != nil {
		return Stats{}, err
	}
	secs, ok := Parse(duration, false)
	if !ok {
		return Stats{}, apperr.FieldError("timelogs.time_spent", "can't be blank")
	}
	if summary != nil && utf8.RuneCountInString(*summary) > 255 {
		return Stats{}, apperr.FieldError("timelogs.summary", "is too long (maximum is 255 characters)")
	}
	hours := s.HoursOnly(ctx)
	var out Stats
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		estimate, total, err := k.Read(ctx, c, it, true)
		if err != nil {
			return err
		}
		switch {
		case secs < 0 && -secs > total:
			return apperr.Validation(map[string][]string{
				"base":          {"Time to subtract exceeds the total time spent"},
				"timelogs.base": {"Total time spent cannot be negative."},
			})
		case total+secs > MaxTotalTimeSpent:
			return apperr.FieldError("timelogs.base", "Total time spent cannot exceed 4 years.")
		}
		if err := s.log(ctx, c, actor, it, secs, summary); err != nil {
			return err
		}
		total += secs
		out = Stats{TimeEstimate: estimate, TotalTimeSpent: total}
		if err := k.Save(ctx, c, actor, it, nil, &total); err != nil {
			return err
		}
		verb, abs := "added", secs
		if secs < 0 {
			verb, abs = "subtracted", -secs
		}
		return s.notes.AddSystem(ctx, it.Note, author(actor), verb+" "+Human(abs, hours)+" of time spent")
	})
	return out, err
}

// ResetSpent takes ref's total spent time back to 0 (POST .../reset_spent_time) with a
// timelog of minus the total, as GitLab does, and its "removed time spent" note.
func (s *Service) ResetSpent(ctx context.Context, actor *authz.Actor, ref Ref) (Stats, error) {
	k, it, err := s.find(ctx, actor, ref, true)
	if err != nil {
		return Stats{}, err
	}
	var out Stats
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		estimate, total, err := k.Read(ctx, c, it, true)
		if err != nil {
			return err
		}
		if err := s.log(ctx, c, actor, it, -total, nil); err != nil {
			return err
		}
		zero := 0
		out = Stats{TimeEstimate: estimate}
		if err := k.Save(ctx, c, actor, it, nil, &zero); err != nil {
			return err
		}
		return s.notes.AddSystem(ctx, it.Note, author(actor), "removed time spent")
	})
	return out, err
}

// log writes one timelog of the actor on the object.
func (s *Service) log(ctx context.Context, c *ent.Client, actor *authz.Actor, it *Item, secs int, summary *string) error {
	create := c.Timelog.Create().SetTargetType(timelog.TargetType(it.Type)).SetTargetID(it.ID).
		SetProjectID(it.ProjectID).SetTimeSpent(secs).SetNillableSummary(summary)
	if !actor.IsAnonymous() {
		create.SetUserID(actor.UserID())
	}
	return create.Exec(ctx)
}

// author is the actor as a note's author (nil when anonymous).
func author(actor *authz.Actor) *int {
	if actor.IsAnonymous() {
		return nil
	}
	id := actor.UserID()
	return &id
}
