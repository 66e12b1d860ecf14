package config

import (
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"
)

// GitAuthBan is GitLab's failed-authentication ban for git over HTTP and the registry's token
// endpoint (Rack::Attack's git_basic_auth): MaxRetry failed authentications from one IP
// address within FindTime ban that address for BanTime; a successful authentication resets
// its count. Addresses in Allowlist are never banned.
type GitAuthBan struct {
	// Disabled switches the ban off (ANVIL_GIT_AUTH_BAN_ENABLED=false). It is on by default,
	// where GitLab ships it off: Anvil's hardening asks for it.
	Disabled bool
	// MaxRetry is the number of failures that bans (ANVIL_GIT_AUTH_BAN_MAX_RETRY, default 30).
	MaxRetry int
	// FindTime is the window the failures are counted in (ANVIL_GIT_AUTH_BAN_FIND_TIME, a Go
	// duration, default 3m).
	FindTime time.Duration
	// BanTime is how long a banned address is refused (ANVIL_GIT_AUTH_BAN_TIME, default 1h).
	BanTime time.Duration
	// Allowlist holds the addresses and networks never banned (ANVIL_GIT_AUTH_BAN_IP_ALLOWLIST,
	// comma-separated, default "127.0.0.1,::1" as GitLab's ip_whitelist; an explicit empty
	// value is not possible from the environment: use "none" for an empty list).
	Allowlist []netip.Prefix
}

// Monitoring configures who may read the monitoring endpoint /-/metrics (GitLab's
// monitoring IP allowlist).
type Monitoring struct {
	// IPAllowlist holds the addresses and networks allowed (ANVIL_MONITORING_IP_ALLOWLIST,
	// comma-separated, default "127.0.0.0/8,::1/128" as GitLab's monitoring_whitelist); others
	// get 404.
	IPAllowlist []netip.Prefix
}

// Defaults of the security settings.
var (
	defaultBanAllowlist        = "127.0.0.1,::1"
	defaultMonitoringAllowlist = "127.0.0.0/8,::1/128"
)

// securityFromEnv reads the ban and monitoring settings.
func (c *Config) securityFromEnv() error {
	b := &c.GitAuthBan
	if v := os.Getenv("ANVIL_GIT_AUTH_BAN_ENABLED"); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("ANVIL_GIT_AUTH_BAN_ENABLED %q: want true or false", v)
		}
		b.Disabled = !on
	}
	if v := os.Getenv("ANVIL_GIT_AUTH_BAN_MAX_RETRY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("ANVIL_GIT_AUTH_BAN_MAX_RETRY %q: want a positive number", v)
		}
		b.MaxRetry = n
	}
	for _, d := range []struct {
		key string
		dst *time.Duration
	}{{"ANVIL_GIT_AUTH_BAN_FIND_TIME", &b.FindTime}, {"ANVIL_GIT_AUTH_BAN_TIME", &b.BanTime}} {
		if v := os.Getenv(d.key); v != "" {
			t, err := time.ParseDuration(v)
			if err != nil || t <= 0 {
				return fmt.Errorf("%s %q: want a positive duration such as 3m or 1h", d.key, v)
			}
			*d.dst = t
		}
	}
	var err error
	if b.Allowlist, err = ParseIPList("ANVIL_GIT_AUTH_BAN_IP_ALLOWLIST", getenv("ANVIL_GIT_AUTH_BAN_IP_ALLOWLIST", defaultBanAllowlist)); err != nil {
		return err
	}
	c.Monitoring.IPAllowlist, err = ParseIPList("ANVIL_MONITORING_IP_ALLOWLIST", getenv("ANVIL_MONITORING_IP_ALLOWLIST", defaultMonitoringAllowlist))
	return err
}

// normalizeSecurity fills the ban's defaults left unset (a Config built in code, as tests do,
// gets GitLab's numbers and the loopback allowlists).
func (c *Config) normalizeSecurity() {
	b := &c.GitAuthBan
	if b.MaxRetry == 0 {
		b.MaxRetry = 30
	}
	if b.FindTime == 0 {
		b.FindTime = 3 * time.Minute
	}
	if b.BanTime == 0 {
		b.BanTime = time.Hour
	}
	if b.Allowlist == nil {
		b.Allowlist, _ = ParseIPList("", defaultBanAllowlist)
	}
	if c.Monitoring.IPAllowlist == nil {
		c.Monitoring.IPAllowlist, _ = ParseIPList("", defaultMonitoringAllowlist)
	}
}

// ParseIPList reads a comma-separated list of IP addresses and CIDR networks; "none" is the
// empty list (not nil: an empty list allows no one).
func ParseIPList(key, s string) ([]netip.Prefix, error) {
	out := []netip.Prefix{}
	if strings.TrimSpace(s) == "none" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not an IP address or network", key, part)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// IPAllowed reports whether the address ip (as net/http's RemoteAddr host gives it) is in list.
func IPAllowed(list []netip.Prefix, ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
