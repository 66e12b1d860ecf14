package graph

import (
	"context"
	"strings"

	"anvil/internal/authz"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// GitLab's query limits (app/graphql/gitlab_schema.rb): depth and complexity grow with who asks.
const (
	maxDepthAnonymous      = 15
	maxDepthSignedIn       = 20
	maxComplexityAnonymous = 200
	maxComplexitySignedIn  = 250
	maxComplexityAdmin     = 300
)

// limitsStats is where the operation's complexity is kept for the queryComplexity field.
const limitsStats = "AnvilQueryComplexity"

// complexityStat is an operation's complexity score and the caller's limit.
type complexityStat struct{ Score, Limit int }

// limits refuses operations deeper or more complex than the caller may run, with
// graphql-ruby's messages. Introspection fields count for neither, as in GitLab.
type limits struct{ es graphql.ExecutableSchema }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = &limits{}

// ExtensionName names the extension.
func (*limits) ExtensionName() string { return "AnvilQueryLimits" }

// Validate keeps the schema, which complexity needs.
func (l *limits) Validate(es graphql.ExecutableSchema) error {
	l.es = es
	return nil
}

// MutateOperationContext checks the operation before it runs.
func (l *limits) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	maxDepth, maxComplexity := limitsFor(authz.ActorFrom(ctx))
	if d := depth(oc.Operation.SelectionSet); d > maxDepth {
		return limitError("Query has depth of %d, which exceeds max depth of %d", d, maxDepth, "MAX_DEPTH_EXCEEDED")
	}
	score := complexity.Calculate(ctx, l.es, oc.Operation, oc.Variables)
	oc.Stats.SetExtension(limitsStats, &complexityStat{Score: score, Limit: maxComplexity})
	if score > maxComplexity {
		return limitError("Query has complexity of %d, which exceeds max complexity of %d", score, maxComplexity, "MAX_COMPLEXITY_EXCEEDED")
	}
	return nil
}

// limitsFor returns the caller's maximum depth and complexity.
func limitsFor(a *authz.Actor) (int, int) {
	switch {
	case a.IsAnonymous():
		return maxDepthAnonymous, maxComplexityAnonymous
	case a.IsAdmin():
		return maxDepthSignedIn, maxComplexityAdmin
	}
	return maxDepthSignedIn, maxComplexitySignedIn
}

func limitError(format string, value, limit int, code string) *gqlerror.Error {
	err := gqlerror.Errorf(format, value, limit)
	err.Extensions = map[string]any{"code": code}
	return err
}

// depth is the deepest field nesting of a selection, fragments included; introspection
// fields (__schema, __type, __typename) are not counted.
func depth(sel ast.SelectionSet) int {
	deepest := 0
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if !strings.HasPrefix(s.Name, "__") {
				deepest = max(deepest, 1+depth(s.SelectionSet))
			}
		case *ast.InlineFragment:
			deepest = max(deepest, depth(s.SelectionSet))
		case *ast.FragmentSpread:
			if s.Definition != nil {
				deepest = max(deepest, depth(s.Definition.SelectionSet))
			}
		}
	}
	return deepest
}

// operationComplexity returns the running operation's complexity, if it was measured.
func operationComplexity(ctx context.Context) *complexityStat {
	oc := graphql.GetOperationContext(ctx)
	if oc == nil {
		return nil
	}
	s, _ := oc.Stats.GetExtension(limitsStats).(*complexityStat)
	return s
}
