package webhookapi_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/webhooks"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a test clock the webhook service reads.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// hookFixture is a project hook pointing at a receiver, with the service on a test clock.
type hookFixture struct {
	f    *servertest.RepoFixture
	rcv  *receiver
	clk  *clock
	svc  *webhooks.Service
	base string // /projects/:id/hooks/:hook_id
	id   int
}

func newHookFixture(t *testing.T) *hookFixture {
	t.Helper()
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	clk := &clock{t: time.Now()}
	svc := f.In.Services.Webhooks
	svc.SetClock(clk.now)
	rcv := newReceiver(t)
	p := f.ProjectWithReadme(t, "hooked", "private")
	r := f.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/hooks", "maintainer", `{"url":"`+rcv.URL+`"}`)
	require.Equal(t, 201, r.Status, r.String())
	id := int(servertest.Object(t, r)["id"].(float64))
	return &hookFixture{f: f, rcv: rcv, clk: clk, svc: svc, id: id,
		base: "/projects/" + strconv.Itoa(p.ID) + "/hooks/" + strconv.Itoa(id)}
}

// deliver runs one delivery job to the hook, as the queue would.
func (h *hookFixture) deliver(t *testing.T, n int) {
	t.Helper()
	require.NoError(t, h.svc.RunDelivery(context.Background(), webhooks.DeliveryJob{HookID: h.id, Trigger: "push_hooks",
		Header: "Push Hook", Payload: []byte(`{"object_kind":"push","n":` + strconv.Itoa(n) + `}`),
		EventUUID: webhooks.NewUUID(), IdempotencyKey: webhooks.NewUUID()}))
}

// state reads the hook's alert_status and disabled_until through the API.
func (h *hookFixture) state(t *testing.T) (string, any) {
	t.Helper()
	r := h.f.Do(t, "GET", h.base, "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	o := servertest.Object(t, r)
	return o["alert_status"].(string), o["disabled_until"]
}

// TestAutoDisable_ladder drives a failing receiver through GitLab's ladder on a test clock:
// three failures leave the hook executable; from the fourth it is temporarily disabled (and
// receives nothing) for one minute, then two, doubling up to a day; the fortieth disables it
// for good. A successful resend re-enables it.
func TestAutoDisable_ladder(t *testing.T) {
	h := newHookFixture(t)
	h.rcv.status.Store(500)
	for i := 1; i <= 3; i++ {
		h.deliver(t, i)
		st, until := h.state(t)
		assert.Equal(t, "executable", st, "after failure %d", i)
		assert.Nil(t, until)
	}
	sent := 3
	for i := 4; i <= 39; i++ {
		h.deliver(t, i)
		sent++
		require.Len(t, h.rcv.deliveries(), sent, "failure %d was delivered", i)
		st, until := h.state(t)
		require.Equal(t, "temporarily_disabled", st, "after failure %d", i)
		want := time.Minute
		for k := 4; k < i && want < 24*time.Hour; k++ {
			want *= 2
		}
		want = min(want, 24*time.Hour)
		at, err := time.Parse(time.RFC3339, until.(string))
		require.NoError(t, err)
		assert.WithinDuration(t, h.clk.now().Add(want), at, time.Second, "backoff after failure %d", i)
		// While disabled, deliveries are dropped.
		h.deliver(t, -i)
		require.Len(t, h.rcv.deliveries(), sent, "a disabled hook received a delivery")
		h.clk.add(want + time.Second)
		st, _ = h.state(t)
		require.Equal(t, "executable", st, "after the backoff of failure %d", i)
	}
	h.deliver(t, 40)
	st, until := h.state(t)
	assert.Equal(t, "disabled", st, "the fortieth failure disables the hook for good")
	assert.Nil(t, until)
	h.clk.add(48 * time.Hour)
	h.deliver(t, 41)
	require.Len(t, h.rcv.deliveries(), 40, "a permanently disabled hook receives nothing")
	st, _ = h.state(t)
	assert.Equal(t, "disabled", st)

	// A resend that succeeds re-enables the hook.
	h.rcv.status.Store(200)
	r := h.f.Do(t, "GET", h.base+"/events?per_page=1", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	logID := strconv.Itoa(int(servertest.List(t, r)[0]["id"].(float64)))
	r = h.f.Do(t, "POST", h.base+"/events/"+logID+"/resend", "maintainer", nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, map[string]any{"response_status": float64(200)}, servertest.Object(t, r))
	st, until = h.state(t)
	assert.Equal(t, "executable", st)
	assert.Nil(t, until)
	stored, err := h.f.In.Services.DB.Client.WebHook.Get(context.Background(), h.id)
	require.NoError(t, err)
	assert.Zero(t, stored.RecentFailures)
	assert.Zero(t, stored.BackoffCount)
}

// TestResend_keepsIdempotencyKeyAndIsRateLimited: a resend delivers the logged payload again
// with the same Idempotency-Key and a new webhook UUID; five a minute per hook and user are
// allowed, the sixth answers 429, and a minute later resends are allowed again. A failing
// receiver answers 422.
func TestResend_keepsIdempotencyKeyAndIsRateLimited(t *testing.T) {
	h := newHookFixture(t)
	h.deliver(t, 1)
	first := h.rcv.wait(t, 1)[0]
	r := h.f.Do(t, "GET", h.base+"/events", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	logID := strconv.Itoa(int(servertest.List(t, r)[0]["id"].(float64)))
	for i := 0; i < 5; i++ {
		r = h.f.Do(t, "POST", h.base+"/events/"+logID+"/resend", "maintainer", nil)
		require.Equal(t, 201, r.Status, "resend %d: %s", i+1, r)
	}
	got := h.rcv.deliveries()
	require.Len(t, got, 6)
	for _, d := range got[1:] {
		assert.Equal(t, first.Header.Get("Idempotency-Key"), d.Header.Get("Idempotency-Key"))
		assert.NotEqual(t, first.Header.Get("X-Gitlab-Webhook-UUID"), d.Header.Get("X-Gitlab-Webhook-UUID"))
		assert.Equal(t, first.Body, d.Body)
	}
	r = h.f.Do(t, "POST", h.base+"/events/"+logID+"/resend", "maintainer", nil)
	require.Equal(t, 429, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"error": "This endpoint has been requested too many times. Try again later."}}, servertest.Object(t, r))
	assert.NotEmpty(t, r.Header.Get("Retry-After"))
	require.Len(t, h.rcv.deliveries(), 6, "the refused resend delivered nothing")
	h.clk.add(61 * time.Second)
	h.rcv.status.Store(503)
	r = h.f.Do(t, "POST", h.base+"/events/"+logID+"/resend", "maintainer", nil)
	require.Equal(t, 422, r.Status, r.String())
	assert.Equal(t, 404, h.f.Do(t, "POST", h.base+"/events/999999/resend", "maintainer", nil).Status)
	assert.Equal(t, 403, h.f.Do(t, "POST", h.base+"/events/"+logID+"/resend", "developer", nil).Status)
}

// TestEvents_statusFilterAndWindow: the event list filters by an exact status or a class,
// refuses other values, pages, and shows only the past seven days.
func TestEvents_statusFilterAndWindow(t *testing.T) {
	h := newHookFixture(t)
	for i, code := range []int32{200, 201, 404, 500, 502} {
		h.rcv.status.Store(code)
		h.deliver(t, i)
	}
	count := func(q string) int {
		r := h.f.Do(t, "GET", h.base+"/events"+q, "maintainer", nil)
		require.Equal(t, 200, r.Status, r.String())
		return len(servertest.List(t, r))
	}
	assert.Equal(t, 5, count(""))
	assert.Equal(t, 2, count("?status=successful"))
	assert.Equal(t, 1, count("?status=client_failure"))
	assert.Equal(t, 2, count("?status=server_failure"))
	assert.Equal(t, 1, count("?status=502"))
	assert.Equal(t, 0, count("?status=301"))
	assert.Equal(t, 2, count("?per_page=2"))
	r := h.f.Do(t, "GET", h.base+"/events?per_page=2", "maintainer", nil)
	assert.Equal(t, "5", r.Header.Get("X-Total"))
	assert.Equal(t, "502", servertest.List(t, r)[0]["response_status"], "newest first")
	servertest.RequireError(t, h.f.Do(t, "GET", h.base+"/events?status=sometimes", "maintainer", nil), 400, "error", "status does not have a valid value")
	h.clk.add(8 * 24 * time.Hour)
	assert.Equal(t, 0, count(""), "events older than seven days are not listed")
}

// TestHookTest_deliversSampleData: POST .../test/push_events sends a push of the default
// branch's last commits (201), tests are rate-limited like resends, a failing receiver
// answers 422 and an unknown trigger 400.
func TestHookTest_deliversSampleData(t *testing.T) {
	h := newHookFixture(t)
	r := h.f.Do(t, "POST", h.base+"/test/push_events", "maintainer", nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": "201 Created"}, servertest.Object(t, r))
	d := h.rcv.wait(t, 1)[0]
	assert.Equal(t, "Push Hook", d.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "push", d.Body["object_kind"])
	assert.Equal(t, "refs/heads/main", d.Body["ref"])
	assert.Len(t, d.Body["commits"], 1)
	servertest.RequireError(t, h.f.Do(t, "POST", h.base+"/test/bogus_events", "maintainer", nil), 400, "error", "trigger does not have a valid value")
	r = h.f.Do(t, "POST", h.base+"/test/issues_events", "maintainer", nil)
	require.Equal(t, 422, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": "Ensure the project has issues."}, servertest.Object(t, r))
	h.rcv.status.Store(500)
	r = h.f.Do(t, "POST", h.base+"/test/tag_push_events", "maintainer", nil)
	require.Equal(t, 422, r.Status, r.String())
	for i := 0; i < 5; i++ {
		r = h.f.Do(t, "POST", h.base+"/test/push_events", "maintainer", nil)
	}
	assert.Equal(t, 429, r.Status, r.String())
}

// TestGroupHookTest_usesFirstProjectWithCommits: a group hook's test takes its sample from the
// group's first project with commits (422 while it has none), and a note test the project's
// newest comment.
func TestGroupHookTest_usesFirstProjectWithCommits(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	rcv := newReceiver(t)
	gid := strconv.Itoa(f.Group.ID)
	// Without push events: the projects' own pushes stay out of the receiver, only tests reach it.
	r := f.Do(t, "POST", "/groups/"+gid+"/hooks", "root", `{"url":"`+rcv.URL+`","push_events":false}`)
	require.Equal(t, 201, r.Status, r.String())
	base := "/groups/" + gid + "/hooks/" + strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))
	f.Project(t, "empty", "private")
	r = f.Do(t, "POST", base+"/test/push_events", "root", nil)
	require.Equal(t, 422, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": "Ensure the group has a project with commits."}, servertest.Object(t, r))
	assert.Equal(t, 403, f.Do(t, "POST", base+"/test/push_events", "maintainer", nil).Status, "group hooks are for Owners")

	p := f.ProjectWithReadme(t, "full", "private")
	r = f.Do(t, "POST", base+"/test/push_events", "root", nil)
	require.Equal(t, 201, r.Status, r.String())
	d := rcv.wait(t, 1)[0]
	assert.Equal(t, "Push Hook", d.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "g/full", d.Body["project"].(map[string]any)["path_with_namespace"])

	r = f.Do(t, "POST", base+"/test/note_events", "root", nil)
	require.Equal(t, 422, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": "Ensure the project has notes."}, servertest.Object(t, r))
	pid := strconv.Itoa(p.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/issues", "developer", `{"title":"T"}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/issues/1/notes", "developer", `{"body":"Sample me"}`).Status)
	r = f.Do(t, "POST", base+"/test/note_events", "root", nil)
	require.Equal(t, 201, r.Status, r.String())
	d = rcv.wait(t, 2)[1]
	assert.Equal(t, "Note Hook", d.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "Sample me", d.Body["object_attributes"].(map[string]any)["note"])
	assert.Equal(t, "T", d.Body["issue"].(map[string]any)["title"])
}
