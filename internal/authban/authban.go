// Package authban is GitLab's failed-authentication ban for git and container registry
// clients (Rack::Attack's Fail2Ban as GitLab configures it for git_basic_auth): an address
// that fails authentication MaxRetry times within FindTime is refused for BanTime, and a
// successful authentication clears its count. The state lives in this process's memory
// (GitLab keeps it in Redis, shared by its nodes): with several replicas, each one counts and
// bans on its own.
package authban

import (
	"sync"
	"time"

	"anvil/internal/config"
)

// Limiter counts failures and bans addresses. The zero value is not usable; see New.
type Limiter struct {
	cfg config.GitAuthBan
	now func() time.Time

	mu    sync.Mutex
	ips   map[string]*record
	calls int
}

// record is one address's failures in the current window and its ban.
type record struct {
	windowEnd   time.Time
	failures    int
	bannedUntil time.Time
}

// New returns a limiter with cfg's numbers; now is the clock (time.Now when nil).
func New(cfg config.GitAuthBan, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{cfg: cfg, now: now, ips: map[string]*record{}}
}

// exempt reports addresses the ban never applies to.
func (l *Limiter) exempt(ip string) bool {
	return l.cfg.Disabled || config.IPAllowed(l.cfg.Allowlist, ip)
}

// Banned reports whether ip is banned now.
func (l *Limiter) Banned(ip string) bool {
	if l.exempt(ip) {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.ips[ip]
	return r != nil && l.now().Before(r.bannedUntil)
}

// Fail counts a failed authentication from ip and reports whether it banned the address.
// Failures are counted in a window of FindTime that starts with the first one, as
// Rack::Attack's counter key expires.
func (l *Limiter) Fail(ip string) (banned bool) {
	if l.exempt(ip) {
		return false
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	r := l.ips[ip]
	if r == nil {
		r = &record{}
		l.ips[ip] = r
	}
	if !now.Before(r.windowEnd) {
		r.windowEnd, r.failures = now.Add(l.cfg.FindTime), 0
	}
	r.failures++
	if r.failures >= l.cfg.MaxRetry && !now.Before(r.bannedUntil) {
		r.bannedUntil = now.Add(l.cfg.BanTime)
		return true
	}
	return false
}

// Reset clears ip's failure count after a successful authentication. A ban in force stays:
// a banned address is refused before its credentials are checked.
func (l *Limiter) Reset(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.ips[ip]; r != nil {
		r.failures, r.windowEnd = 0, time.Time{}
		if !l.now().Before(r.bannedUntil) {
			delete(l.ips, ip)
		}
	}
}

// sweep forgets, every 1,024 failures, the addresses whose window and ban have both ended, so
// that the map holds only addresses failing now.
func (l *Limiter) sweep(now time.Time) {
	l.calls++
	if l.calls%1024 != 0 {
		return
	}
	for ip, r := range l.ips {
		if !now.Before(r.windowEnd) && !now.Before(r.bannedUntil) {
			delete(l.ips, ip)
		}
	}
}
