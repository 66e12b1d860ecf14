// Package server is Anvil's composition root: it opens the database, migrates it, creates the
// administrator on first start, builds the services and mounts REST, GraphQL and the health and
// metrics endpoints on one HTTP handler.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"anvil/internal/config"
	"anvil/internal/db"
	"anvil/internal/jobs"
	"anvil/internal/privatefs"
	"anvil/internal/service"
	"anvil/internal/service/users"
	"anvil/rest"
	"anvil/rest/httpx"
	"anvil/rest/middleware"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/crypto/bcrypt"
)

// Server is a running Anvil instance's handler and its parts.
type Server struct {
	Config   config.Config
	DB       *db.DB
	Services *service.Services
	Handler  http.Handler
	// RegistryHandler serves the container registry on its own listener when
	// ANVIL_REGISTRY_LISTEN is set (nil otherwise: Handler serves /v2/).
	RegistryHandler http.Handler
	Log             *slog.Logger
	Registry        *prometheus.Registry
	// Routes lists the router's routes (method and path template), for route-driven tests.
	Routes []Route
}

// Route is one route of the router: its method and path template (":id", "*path").
type Route struct{ Method, Path string }

// Options adjust a server for tests and benchmarks.
type Options struct {
	// BcryptCost overrides the password hashing cost (tests use the minimum).
	BcryptCost int
	// Hasher replaces the password hasher (tests count its comparisons); nil is bcrypt at
	// BcryptCost.
	Hasher users.Hasher
	// Jobs registers extra job kinds before the queue starts (tests' probes).
	Jobs func(q *jobs.Queue)
	// Migrated says the database already holds this build's schema, ent's and River's (a test
	// database copied from a migrated template, see servertest): New skips the migrations.
	Migrated bool
}

// New opens and migrates the database, bootstraps the administrator and builds the handler.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, opts Options) (*Server, error) {
	if err := privatefs.Secure(cfg.DataDir, privateRoots(cfg)...); err != nil {
		return nil, err
	}
	d, err := db.Open(cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	if !opts.Migrated {
		if err := d.Migrate(ctx); err != nil {
			_ = d.Close()
			return nil, err
		}
	}
	hasher := opts.Hasher
	if hasher == nil {
		hasher = users.Bcrypt{Cost: bcrypt.DefaultCost}
		if opts.BcryptCost > 0 {
			hasher = users.Bcrypt{Cost: opts.BcryptCost}
		}
	}
	svc, err := service.New(ctx, cfg, d, log, hasher)
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	// River's tables beside ent's.
	if !opts.Migrated {
		if err := svc.Jobs.Migrate(ctx); err != nil {
			_ = svc.Close()
			_ = d.Close()
			return nil, err
		}
	}
	if opts.Jobs != nil {
		opts.Jobs(svc.Jobs)
	}
	if err := Bootstrap(ctx, svc); err != nil {
		_ = d.Close()
		return nil, fmt.Errorf("bootstrap: %w", err)
	}
	s := &Server{Config: cfg, DB: d, Services: svc, Log: log, Registry: prometheus.NewRegistry()}
	s.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	router, v2 := s.routes()
	s.Handler = s.withGit(s.withRegistry(v2, router))
	return s, nil
}

// StartJobs starts working background jobs in this process (Serve does it; so does the test
// server). Close stops them.
func (s *Server) StartJobs(ctx context.Context) error { return s.Services.Jobs.Start(ctx) }

// Close stops the job queue and the git processes and releases the database.
func (s *Server) Close() error {
	_ = s.Services.Close()
	return s.DB.Close()
}

// routes builds the router and returns it with the registry's /v2/ handler, which is served
// ahead of it (withRegistry).
func (s *Server) routes() (http.Handler, http.Handler) {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	// Route on the escaped path so that %2F inside :id stays in one segment; handlers decode
	// each parameter once with url.PathUnescape (which, unlike query unescaping, keeps '+').
	e.UseEscapedPath = true
	e.UnescapePathValues = false
	e.RedirectTrailingSlash = false
	e.RedirectFixedPath = false
	e.HandleMethodNotAllowed = false
	e.ContextWithFallback = true
	// The client's address is the connection's: no proxy is trusted to name it in
	// X-Forwarded-For (GitLab trusts only the proxies it is configured with).
	if err := e.SetTrustedProxies(nil); err != nil {
		panic(err)
	}
	metrics := middleware.NewMetrics(s.Registry)
	e.Use(middleware.Recover(s.Log), metrics.Handler, middleware.Log(s.Log))

	// Probes answer HEAD as well as GET: load balancers use either.
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		e.Handle(method, "/-/health", func(c *gin.Context) { c.Data(http.StatusOK, "text/plain; charset=utf-8", []byte("GitLab OK")) })
		e.Handle(method, "/-/liveness", func(c *gin.Context) { httpx.JSON(c, http.StatusOK, gin.H{"status": "ok"}) })
		e.Handle(method, "/-/readiness", s.readiness)
	}
	e.GET("/-/metrics", middleware.RequireIP(s.Config.Monitoring.IPAllowlist), gin.WrapH(promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{})))

	pres := presenter.New(s.Config.ExternalURL)
	pres.RegistryHost = s.Config.RegistryHost()
	pres.HoursOnly = func() bool { return s.Services.TimeTracking.HoursOnly(context.Background()) }
	auth := &middleware.Authenticator{Tokens: s.Services.Tokens, Users: s.Services.Users}
	api := e.Group("/api/v4", middleware.SecurityHeaders, func(c *gin.Context) {
		httpx.SetPresenter(c, pres)
		c.Next()
	}, middleware.RejectMalformed, auth.Handler)
	rest.Register(api, s.Services)
	mountGraphQL(e, s, auth)
	v2 := s.mountRegistry(e)

	e.Any("/api/v3/*path", middleware.SecurityHeaders, func(c *gin.Context) {
		httpx.JSON(c, http.StatusGone, gin.H{"error": "API V3 is no longer supported. Use API V4 instead."})
	})
	// GitLab's catch-all route lives inside the API, so it carries the API's headers (and Rails
	// sends the same two on its own 404 pages).
	for _, r := range e.Routes() {
		s.Routes = append(s.Routes, Route{Method: r.Method, Path: r.Path})
	}
	e.NoRoute(middleware.SecurityHeaders, func(c *gin.Context) {
		if strings.HasPrefix(c.Request.URL.Path, "/api/") {
			httpx.JSON(c, http.StatusNotFound, gin.H{"error": "404 Not Found"})
			return
		}
		c.Data(http.StatusNotFound, "text/plain; charset=utf-8", []byte("404 Not Found"))
	})
	return e, v2
}

// privateRoots are the directories outside the data directory that hold the server's data:
// repository storages and a file blob store.
func privateRoots(cfg config.Config) []string {
	var roots []string
	for _, dir := range cfg.RepositoryStorages {
		roots = append(roots, dir)
	}
	if u, err := url.Parse(cfg.BlobStorageURL); err == nil && u.Scheme == "file" {
		roots = append(roots, filepath.FromSlash(u.Path))
	}
	return roots
}

// readiness handles /-/readiness: ready when the database answers. A failure is logged; the
// body says only that the check failed, in GitLab's words (its checks answer "unexpected Db
// check result" or "Db check timed out", never the driver's error, which can name hosts, users
// and paths).
func (s *Server) readiness(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	if err := s.DB.Ping(ctx); err != nil {
		s.Log.ErrorContext(ctx, "readiness: database check failed", "err", err)
		msg := "unexpected Db check result"
		if errors.Is(err, context.DeadlineExceeded) {
			msg = "Db check timed out"
		}
		httpx.JSON(c, http.StatusServiceUnavailable, gin.H{"status": "failed", "db_check": []gin.H{{"status": "failed", "message": msg}}})
		return
	}
	httpx.JSON(c, http.StatusOK, gin.H{"status": "ok", "master_check": []gin.H{{"status": "ok"}}, "db_check": []gin.H{{"status": "ok"}}})
}

// Serve listens on cfg.Listen (and on the registry's own address when
// ANVIL_REGISTRY_LISTEN is set) until ctx ends, then shuts down gracefully: in-flight requests
// finish (up to 30 s) before Serve returns.
func (s *Server) Serve(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.Config.Listen)
	if err != nil {
		return err
	}
	var regLn net.Listener
	if s.RegistryHandler != nil {
		if regLn, err = net.Listen("tcp", s.Config.Registry.Listen); err != nil {
			_ = ln.Close()
			return err
		}
	}
	return s.ServeListeners(ctx, ln, regLn)
}

// ServeListener serves on ln until ctx ends.
func (s *Server) ServeListener(ctx context.Context, ln net.Listener) error {
	return s.ServeListeners(ctx, ln, nil)
}

// ServeListeners serves the API on ln and, when regLn is not nil, the registry on regLn,
// until ctx ends or one of them fails.
func (s *Server) ServeListeners(ctx context.Context, ln, regLn net.Listener) error {
	if err := s.StartJobs(ctx); err != nil {
		return err
	}
	servers := []*http.Server{{Handler: s.Handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}}
	listeners := []net.Listener{ln}
	if regLn != nil && s.RegistryHandler != nil {
		servers = append(servers, &http.Server{Handler: s.RegistryHandler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second})
		listeners = append(listeners, regLn)
	}
	errc := make(chan error, len(servers))
	for i, hs := range servers {
		go func() { errc <- hs.Serve(listeners[i]) }()
	}
	s.Log.Info("listening", "addr", ln.Addr().String(), "external_url", s.Config.ExternalURL)
	if len(servers) > 1 {
		s.Log.Info("registry listening", "addr", regLn.Addr().String(), "registry_url", s.Config.Registry.URL)
	}
	var failed error
	select {
	case failed = <-errc:
	case <-ctx.Done():
	}
	s.Log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, hs := range servers {
		if err := hs.Shutdown(shutdownCtx); err != nil && failed == nil {
			failed = err
		}
	}
	if failed != nil && !errors.Is(failed, http.ErrServerClosed) {
		return failed
	}
	return nil
}
