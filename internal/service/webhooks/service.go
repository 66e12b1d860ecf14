// Package webhooks manages system, group and project hooks and delivers events to them.
//
// Delivery is durable and at least once: a change that fires hooks enqueues one DeliveryJob
// per matching hook inside its own transaction (Trigger), so the intent commits or rolls back
// with the change and survives a crash; the job queue (internal/jobs) runs the delivery, which
// POSTs the payload through the SSRF-safe client of internal/outbound, logs it
// (WebHookLog) and keeps the hook's failure count. Hooks that keep failing are disabled as
// GitLab does (disable.go): temporarily from the fourth consecutive failure, with a backoff
// doubling from one minute to a day, and permanently after the fortieth; a successful test or
// resend re-enables them.
package webhooks

import (
	"context"
	"log/slog"
	"time"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/jobs"
	"anvil/internal/secretbox"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Deps are the collaborators of the webhook service.
type Deps struct {
	Client   *ent.Client
	Policy   *authz.Policy
	Projects *projects.Service
	Settings *settings.Service
	Jobs     jobs.Enqueuer
	Log      *slog.Logger
	// Secrets encrypts hooks' URLs and tokens at rest.
	Secrets *secretbox.Box
	// ExternalURL is the instance's URL (payload URLs, X-Gitlab-Instance).
	ExternalURL string
}

// Later are the collaborators built after the webhook service (they call it): group hooks are
// found through the group service, push payloads read the repository.
type Later struct {
	Groups *groups.Service
	Repos  Repositories
	// Protected says whether a branch is protected (ref_protected of push payloads).
	Protected BranchProtection
	// SnippetContent reads a snippet's first file (the snippet of note payloads).
	SnippetContent func(ctx context.Context, sn *ent.Snippet) (string, error)
}

// BranchProtection is what push payloads need of branch protection.
type BranchProtection interface {
	IsProtected(ctx context.Context, p *ent.Project, branch string) (bool, error)
}

// Repositories opens a project's repository (the repository service).
type Repositories interface {
	Repository(p *ent.Project) (*git.Repository, error)
}

// Service is the webhook service.
type Service struct {
	Deps
	groups    *groups.Service
	repos     Repositories
	snippets  func(ctx context.Context, sn *ent.Snippet) (string, error)
	protected BranchProtection
	// now is the clock: auto-disabling and the event window read it (tests move it).
	now     func() time.Time
	limiter *limiter
}

// New returns the webhook service; Complete gives it the collaborators built after it.
func New(d Deps) *Service {
	wire.Require("webhooks", wire.D("client", d.Client), wire.D("policy", d.Policy),
		wire.D("projects", d.Projects), wire.D("settings", d.Settings), wire.D("jobs", d.Jobs),
		wire.D("logger", d.Log), wire.D("secrets", d.Secrets))
	s := &Service{Deps: d, now: time.Now}
	s.limiter = newLimiter(func() time.Time { return s.now() })
	s.registerSystemEvents()
	s.registerMemberEvents()
	s.registerRenameEvents()
	s.registerEncryption(d.Secrets)
	return s
}

// Complete adds the collaborators built after the service.
func (s *Service) Complete(l Later) {
	wire.Require("webhooks", wire.D("groups", l.Groups), wire.D("repositories", l.Repos),
		wire.D("snippet content", l.SnippetContent), wire.D("branch protection", l.Protected))
	s.groups, s.repos, s.snippets, s.protected = l.Groups, l.Repos, l.SnippetContent, l.Protected
}

// SetClock replaces the service's clock (tests travel through the auto-disable backoff).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }
