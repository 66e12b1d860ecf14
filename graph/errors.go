package graph

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"strings"

	"anvil/internal/apperr"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// resourceAccessError is GitLab's one message for a resource that is missing, invisible or
// not allowed, so that an error never tells which.
const resourceAccessError = "The resource that you are attempting to access does not exist or you don't have permission to perform this action"

// Error codes set in errors[].extensions.code.
const (
	codeNotFound           = "NOT_FOUND"
	codeUnauthenticated    = "UNAUTHENTICATED"
	codeForbidden          = "FORBIDDEN"
	codeBadInput           = "BAD_USER_INPUT"
	codeConflict           = "CONFLICT"
	codeNotAllowed         = "NOT_ALLOWED"
	codePreconditionFailed = "PRECONDITION_FAILED"
	codeTooLarge           = "PAYLOAD_TOO_LARGE"
	codeInsufficientScope  = "INSUFFICIENT_SCOPE"
	codeRateLimited        = "RATE_LIMITED"
	codeInternal           = "INTERNAL_SERVER_ERROR"
)

// presentError maps an error to its GraphQL form. Application errors keep GitLab's wording and
// get a code; gqlgen's own errors (syntax, validation, limits) pass through; anything else is
// logged and answered "Internal server error".
func presentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := graphql.DefaultErrorPresenter(ctx, err)
		if e, ok := apperr.As(err); ok {
			gerr.Message, gerr.Extensions = describe(e)
			return gerr
		}
		if isOwnGraphQLError(err) {
			return gerr
		}
		if isCursorArgument(gerr.Path) {
			// A cursor that does not decode is the client's mistake, as in GitLab's connections.
			gerr.Message = "Please provide a valid cursor"
			gerr.Extensions = map[string]any{"code": codeBadInput}
			return gerr
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			gerr.Message = "Request timed out. Please try a less complex query or a smaller set of records."
			gerr.Extensions = map[string]any{"code": "TIMEOUT"}
			return gerr
		}
		log.ErrorContext(ctx, "graphql field failed", "path", gerr.Path.String(), "err", err)
		gerr.Message = "Internal server error"
		gerr.Extensions = map[string]any{"code": codeInternal}
		return gerr
	}
}

// isCursorArgument reports whether path ends at a connection's cursor argument, where
// gqlgen reports a cursor that cannot be decoded.
func isCursorArgument(path ast.Path) bool {
	if len(path) == 0 {
		return false
	}
	name, ok := path[len(path)-1].(ast.PathName)
	return ok && (name == "after" || name == "before")
}

// badInput is an error in the arguments a resolver was given.
func badInput(format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	err.Extensions = map[string]any{"code": codeBadInput}
	return err
}

// isOwnGraphQLError reports whether err was made as a GraphQL error (by gqlgen: syntax,
// validation, limits; or by a resolver: a bad global id) rather than wrapping a failure.
func isOwnGraphQLError(err error) bool {
	var g *gqlerror.Error
	if !errors.As(err, &g) {
		return false
	}
	inner := g.Unwrap()
	var ig *gqlerror.Error
	return inner == nil || errors.As(inner, &ig)
}

// recoverPanic turns a resolver panic into an internal error, after logging it.
func recoverPanic(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "graphql resolver panic", "panic", p)
		return &gqlerror.Error{Message: "Internal server error", Extensions: map[string]any{"code": codeInternal}}
	}
}

// codes is the extensions.code of each kind of application error.
var codes = map[apperr.Kind]string{
	apperr.KindNotFound:           codeNotFound,
	apperr.KindUnauthorized:       codeUnauthenticated,
	apperr.KindInvalidToken:       codeUnauthenticated,
	apperr.KindForbidden:          codeForbidden,
	apperr.KindScope:              codeInsufficientScope,
	apperr.KindParam:              codeBadInput,
	apperr.KindBadRequest:         codeBadInput,
	apperr.KindValidation:         codeBadInput,
	apperr.KindUnprocessable:      codeBadInput,
	apperr.KindConflict:           codeConflict,
	apperr.KindNotAllowed:         codeNotAllowed,
	apperr.KindPreconditionFailed: codePreconditionFailed,
	apperr.KindTooLarge:           codeTooLarge,
	apperr.KindRateLimited:        codeRateLimited,
}

// defaultMessages are the messages of kinds that carry no text of their own.
var defaultMessages = map[apperr.Kind]string{
	apperr.KindBadRequest:         "Bad request",
	apperr.KindUnprocessable:      "Unprocessable entity",
	apperr.KindConflict:           "Conflict",
	apperr.KindNotAllowed:         "Operation not allowed",
	apperr.KindPreconditionFailed: "Precondition failed",
	apperr.KindTooLarge:           "Request too large",
}

// describe is the message and extensions of an application error. Errors about what the
// caller may see or do keep GitLab's one resource-access message, so that an error never tells
// a missing resource from a hidden one; a refusal with a reason shows the reason.
func describe(e *apperr.Error) (string, map[string]any) {
	code, ok := codes[e.Kind]
	if !ok {
		return "Internal server error", map[string]any{"code": codeInternal}
	}
	ext := map[string]any{"code": code}
	switch e.Kind {
	case apperr.KindNotFound, apperr.KindUnauthorized, apperr.KindInvalidToken, apperr.KindScope:
		return resourceAccessError, ext
	case apperr.KindForbidden:
		if t := e.Text(); t != "" {
			return t, ext
		}
		return resourceAccessError, ext
	case apperr.KindValidation:
		return strings.Join(fullMessages(e), ", "), ext
	}
	if t := e.Text(); t != "" {
		return t, ext
	}
	return defaultMessages[e.Kind], ext
}

// fullMessages renders validation errors as Rails' full messages: "Path has already been taken".
func fullMessages(e *apperr.Error) []string {
	attrs := make([]string, 0, len(e.Fields))
	for a := range e.Fields {
		attrs = append(attrs, a)
	}
	sort.Strings(attrs)
	var out []string
	for _, a := range attrs {
		human := strings.ReplaceAll(a, "_", " ")
		if human != "" {
			human = strings.ToUpper(human[:1]) + human[1:]
		}
		for _, m := range e.Fields[a] {
			if human == "Base" {
				out = append(out, m)
				continue
			}
			out = append(out, human+" "+m)
		}
	}
	return out
}

// payloadErrors splits a mutation's error the way GitLab's mutations do: a refused change
// (validation, conflict, bad argument, unprocessable) becomes the payload's errors list,
// anything else (missing, invisible, forbidden, internal) stays a GraphQL error.
func payloadErrors(err error) ([]string, error) {
	if err == nil {
		return []string{}, nil
	}
	e, ok := apperr.As(err)
	if !ok {
		return nil, err
	}
	switch e.Kind {
	case apperr.KindValidation:
		return fullMessages(e), nil
	case apperr.KindParam, apperr.KindBadRequest, apperr.KindConflict, apperr.KindUnprocessable:
		if e.Messages != nil {
			return e.Messages, nil
		}
		msg, _ := describe(e)
		return []string{msg}, nil
	}
	return nil, err
}
