package middleware

import (
	"net"
	"net/http"
	"net/netip"

	"anvil/internal/config"

	"github.com/gin-gonic/gin"
)

// RequireIP answers 404 to clients whose address is not in allow, as GitLab's monitoring
// endpoints answer callers outside the monitoring IP allowlist. The address is the
// connection's peer, not X-Forwarded-For, which any client can write.
func RequireIP(allow []netip.Prefix) gin.HandlerFunc {
	return func(c *gin.Context) {
		ip := c.Request.RemoteAddr
		if host, _, err := net.SplitHostPort(ip); err == nil {
			ip = host
		}
		if !config.IPAllowed(allow, ip) {
			c.Data(http.StatusNotFound, "text/plain; charset=utf-8", []byte("404 Not Found"))
			c.Abort()
			return
		}
		c.Next()
	}
}
