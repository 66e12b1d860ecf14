// Package timetracking is GitLab's time tracking of issues and merge requests: human durations
// ("3h30m", "1w 2d"; Parse and Human), the estimate and the spent time of each, and the
// timelogs the spent time is the sum of. Each trackable domain registers a Trackable (find the
// object for an actor, write its two columns and tell its observers); the writes, the
// timelogs, the totals kept in step and the system notes are done here once, in one
// transaction.
package timetracking

import (
	"context"
	"fmt"
	"sync"

	"anvil/internal/authz"
	"anvil/internal/service/notes"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"

	"anvil/ent"
)

// Types of trackable objects: the timelog target_type.
const (
	TypeIssue        = "Issue"
	TypeMergeRequest = "MergeRequest"
)

// LimitToHoursSetting is the instance setting that formats durations in hours only.
const LimitToHoursSetting = "time_tracking_limit_to_hours"

// Ref names a trackable object as a request does: its type, its project (id or path) and its
// iid there.
type Ref struct {
	Type    string
	Project string
	IID     string
}

// Item is a trackable object found for an actor.
type Item struct {
	Type      string
	ID        int
	ProjectID int
	// TimeEstimate and TotalTimeSpent are the object's columns as found.
	TimeEstimate   int
	TotalTimeSpent int
	// Admin: the actor may change the object's time tracking (admin_issue,
	// admin_merge_request), once it reads it.
	Admin bool
	// Anonymous: the actor is not signed in (refusals are 401 rather than 403).
	Anonymous bool
	// Note is where the object's system notes go.
	Note *notes.Target
	// Object is the domain's own entity as found (its Before state).
	Object any
}

// Trackable is one kind of trackable object; its domain implements it.
type Trackable interface {
	// Find returns the object ref for actor, or the domain's not-found error when the actor
	// may not read it.
	Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Item, error)
	// Read returns the object's current columns in ctx's transaction; lock first takes its
	// row for the rest of the transaction (an update that touches updated_at, as GitLab's
	// timelog touches its issuable), so concurrent timelogs keep the total in step.
	Read(ctx context.Context, c *ent.Client, it *Item, lock bool) (estimate, total int, err error)
	// Save writes the columns in ctx's transaction (nil: unchanged) and hands the change to
	// the domain's observers.
	Save(ctx context.Context, c *ent.Client, actor *authz.Actor, it *Item, estimate, total *int) error
}

// Stats is an object's time tracking in seconds (the API adds the human forms).
type Stats struct {
	TimeEstimate   int
	TotalTimeSpent int
}

// Service is the time tracking service.
type Service struct {
	client   *ent.Client
	notes    *notes.Service
	settings *settings.Service

	mu    sync.RWMutex
	kinds map[string]Trackable
}

// New returns the time tracking service; trackable kinds are registered afterwards.
func New(client *ent.Client, n *notes.Service, st *settings.Service) *Service {
	wire.Require("timetracking", wire.D("client", client), wire.D("notes", n), wire.D("settings", st))
	return &Service{client: client, notes: n, settings: st, kinds: map[string]Trackable{}}
}

// Register adds a trackable kind under its type.
func (s *Service) Register(typ string, t Trackable) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kinds[typ] = t
}

func (s *Service) kind(typ string) (Trackable, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.kinds[typ]
	if !ok {
		return nil, fmt.Errorf("timetracking: no trackable kind %q registered", typ)
	}
	return t, nil
}

// HoursOnly reports the time_tracking_limit_to_hours setting.
func (s *Service) HoursOnly(ctx context.Context) bool {
	return s.settings.Bool(ctx, LimitToHoursSetting)
}
