package graph

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sort"
	"strings"

	"anvil/internal/apperr"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// resourceAccessError is GitLab's one message for a resource that is missing, invisible or
// not allowed, so that an error never tells which.
const resourceAccessError = "The resource that you are attempting to access does not exist or you don't have permission to perform this action"

// Error codes set in errors[].extensions.code.
const (
	codeNotFound          = "NOT_FOUND"
	codeUnauthenticated   = "UNAUTHENTICATED"
	codeForbidden         = "FORBIDDEN"
	codeBadInput          = "BAD_USER_INPUT"
	codeConflict          = "CONFLICT"
	codeInsufficientScope = "INSUFFICIENT_SCOPE"
	codeRateLimited       = "RATE_LIMITED"
	codeInternal          = "INTERNAL_SERVER_ERROR"
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

// describe is the message and extensions of an application error.
func describe(e *apperr.Error) (string, map[string]any) {
	code := func(c string) map[string]any { return map[string]any{"code": c} }
	switch e.Kind {
	case apperr.KindNotFound:
		return resourceAccessError, code(codeNotFound)
	case apperr.KindUnauthorized, apperr.KindInvalidToken:
		return resourceAccessError, code(codeUnauthenticated)
	case apperr.KindForbidden:
		if reason, ok := strings.CutPrefix(e.Message, "403 Forbidden - "); ok {
			return reason, code(codeForbidden)
		}
		return resourceAccessError, code(codeForbidden)
	case apperr.KindScope:
		return resourceAccessError, code(codeInsufficientScope)
	case apperr.KindBadRequest:
		return e.Message, code(codeBadInput)
	case apperr.KindValidation:
		return strings.Join(fullMessages(e), ", "), code(codeBadInput)
	case apperr.KindConflict:
		return e.Message, code(codeConflict)
	case apperr.KindRateLimited:
		return e.Message, code(codeRateLimited)
	}
	switch e.Status {
	case http.StatusNotFound:
		return resourceAccessError, code(codeNotFound)
	case http.StatusForbidden:
		return e.Message, code(codeForbidden)
	case http.StatusConflict:
		return e.Message, code(codeConflict)
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return e.Message, code(codeBadInput)
	}
	return e.Message, code(codeInternal)
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
// (validation, conflict, bad argument) becomes the payload's errors list, anything else
// (missing, invisible, forbidden, internal) stays a GraphQL error.
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
	case apperr.KindBadRequest, apperr.KindConflict:
		return []string{e.Message}, nil
	case apperr.KindMessage:
		if e.Status == http.StatusBadRequest || e.Status == http.StatusConflict || e.Status == http.StatusUnprocessableEntity {
			return []string{e.Message}, nil
		}
	}
	return nil, err
}
