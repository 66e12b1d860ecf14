package config

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func prefixes(list ...string) []netip.Prefix {
	out := []netip.Prefix{}
	for _, s := range list {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}

func TestFromEnv_securityDefaults(t *testing.T) {
	clearEnv(t)
	c, err := FromEnv()
	require.NoError(t, err)
	assert.Equal(t, GitAuthBan{MaxRetry: 30, FindTime: 3 * time.Minute, BanTime: time.Hour,
		Allowlist: prefixes("127.0.0.1/32", "::1/128")}, c.GitAuthBan, "GitLab's numbers, on, loopback allowed")
	assert.Equal(t, prefixes("127.0.0.0/8", "::1/128"), c.Monitoring.IPAllowlist)
}

func TestFromEnv_securityOverrides(t *testing.T) {
	clearEnv(t)
	t.Setenv("ANVIL_GIT_AUTH_BAN_ENABLED", "false")
	t.Setenv("ANVIL_GIT_AUTH_BAN_MAX_RETRY", "5")
	t.Setenv("ANVIL_GIT_AUTH_BAN_FIND_TIME", "1m")
	t.Setenv("ANVIL_GIT_AUTH_BAN_TIME", "2h")
	t.Setenv("ANVIL_GIT_AUTH_BAN_IP_ALLOWLIST", "none")
	t.Setenv("ANVIL_MONITORING_IP_ALLOWLIST", "10.0.0.0/8, 192.168.1.7,::1")
	c, err := FromEnv()
	require.NoError(t, err)
	assert.Equal(t, GitAuthBan{Disabled: true, MaxRetry: 5, FindTime: time.Minute, BanTime: 2 * time.Hour,
		Allowlist: []netip.Prefix{}}, c.GitAuthBan)
	assert.Equal(t, prefixes("10.0.0.0/8", "192.168.1.7/32", "::1/128"), c.Monitoring.IPAllowlist)
}

func TestFromEnv_securityInvalid(t *testing.T) {
	for _, tc := range []struct{ key, value, want string }{
		{"ANVIL_GIT_AUTH_BAN_ENABLED", "maybe", "want true or false"},
		{"ANVIL_GIT_AUTH_BAN_MAX_RETRY", "0", "want a positive number"},
		{"ANVIL_GIT_AUTH_BAN_FIND_TIME", "3", "want a positive duration"},
		{"ANVIL_GIT_AUTH_BAN_TIME", "-1h", "want a positive duration"},
		{"ANVIL_GIT_AUTH_BAN_IP_ALLOWLIST", "localhost", `"localhost" is not an IP address or network`},
		{"ANVIL_MONITORING_IP_ALLOWLIST", "10.0.0.0/33", `"10.0.0.0/33" is not an IP address or network`},
	} {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(tc.key, tc.value)
			_, err := FromEnv()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.key)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestIPAllowed(t *testing.T) {
	list := prefixes("127.0.0.0/8", "::1/128", "10.1.2.3/32")
	for ip, want := range map[string]bool{
		"127.0.0.1": true, "127.9.9.9": true, "::1": true, "::ffff:127.0.0.1": true, "10.1.2.3": true,
		"10.1.2.4": false, "192.168.0.1": false, "": false, "not-an-ip": false, "fe80::1%eth0": false,
	} {
		assert.Equal(t, want, IPAllowed(list, ip), ip)
	}
	assert.False(t, IPAllowed([]netip.Prefix{}, "127.0.0.1"), "an empty list allows no one")
}
