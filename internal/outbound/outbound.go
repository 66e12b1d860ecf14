// Package outbound makes HTTP requests to addresses users name (webhooks and the like) without
// letting them reach the server's own network (SSRF): loopback, private, link-local, shared
// (100.64.0.0/10), unique-local (fc00::/7), unspecified and multicast addresses are refused
// unless the policy allows local requests or its allowlist names the address or host. The host
// is resolved once per connection and the connection goes to the address that was checked, so
// a name that resolves differently the second time (DNS rebinding) gains nothing.
package outbound

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrBlocked is the error of a refused destination.
var ErrBlocked = errors.New("requests to the local network are not allowed")

// Policy says which local destinations are allowed: all of them with AllowLocal (GitLab's
// allow_local_requests_from_* settings), else only those Allowlist names (GitLab's
// outbound_local_requests_whitelist: IP addresses, CIDR ranges, host names and *.domain
// wildcards, each optionally with a port).
type Policy struct {
	AllowLocal bool
	Allowlist  []string
	// Resolver resolves host names; nil is net.DefaultResolver.
	Resolver Resolver
}

// Resolver resolves a host name to its addresses (*net.Resolver is one).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Check reports whether rawURL may be requested: an http or https URL whose host resolves only
// to allowed addresses. The error wraps ErrBlocked for a refused address.
func (p Policy) Check(ctx context.Context, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: only http and https are allowed", ErrInvalidURL)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%w: no host", ErrInvalidURL)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	_, err = p.resolve(ctx, u.Hostname(), port)
	return err
}

// ErrInvalidURL is the error of a URL that is not an absolute http(s) URL.
var ErrInvalidURL = errors.New("invalid URL")

// resolve returns the allowed addresses of host (resolving it once), or an error wrapping
// ErrBlocked when one of them is refused: a name that also resolves to a local address is
// refused as a whole, as GitLab does.
func (p Policy) resolve(ctx context.Context, host, port string) ([]netip.Addr, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a.Unmap()}
	} else {
		var r Resolver = net.DefaultResolver
		if p.Resolver != nil {
			r = p.Resolver
		}
		ips, err := r.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		for _, ip := range ips {
			addrs = append(addrs, ip.Unmap())
		}
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("resolve %s: no addresses", host)
	}
	for _, a := range addrs {
		if class := Classify(a); class != "" && !p.AllowLocal && !p.allowlisted(host, a, port) {
			return nil, fmt.Errorf("%w: %s resolves to %s (%s)", ErrBlocked, host, a, class)
		}
	}
	return addrs, nil
}

// shared is the carrier-grade NAT range, RFC 6598.
var shared = netip.MustParsePrefix("100.64.0.0/10")

// thisNetwork is 0.0.0.0/8, "this host on this network".
var thisNetwork = netip.MustParsePrefix("0.0.0.0/8")

// Classify names the local class of a (an unmapped address), or "" for a public address.
func Classify(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a.IsUnspecified() || (a.Is4() && thisNetwork.Contains(a)):
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.Is6() && netip.MustParsePrefix("fc00::/7").Contains(a):
		return "unique-local"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		return "link-local"
	case a.Is4() && shared.Contains(a):
		return "shared"
	case a.IsMulticast() || a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "multicast"
	}
	return ""
}

// allowlisted reports whether an allowlist entry names host or addr (and port, when it gives
// one).
func (p Policy) allowlisted(host string, addr netip.Addr, port string) bool {
	for _, entry := range p.Allowlist {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, entryPort := splitEntry(entry)
		if entryPort != "" && entryPort != port {
			continue
		}
		if pfx, err := netip.ParsePrefix(name); err == nil {
			if pfx.Contains(addr) {
				return true
			}
			continue
		}
		if a, err := netip.ParseAddr(name); err == nil {
			if a.Unmap() == addr {
				return true
			}
			continue
		}
		h := strings.ToLower(strings.TrimSuffix(host, "."))
		name = strings.ToLower(name)
		if suffix, ok := strings.CutPrefix(name, "*."); ok {
			if strings.HasSuffix(h, "."+suffix) {
				return true
			}
		} else if h == name {
			return true
		}
	}
	return false
}

// splitEntry splits an allowlist entry into its host (address, range or name) and port.
func splitEntry(entry string) (string, string) {
	if h, port, err := net.SplitHostPort(entry); err == nil {
		if _, perr := strconv.Atoi(port); perr == nil {
			return h, port
		}
	}
	return strings.Trim(entry, "[]"), ""
}

// Client is an HTTP client whose every connection goes through p: redirects are not followed
// (the response is the redirect), no proxy from the environment is used, and timeout bounds
// the whole request. verifyTLS false accepts any certificate (a hook's
// enable_ssl_verification).
func (p Policy) Client(timeout time.Duration, verifyTLS bool) *http.Client {
	dialer := &net.Dialer{Timeout: timeout}
	tr := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(address)
			if err != nil {
				return nil, err
			}
			addrs, err := p.resolve(ctx, host, port)
			if err != nil {
				return nil, err
			}
			var last error
			for _, a := range addrs {
				// The checked address itself is dialled: no second resolution.
				c, err := dialer.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
				if err == nil {
					return c, nil
				}
				last = err
			}
			return nil, last
		},
		TLSClientConfig:       &tls.Config{InsecureSkipVerify: !verifyTLS}, //nolint:gosec // the hook's own choice
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
