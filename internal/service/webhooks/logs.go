package webhooks

import (
	"context"
	"strconv"
	"sync"
	"time"

	"anvil/ent"
	"anvil/ent/webhooklog"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// eventWindow is how far back a hook's events are listed (GitLab keeps seven days).
const eventWindow = 7 * 24 * time.Hour

// EventStatus filters a hook's events: an exact HTTP status, or a class.
type EventStatus struct {
	Code  int
	Class string // successful, client_failure, server_failure
}

// ParseEventStatus reads the status parameter: an integer code or a class name.
func ParseEventStatus(s string) (EventStatus, bool) {
	switch s {
	case "successful", "client_failure", "server_failure":
		return EventStatus{Class: s}, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 100 || n > 599 {
		return EventStatus{}, false
	}
	return EventStatus{Code: n}, true
}

// codes are the statuses an EventStatus selects.
func (st EventStatus) codes() []string {
	if st.Code != 0 {
		return []string{strconv.Itoa(st.Code)}
	}
	lo := map[string]int{"successful": 200, "client_failure": 400, "server_failure": 500}[st.Class]
	out := make([]string, 0, 100)
	for c := lo; c < lo+100; c++ {
		out = append(out, strconv.Itoa(c))
	}
	return out
}

// Events lists a hook's deliveries of the past seven days, newest first.
func (s *Service) Events(ctx context.Context, actor *authz.Actor, sc Scope, hookID int, status *EventStatus, page pagination.Offset) (pagination.Result[*ent.WebHookLog], error) {
	var zero pagination.Result[*ent.WebHookLog]
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return zero, err
	}
	h, err := s.find(ctx, o, hookID)
	if err != nil {
		return zero, err
	}
	q := db.ClientFrom(ctx, s.Client).WebHookLog.Query().Where(webhooklog.WebHookID(h.ID),
		webhooklog.CreatedAtGTE(s.now().Add(-eventWindow)))
	if status != nil {
		q.Where(webhooklog.ResponseStatusIn(status.codes()...))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return zero, err
	}
	rows, err := q.Order(ent.Desc(webhooklog.FieldCreatedAt), ent.Desc(webhooklog.FieldID)).
		Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return zero, err
	}
	return pagination.OffsetResult(rows, total, page), nil
}

// Resend delivers a logged event again to its hook, with the same idempotency key: the
// receiver's status. It is limited to five a minute per hook and user (429 beyond); a
// receiver that fails answers 422 with the reason.
func (s *Service) Resend(ctx context.Context, actor *authz.Actor, sc Scope, hookID, logID int) (int, error) {
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return 0, err
	}
	h, err := s.find(ctx, o, hookID)
	if err != nil {
		return 0, err
	}
	l, err := db.ClientFrom(ctx, s.Client).WebHookLog.Query().
		Where(webhooklog.ID(logID), webhooklog.WebHookID(h.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return 0, apperr.NotFound("")
	}
	if err != nil {
		return 0, err
	}
	if wait, ok := s.limiter.allow("resend", h.ID, actor.UserID()); !ok {
		return 0, apperr.RateLimited(wait)
	}
	j := DeliveryJob{HookID: h.ID, Trigger: l.Trigger, Header: l.RequestHeaders["X-Gitlab-Event"],
		Payload: []byte(l.RequestData), EventUUID: l.RequestHeaders["X-Gitlab-Event-UUID"],
		IdempotencyKey: l.RequestHeaders["Idempotency-Key"]}
	if j.IdempotencyKey == "" {
		j.IdempotencyKey = NewUUID()
	}
	if j.EventUUID == "" {
		j.EventUUID = NewUUID()
	}
	return s.deliverNow(ctx, h, j)
}

// deliverNow delivers at once (tests and resends): the receiver's status, or 422 with the
// reason when it failed.
func (s *Service) deliverNow(ctx context.Context, h *ent.WebHook, j DeliveryJob) (int, error) {
	res, err := s.execute(context.WithoutCancel(ctx), h, j)
	if err != nil {
		return 0, err
	}
	if !res.Success() {
		if res.Status == 0 {
			return 0, apperr.Unprocessable(res.Error)
		}
		return res.Status, apperr.Unprocessable("Error " + strconv.Itoa(res.Status))
	}
	return res.Status, nil
}

// limiter counts calls per (action, hook, user) in a sliding minute: five are allowed
// (GitLab's web_hook_test and web_hook_event_resend limits).
type limiter struct {
	now  func() time.Time
	mu   sync.Mutex
	hits map[string][]time.Time
}

const limitPerMinute = 5

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, hits: map[string][]time.Time{}}
}

// allow records a call and reports whether it is within the limit, else how long to wait.
func (l *limiter) allow(action string, hookID, userID int) (time.Duration, bool) {
	key := action + ":" + strconv.Itoa(hookID) + ":" + strconv.Itoa(userID)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	recent := l.hits[key][:0]
	for _, t := range l.hits[key] {
		if now.Sub(t) < time.Minute {
			recent = append(recent, t)
		}
	}
	if len(recent) >= limitPerMinute {
		l.hits[key] = recent
		return time.Minute - now.Sub(recent[0]), false
	}
	l.hits[key] = append(recent, now)
	return 0, true
}
