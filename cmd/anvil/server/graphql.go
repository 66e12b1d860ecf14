package server

import (
	"net/http"

	"anvil/graph"
	"anvil/graph/explorer"
	"anvil/rest/middleware"

	"github.com/gin-gonic/gin"
)

// mountGraphQL serves /api/graphql (GET and POST; HEAD answers like GET) with the REST
// authentication, and the GraphiQL explorer at /-/graphql-explorer.
func mountGraphQL(e *gin.Engine, s *Server, auth *middleware.Authenticator) {
	api := gin.WrapH(graph.NewHandler(s.Services, s.Config.ExternalURL, auth.Resolve, s.Log))
	for _, method := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		e.Handle(method, "/api/graphql", middleware.SecurityHeaders, api)
	}
	ui := gin.WrapH(explorer.Handler(explorer.Path))
	e.GET(explorer.Path, ui)
	e.GET(explorer.Path+"/*asset", ui)
}
