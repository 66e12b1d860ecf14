// Package registryserver is the HTTP side of the container registry: the embedded registry at
// {registry_url}/v2/ (with GitLab's deprecated tags/reference deletion), the token endpoint
// {base_url}/jwt/auth that docker, crane and the other clients are sent to, and the endpoint
// the registry notifies of pushed and deleted manifests.
package registryserver

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/registry"
	"anvil/internal/service/clientauth"
	"anvil/internal/service/containerregistry"

	"github.com/distribution/distribution/v3/notifications"
)

// Deps are what the registry's HTTP side needs.
type Deps struct {
	Registry *registry.Registry
	Service  *containerregistry.Service
	// ClientAuth checks clients' credentials (tokens, passwords, the address ban).
	ClientAuth *clientauth.Service
	Log        *slog.Logger
	// ExternalURL is the instance's base URL (named in refusal messages).
	ExternalURL string
}

// Server serves the registry's HTTP routes.
type Server struct{ Deps }

// New returns the server.
func New(d Deps) *Server { return &Server{Deps: d} }

// tagReference matches GitLab's deprecated tag deletion path, /v2/<name>/tags/reference/<tag>.
var tagReference = regexp.MustCompile(`^(/v2/.+)/tags/reference/([^/]+)$`)

// Registry serves /v2/: the embedded registry, which authorizes each request by the bearer
// token it carries. DELETE /v2/<name>/tags/reference/<tag> (GitLab's registry extension,
// deprecated for the manifests form) is served as DELETE /v2/<name>/manifests/<tag>: the same
// tag deletion, under the same delete scope. The OCI referrers API is answered here
// (referrers.go).
func (s *Server) Registry() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			if m := tagReference.FindStringSubmatch(r.URL.Path); m != nil {
				r = r.Clone(r.Context())
				r.URL.Path = m[1] + "/manifests/" + m[2]
				r.URL.RawPath = ""
			}
		case http.MethodGet, http.MethodHead:
			if m := referrersPath.FindStringSubmatch(r.URL.Path); m != nil {
				s.referrers(w, r, m[1], m[2])
				return
			}
		case http.MethodPut:
			if manifestPath.MatchString(r.URL.Path) {
				s.putManifest(w, r, s.Deps.Registry)
				return
			}
		}
		s.Deps.Registry.ServeHTTP(w, r)
	})
}

// Events receives the registry's notifications: an envelope of events, authenticated by the
// shared secret the registry sends.
func (s *Server) Events(w http.ResponseWriter, r *http.Request) {
	if !s.Deps.Registry.NotificationAuthorized(r.Header.Get("Authorization")) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "401 Unauthorized"})
		return
	}
	var env struct {
		Events []notifications.Event `json:"events"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 8<<20)).Decode(&env); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "events is invalid"})
		return
	}
	events := make([]containerregistry.Event, 0, len(env.Events))
	for _, e := range env.Events {
		events = append(events, containerregistry.Event{
			Action: e.Action, Repository: e.Target.Repository, MediaType: e.Target.MediaType,
			Tag: e.Target.Tag, Digest: e.Target.Digest.String(),
		})
	}
	if err := s.Service.RecordEvents(r.Context(), events); err != nil {
		s.Log.ErrorContext(r.Context(), "registry events", "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "500 Internal Server Error"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

// Auth handles GET {base_url}/jwt/auth?service=container_registry&scope=...: HTTP Basic with a
// username and a password or access token (or none, to pull public images), one or more scope
// parameters (each may hold several scopes separated by spaces), answered with {"token": ...}.
func (s *Server) Auth(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("service") != registry.Service {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	creds, err := s.authenticate(r)
	switch {
	case clientauth.IsBanned(err):
		// GitLab's ApplicationController answers a banned address in plain text.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(clientauth.ErrBanned.Message))
		return
	case apperr.Is(err, apperr.KindUnauthorized):
		writeJSON(w, http.StatusUnauthorized, map[string]any{"errors": []map[string]string{{
			"code": "UNAUTHORIZED", "message": s.accessDeniedMessage(),
		}}})
		return
	case err != nil:
		s.Log.ErrorContext(r.Context(), "registry authentication", "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "500 Internal Server Error"})
		return
	}
	var scopes []string
	for _, v := range q["scope"] {
		scopes = append(scopes, strings.Fields(v)...)
	}
	token, err := s.Service.IssueToken(r.Context(), creds, scopes)
	switch {
	case errors.Is(err, containerregistry.ErrDenied):
		writeJSON(w, http.StatusForbidden, map[string]any{"errors": []map[string]string{{
			"code": "DENIED", "message": "access forbidden",
		}}})
		return
	case err != nil:
		s.Log.ErrorContext(r.Context(), "registry token", "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "500 Internal Server Error"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"token": token})
}

// accessDeniedMessage is GitLab's refusal of wrong credentials.
func (s *Server) accessDeniedMessage() string {
	return "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect " +
		"or you're required to use a token instead of a password. If a token was provided, it was either incorrect, " +
		"expired, or improperly scoped. See " + strings.TrimRight(s.ExternalURL, "/") +
		"/help/user/profile/account/two_factor_authentication_troubleshooting.md#error-http-basic-access-denied-if-a-password-was-provided-for-git-authentication-"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
