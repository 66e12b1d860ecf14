package server

import (
	"net/http"

	"anvil/internal/registry"
	"anvil/internal/registryserver"
	"anvil/rest/middleware"

	"github.com/gin-gonic/gin"
)

// mountRegistry adds the container registry's routes: the token endpoint {base_url}/jwt/auth,
// the endpoint the registry notifies of pushes (outside /api/v4's token authentication: the
// registry authenticates with its own secret), and /v2/ itself unless the registry has a
// listener of its own (ANVIL_REGISTRY_LISTEN), which serves it alone (registryHandler).
func (s *Server) mountRegistry(e *gin.Engine) {
	svc := s.Services
	rs := registryserver.New(registryserver.Deps{
		Client: s.DB.Client, Registry: svc.Registry, Service: svc.ContainerRegistry,
		Tokens: svc.Tokens, Users: svc.Users, Settings: svc.Settings, Log: s.Log,
		ExternalURL: s.Config.ExternalURL,
	})
	e.GET("/jwt/auth", gin.WrapF(rs.Auth))
	e.POST(registry.EventsPath, gin.WrapF(rs.Events))
	if s.Config.Registry.Listen == "" {
		mountV2(e, rs.Registry())
		return
	}
	r := gin.New()
	r.UseEscapedPath = true
	r.UnescapePathValues = false
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.Use(middleware.Recover(s.Log), middleware.Log(s.Log))
	mountV2(r, rs.Registry())
	r.NoRoute(func(c *gin.Context) {
		c.Data(http.StatusNotFound, "text/plain; charset=utf-8", []byte("404 page not found"))
	})
	s.RegistryHandler = r
}

// mountV2 serves the registry API at /v2 and below.
func mountV2(e *gin.Engine, h http.Handler) {
	e.Any("/v2", gin.WrapH(h))
	e.Any("/v2/*path", gin.WrapH(h))
}
