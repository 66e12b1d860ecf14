package graph

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// stringInputs refuses an operation whose arguments or variables hold a string with a NUL byte
// or invalid UTF-8, before any resolver runs: PostgreSQL cannot store or compare such text, and
// REST refuses the same values in rest/params ("<param> is invalid").
type stringInputs struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = stringInputs{}

// ExtensionName names the extension.
func (stringInputs) ExtensionName() string { return "AnvilStringInputs" }

// Validate accepts any schema.
func (stringInputs) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext checks the operation's literal arguments and its variables.
func (stringInputs) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	for name, v := range oc.Variables {
		if !cleanValue(v) {
			return invalidString("$" + name)
		}
	}
	if oc.Operation != nil {
		if arg := badArgument(oc.Operation.SelectionSet); arg != "" {
			return invalidString(arg)
		}
	}
	return nil
}

func invalidString(name string) *gqlerror.Error {
	err := gqlerror.Errorf("%s is invalid: text must be valid UTF-8 without NUL bytes", name)
	err.Extensions = map[string]any{"code": codeBadInput}
	return err
}

// cleanValue reports whether every string in a decoded variable value is usable text.
func cleanValue(v any) bool {
	switch x := v.(type) {
	case string:
		return cleanString(x)
	case []any:
		for _, e := range x {
			if !cleanValue(e) {
				return false
			}
		}
	case map[string]any:
		for k, e := range x {
			if !cleanString(k) || !cleanValue(e) {
				return false
			}
		}
	}
	return true
}

func cleanString(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// badArgument returns the name of the first argument, anywhere in set, whose literal value holds
// unusable text ("" when there is none). Fragments are checked where they are spread.
func badArgument(set ast.SelectionSet) string {
	for _, sel := range set {
		var (
			args ast.ArgumentList
			sub  ast.SelectionSet
		)
		switch s := sel.(type) {
		case *ast.Field:
			args, sub = s.Arguments, s.SelectionSet
		case *ast.InlineFragment:
			sub = s.SelectionSet
		case *ast.FragmentSpread:
			if s.Definition != nil {
				sub = s.Definition.SelectionSet
			}
		}
		for _, a := range args {
			if !cleanLiteral(a.Value) {
				return a.Name
			}
		}
		if name := badArgument(sub); name != "" {
			return name
		}
	}
	return ""
}

func cleanLiteral(v *ast.Value) bool {
	if v == nil {
		return true
	}
	if (v.Kind == ast.StringValue || v.Kind == ast.BlockValue || v.Kind == ast.EnumValue) && !cleanString(v.Raw) {
		return false
	}
	for _, c := range v.Children {
		if !cleanLiteral(c.Value) {
			return false
		}
	}
	return true
}
