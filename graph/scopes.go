package graph

import (
	"context"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"

	"github.com/99designs/gqlgen/graphql"
)

// guardScopes applies token scopes to root fields, as GitLab's scope validator does: a
// mutation needs the api scope, a query api or read_api. Actors without a token (anonymous)
// are unrestricted here; the services decide what they may do.
func guardScopes(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || strings.HasPrefix(fc.Field.Name, "__") {
		return next(ctx)
	}
	a := authz.ActorFrom(ctx)
	switch fc.Object {
	case "Mutation":
		if !a.HasScope("api") {
			return nil, apperr.InsufficientScope("api")
		}
	case "Query":
		if !canRead(a) {
			return nil, apperr.InsufficientScope("api", "read_api")
		}
	}
	return next(ctx)
}

// canRead reports whether the actor's token may run queries at all.
func canRead(a *authz.Actor) bool { return a.HasScope("api") || a.HasScope("read_api") }
