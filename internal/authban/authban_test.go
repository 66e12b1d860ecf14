package authban

import (
	"net/netip"
	"testing"
	"time"

	"anvil/internal/config"

	"github.com/stretchr/testify/assert"
)

// clock is a settable time source.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newLimiter(c *clock, allow ...string) *Limiter {
	list := []netip.Prefix{}
	for _, a := range allow {
		list = append(list, netip.MustParsePrefix(a))
	}
	return New(config.GitAuthBan{MaxRetry: 30, FindTime: 3 * time.Minute, BanTime: time.Hour, Allowlist: list}, c.now)
}

func TestLimiter_bansAfterMaxRetryWithinFindTime(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := newLimiter(c)
	for i := 1; i < 30; i++ {
		assert.False(t, l.Fail("203.0.113.7"), "failure %d", i)
		c.t = c.t.Add(time.Second)
	}
	assert.False(t, l.Banned("203.0.113.7"))
	assert.True(t, l.Fail("203.0.113.7"), "the 30th failure bans")
	assert.True(t, l.Banned("203.0.113.7"))
	assert.False(t, l.Banned("203.0.113.8"), "other addresses are not banned")

	c.t = c.t.Add(59 * time.Minute)
	assert.True(t, l.Banned("203.0.113.7"), "still banned within the hour")
	l.Reset("203.0.113.7")
	assert.True(t, l.Banned("203.0.113.7"), "a success does not lift a ban")
	c.t = c.t.Add(time.Minute)
	assert.False(t, l.Banned("203.0.113.7"), "the ban ends after an hour")
	assert.False(t, l.Fail("203.0.113.7"), "and the count starts again")
}

func TestLimiter_windowAndReset(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := newLimiter(c)
	for i := 0; i < 29; i++ {
		l.Fail("198.51.100.1")
	}
	c.t = c.t.Add(3 * time.Minute)
	assert.False(t, l.Fail("198.51.100.1"), "failures older than the window do not count")
	assert.False(t, l.Banned("198.51.100.1"))

	for i := 0; i < 28; i++ {
		l.Fail("198.51.100.1")
	}
	l.Reset("198.51.100.1")
	for i := 0; i < 29; i++ {
		assert.False(t, l.Fail("198.51.100.1"), "a success resets the count (failure %d after it)", i+1)
	}
	assert.True(t, l.Fail("198.51.100.1"))
}

func TestLimiter_allowlistAndDisabled(t *testing.T) {
	c := &clock{t: time.Now()}
	l := newLimiter(c, "127.0.0.1/32", "10.0.0.0/8")
	for i := 0; i < 100; i++ {
		assert.False(t, l.Fail("127.0.0.1"))
		assert.False(t, l.Fail("10.2.3.4"))
	}
	assert.False(t, l.Banned("127.0.0.1"))
	assert.False(t, l.Banned("10.2.3.4"))

	off := New(config.GitAuthBan{Disabled: true, MaxRetry: 1, FindTime: time.Minute, BanTime: time.Hour}, c.now)
	assert.False(t, off.Fail("203.0.113.9"))
	assert.False(t, off.Banned("203.0.113.9"))
}

func TestLimiter_sweepForgetsQuietAddresses(t *testing.T) {
	c := &clock{t: time.Now()}
	l := newLimiter(c)
	l.Fail("203.0.113.1")
	c.t = c.t.Add(4 * time.Minute)
	for i := 0; i < 1024; i++ {
		l.Fail("203.0.113.2")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, kept := l.ips["203.0.113.1"]
	assert.False(t, kept, "an address whose window ended is forgotten")
	assert.Contains(t, l.ips, "203.0.113.2")
}
