package server

import (
	"net/http"
	"strings"

	"anvil/internal/registry"
	"anvil/internal/registryserver"

	"github.com/gin-gonic/gin"
)

// mountRegistry adds the container registry's API routes: the token endpoint
// {base_url}/jwt/auth and the endpoint the registry notifies of pushes (outside /api/v4's token
// authentication: the registry authenticates with its own secret). It returns the registry's
// /v2/ handler.
func (s *Server) mountRegistry(e *gin.Engine) http.Handler {
	svc := s.Services
	rs := registryserver.New(registryserver.Deps{
		Registry: svc.Registry, Service: svc.ContainerRegistry,
		ClientAuth: svc.ClientAuth, Log: s.Log,
		ExternalURL: s.Config.ExternalURL,
	})
	e.GET("/jwt/auth", gin.WrapF(rs.Auth))
	e.POST(registry.EventsPath, gin.WrapF(rs.Events))
	return s.recovered(rs.Registry())
}

// withRegistry serves /v2/ ahead of the router, as git's smart HTTP is: image bodies stream
// straight between the client and the registry's storage. With a listener of its own
// (ANVIL_REGISTRY_LISTEN) the registry is served there alone (RegistryHandler) and the API's
// listener answers /v2/ with the router's 404.
func (s *Server) withRegistry(v2 http.Handler, next http.Handler) http.Handler {
	if s.Config.Registry.Listen != "" {
		s.RegistryHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !isRegistryPath(r.URL.Path) {
				http.NotFound(w, r)
				return
			}
			v2.ServeHTTP(w, r)
		})
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isRegistryPath(r.URL.Path) {
			v2.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isRegistryPath reports the registry API's paths: /v2 and below.
func isRegistryPath(p string) bool { return p == "/v2" || strings.HasPrefix(p, "/v2/") }

// recovered answers a panic in h with a 500 and logs it.
func (s *Server) recovered(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.Log.ErrorContext(r.Context(), "panic in registry request", "method", r.Method, "path", r.URL.Path, "panic", v)
				http.Error(w, "Internal server error", http.StatusInternalServerError)
			}
		}()
		h.ServeHTTP(w, r)
	})
}
