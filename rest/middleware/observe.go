package middleware

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the HTTP metrics, labelled by route template rather than raw path.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewMetrics registers the HTTP metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "anvil_http_requests_total", Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "anvil_http_request_duration_seconds", Help: "HTTP request latency by method and route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// Handler observes each request.
func (m *Metrics) Handler(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(c.Request.Method, route, strconv.Itoa(c.Writer.Status())).Inc()
	m.duration.WithLabelValues(c.Request.Method, route).Observe(time.Since(start).Seconds())
}

// Log writes one structured line per request.
func Log(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		level := slog.LevelDebug
		if c.Writer.Status() >= 500 {
			level = slog.LevelError
		}
		log.Log(c.Request.Context(), level, "request", "method", c.Request.Method, "route", c.FullPath(),
			"path", c.Request.URL.Path, "status", c.Writer.Status(), "duration_ms", float64(time.Since(start).Microseconds())/1000,
			"user_id", httpx.Actor(c).UserID())
	}
}

// Recover turns a panic into GitLab's 500 body and logs it.
func Recover(log *slog.Logger) gin.HandlerFunc {
	return gin.CustomRecoveryWithWriter(nil, func(c *gin.Context, err any) {
		log.Error("panic", "method", c.Request.Method, "route", c.FullPath(), "panic", err)
		httpx.JSON(c, http.StatusInternalServerError, gin.H{"message": "500 Internal Server Error"})
		c.Abort()
	})
}

// SecurityHeaders adds the headers GitLab puts on every API response.
func SecurityHeaders(c *gin.Context) {
	c.Header("X-Frame-Options", "SAMEORIGIN")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Next()
}
