// Package graph is the GraphQL adapter served at /api/graphql. Like rest/, it only parses
// arguments, calls one operation in internal/service and lets ent types present themselves
// (gqlgen autobinds them); visibility and permissions are the services' business.
package graph

import (
	"anvil/graph/generated"
	"anvil/internal/service"
	"anvil/internal/service/repofiles"

	"github.com/99designs/gqlgen/graphql"
)

// Resolver is the root resolver: the services and the external base URL of web links.
type Resolver struct {
	svc     *service.Services
	baseURL string
	// files is the repository contents service REST's repository routes use (not part of
	// service.Services yet); GraphQL only reads through it, so it needs no push hooks.
	files *repofiles.Service
}

// NewSchema returns the executable schema over the services; baseURL prefixes every webUrl.
func NewSchema(svc *service.Services, baseURL string) graphql.ExecutableSchema {
	r := &Resolver{svc: svc, baseURL: baseURL, files: svc.Files}
	return generated.NewExecutableSchema(generated.Config{Resolvers: r})
}
