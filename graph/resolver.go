// Package graph is the GraphQL adapter served at /api/graphql. Like rest/, it only parses
// arguments, calls one operation in internal/service and lets ent types present themselves
// (gqlgen autobinds them); visibility and permissions are the services' business.
package graph

import (
	"anvil/graph/generated"
	"anvil/internal/service"
	"anvil/internal/service/commits"
	"anvil/internal/service/repofiles"

	"github.com/99designs/gqlgen/graphql"
)

// Resolver is the root resolver: the services and the external base URL of web links.
type Resolver struct {
	svc     *service.Services
	baseURL string
	// commits and files are the repository read services REST's commit and repository routes
	// use; GraphQL only reads through them, so they need no branch protection hooks.
	commits *commits.Service
	files   *repofiles.Service
}

// NewSchema returns the executable schema over the services; baseURL prefixes every webUrl.
func NewSchema(svc *service.Services, baseURL string) graphql.ExecutableSchema {
	r := &Resolver{
		svc: svc, baseURL: baseURL,
		commits: commits.New(svc.DB.Client, svc.Policy, svc.Projects, svc.Repos, baseURL),
		files:   repofiles.New(svc.Projects, svc.Repos),
	}
	return generated.NewExecutableSchema(generated.Config{Resolvers: r})
}
