// Package gitserver serves git's smart HTTP protocol on top of internal/git: clone and fetch
// (git-upload-pack) and push (git-receive-pack) at {base_url}/<project full path>.git, with
// GitLab's authentication (HTTP Basic with a token or password, anonymous reads of public
// projects), its access checks and messages, branch protection enforced in a pre-receive hook,
// and a push record for every accepted push.
package gitserver

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"anvil/internal/service/clientauth"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/repos"
)

// Deps are what the git server needs from the rest of Anvil.
type Deps struct {
	Projects  *projects.Service
	Repos     *repos.Service
	Protected *protectedbranches.Service
	// ClientAuth checks git clients' credentials (tokens, passwords, the address ban).
	ClientAuth *clientauth.Service
	Log        *slog.Logger
	// DataDir holds the hooks directory and the push result files.
	DataDir string
	// GitHome is the private HOME of the git commands hooks run.
	GitHome string
	// ExternalURL is the instance's base URL (named in refusal messages).
	ExternalURL string
}

// Server serves the git smart HTTP routes.
type Server struct {
	Deps
	hooksDir string
	tmpDir   string
	// hooksErr is why hooks could not be installed; pushes are refused while it is set.
	hooksErr error
}

// New prepares the server: the hooks directory (links to this executable) and the directory of
// push result files. A failure there only disables pushing, and is reported when one is tried.
func New(d Deps) *Server {
	s := &Server{Deps: d, hooksDir: filepath.Join(d.DataDir, "git-hooks"), tmpDir: filepath.Join(d.DataDir, "tmp", "git-push")}
	s.hooksErr = installHooks(s.hooksDir)
	if s.hooksErr == nil {
		s.hooksErr = mkdirAll(s.tmpDir)
	}
	if s.hooksErr != nil {
		d.Log.Error("git hooks unavailable: pushes are refused", "err", s.hooksErr)
	}
	return s
}

// service is one of the two git services.
type service string

const (
	uploadPack  service = "git-upload-pack"
	receivePack service = "git-receive-pack"
)

// route is a parsed git request.
type route struct {
	// project is the project's full path ("group/sub/project").
	project string
	// service is the requested service; infoRefs says the request is the advertisement.
	service  service
	infoRefs bool
}

// parseRoute recognises git's smart HTTP requests: GET <path>[.git]/info/refs and POST
// <path>[.git]/git-upload-pack or /git-receive-pack. ok is false for anything else, which goes
// on to the rest of the server. A missing or unknown service on info/refs (the dumb protocol)
// is still a git route, answered with a refusal.
func parseRoute(r *http.Request) (route, bool) {
	p := r.URL.Path
	if strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/-/") {
		return route{}, false
	}
	var rt route
	switch {
	case (r.Method == http.MethodGet || r.Method == http.MethodHead) && strings.HasSuffix(p, "/info/refs"):
		rt.infoRefs = true
		rt.service = service(r.URL.Query().Get("service"))
		p = strings.TrimSuffix(p, "/info/refs")
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/"+string(uploadPack)):
		rt.service = uploadPack
		p = strings.TrimSuffix(p, "/"+string(uploadPack))
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/"+string(receivePack)):
		rt.service = receivePack
		p = strings.TrimSuffix(p, "/"+string(receivePack))
	default:
		return route{}, false
	}
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	if !strings.Contains(p, "/") || strings.Contains(p, "//") {
		return route{}, false
	}
	rt.project = p
	return rt, true
}

// Handler serves git requests and passes everything else to next. It must wrap the router:
// project paths have any depth, which the router's patterns cannot express.
func (s *Server) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rt, ok := parseRoute(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		defer func() {
			if v := recover(); v != nil {
				s.Log.ErrorContext(r.Context(), "panic in git request", "path", r.URL.Path, "panic", v)
				http.Error(w, "Internal server error", http.StatusInternalServerError)
			}
		}()
		s.serve(w, r, rt)
	})
}

// serve answers one git request.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rt route) {
	ctx := r.Context()
	if rt.infoRefs && r.Method == http.MethodHead {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	auth, fail := s.authenticate(ctx, r)
	if fail != nil {
		fail.write(w)
		return
	}
	if rt.service != uploadPack && rt.service != receivePack {
		plain(w, http.StatusForbidden, msgCommandNotAllowed)
		return
	}
	p, repo, fail := s.check(ctx, auth, rt)
	if fail != nil {
		fail.write(w)
		return
	}
	s.Log.DebugContext(ctx, "git request", "project_id", p.ID, "service", rt.service, "info_refs", rt.infoRefs, "user_id", auth.actor.UserID())
	switch {
	case rt.infoRefs:
		s.advertise(w, r, rt.service, p, repo)
	case rt.service == uploadPack:
		s.uploadPack(w, r, repo)
	default:
		s.receivePack(w, r, auth.actor, p, repo)
	}
}

// mkdirAll creates a private directory.
func mkdirAll(dir string) error { return os.MkdirAll(dir, 0o700) }

// background is a context for work that must finish even if the client goes away (recording
// an accepted push).
func background(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }
