package outbound_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"anvil/internal/outbound"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheck_refusesEveryLocalRange: one address of each refused class, as an IP literal and
// (for loopback) as a host name resolving to it, is refused; a public address is not.
func TestCheck_refusesEveryLocalRange(t *testing.T) {
	ctx := context.Background()
	var p outbound.Policy
	for _, tc := range []struct{ url, class string }{
		{"http://127.0.0.1/hook", "loopback"},
		{"http://127.8.9.10:8080/hook", "loopback"},
		{"http://[::1]/hook", "loopback"},
		{"http://localhost:9000/hook", "loopback"},
		{"http://10.1.2.3/", "private"},
		{"http://172.16.0.1/", "private"},
		{"http://192.168.1.1/", "private"},
		{"http://169.254.169.254/latest/meta-data", "link-local"},
		{"http://[fe80::1]/", "link-local"},
		{"http://100.64.0.1/", "shared"},
		{"http://100.127.255.254/", "shared"},
		{"http://[fc00::1]/", "unique-local"},
		{"http://[fd12:3456::1]/", "unique-local"},
		{"http://0.0.0.0/", "unspecified"},
		{"http://[::]/", "unspecified"},
		{"http://[::ffff:127.0.0.1]/", "loopback"},
		{"http://239.1.1.1/", "multicast"},
	} {
		err := p.Check(ctx, tc.url)
		require.ErrorIs(t, err, outbound.ErrBlocked, tc.url)
		assert.Contains(t, err.Error(), "("+tc.class+")", tc.url)
	}
	for _, ok := range []string{"http://93.184.216.34/", "https://8.8.8.8:8443/x", "http://100.128.0.1/", "http://[2001:4860::8888]/"} {
		assert.NoError(t, p.Check(ctx, ok), ok)
	}
	for _, bad := range []string{"ftp://8.8.8.8/", "/relative", "http:///nohost", "gopher://x", "::"} {
		assert.ErrorIs(t, p.Check(ctx, bad), outbound.ErrInvalidURL, bad)
	}
}

// TestCheck_allowances: AllowLocal allows every class; the allowlist allows what it names (an
// address, a range, a host name, a wildcard domain, a port) and nothing else.
func TestCheck_allowances(t *testing.T) {
	ctx := context.Background()
	all := outbound.Policy{AllowLocal: true}
	for _, u := range []string{"http://127.0.0.1/", "http://10.0.0.1/", "http://169.254.1.1/", "http://[fc00::1]/", "http://localhost/"} {
		assert.NoError(t, all.Check(ctx, u), u)
	}
	list := outbound.Policy{Allowlist: []string{"127.0.0.1", "10.0.0.0/8", "localhost", "*.internal.test", "192.168.1.1:8080", "[::1]:9000"}}
	for _, u := range []string{"http://127.0.0.1:1234/", "http://10.200.1.1/", "http://localhost/x", "http://192.168.1.1:8080/"} {
		assert.NoError(t, list.Check(ctx, u), u)
	}
	for _, u := range []string{"http://127.0.0.2/", "http://192.168.1.1/", "http://172.16.0.1/", "http://[::1]:9001/"} {
		assert.ErrorIs(t, list.Check(ctx, u), outbound.ErrBlocked, u)
	}
	assert.NoError(t, list.Check(ctx, "http://[::1]:9000/"))
	// A wildcard domain entry allows its subdomains by name: the resolver maps them to loopback.
	r := fakeResolver(t, "127.0.0.1")
	wild := outbound.Policy{Allowlist: []string{"*.internal.test"}, Resolver: r}
	assert.NoError(t, wild.Check(ctx, "http://a.internal.test/"))
	assert.ErrorIs(t, wild.Check(ctx, "http://internal.test.evil/"), outbound.ErrBlocked)
}

// TestClient_dialsTheCheckedAddress: a name whose first answer is public and every later one
// loopback (DNS rebinding) is resolved once per connection and refused or connected on that
// one answer; the client refuses a loopback receiver without allowance and reaches it with.
func TestClient_dialsTheCheckedAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
	defer srv.Close()

	_, err := outbound.Policy{}.Client(5*time.Second, true).Post(srv.URL, "application/json", strings.NewReader("{}"))
	require.ErrorIs(t, err, outbound.ErrBlocked)

	resp, err := outbound.Policy{Allowlist: []string{"127.0.0.1"}}.Client(5*time.Second, true).Get(srv.URL)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	assert.Equal(t, "ok", string(b))

	// rebind.test resolves to a public address first and to loopback after (DNS rebinding):
	// Check passes on the first answer, and the connection, which resolves and checks once
	// itself, is refused on the second rather than dialling loopback.
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	answers := []string{"93.184.216.34", "127.0.0.1"}
	var lookups atomic.Int32
	p := outbound.Policy{Resolver: resolverFunc(func(string) []netip.Addr {
		n := min(int(lookups.Add(1)), len(answers)) - 1
		return []netip.Addr{netip.MustParseAddr(answers[n])}
	})}
	require.NoError(t, p.Check(context.Background(), "http://rebind.test:"+port+"/"))
	_, err = p.Client(5*time.Second, true).Get("http://rebind.test:" + port + "/")
	require.ErrorIs(t, err, outbound.ErrBlocked)
	assert.Equal(t, int32(2), lookups.Load(), "one lookup for the check, one for the connection")

	// Redirects are not followed.
	redir := httptest.NewServer(http.RedirectHandler("http://169.254.169.254/", http.StatusFound))
	defer redir.Close()
	resp, err = outbound.Policy{AllowLocal: true}.Client(5*time.Second, true).Get(redir.URL)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusFound, resp.StatusCode)
}

// TestClassify covers the class names and a public address.
func TestClassify(t *testing.T) {
	assert.Equal(t, "", outbound.Classify(netip.MustParseAddr("1.1.1.1")))
	assert.Equal(t, "private", outbound.Classify(netip.MustParseAddr("172.31.255.255")))
	assert.Equal(t, "", outbound.Classify(netip.MustParseAddr("172.32.0.1")))
}

// resolverFunc resolves with a function.
type resolverFunc func(host string) []netip.Addr

func (f resolverFunc) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return f(host), nil
}

// fakeResolver resolves every name to ip.
func fakeResolver(t *testing.T, ip string) outbound.Resolver {
	t.Helper()
	return resolverFunc(func(string) []netip.Addr { return []netip.Addr{netip.MustParseAddr(ip)} })
}
