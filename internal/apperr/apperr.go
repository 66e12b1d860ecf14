// Package apperr defines the typed errors every operation in internal/ returns. Each transport
// maps them once: rest/resterr to GitLab's bodies, graph to GraphQL errors.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// Kind classifies an error by how it is answered.
type Kind int

// The kinds of application errors.
const (
	KindNotFound     Kind = iota + 1 // 404 {"message":"404 <Resource> Not Found"}
	KindUnauthorized                 // 401 {"message":"401 Unauthorized"}
	KindForbidden                    // 403 {"message":"403 Forbidden[ - reason]"}
	KindBadRequest                   // 400 {"error":"<param> is invalid"}, Grape's parameter errors
	KindValidation                   // 400 {"message":{"field":["..."]}}, model validation
	KindMessage                      // any status with {"message":"..."}
	KindConflict                     // 409 {"message":"..."}
	KindScope                        // 403 insufficient_scope
	KindRateLimited                  // 429 with Retry-After
	KindInvalidToken                 // 401 {"error":"invalid_token","error_description":...}
)

// Error is an application error.
type Error struct {
	Kind     Kind
	Status   int                 // HTTP status for KindMessage (and overrides for others when set)
	Resource string              // KindNotFound: "Project", "Group", "User", ...; empty means "Not Found"
	Message  string              // human text; for KindBadRequest the whole "<param> is invalid"
	Fields   map[string][]string // KindValidation: attribute -> messages
	Scopes   []string            // KindScope: the scopes that would have been accepted
	RetryIn  time.Duration       // KindRateLimited
	Code     string              // optional machine code (error_code in some GitLab bodies)
}

func (e *Error) Error() string {
	switch e.Kind {
	case KindNotFound:
		if e.Resource == "" {
			return "404 Not Found"
		}
		return "404 " + e.Resource + " Not Found"
	case KindValidation:
		keys := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, k+" "+strings.Join(e.Fields[k], ", "))
		}
		return strings.Join(parts, "; ")
	}
	return e.Message
}

// NotFound reports that resource does not exist or that the caller may not see it.
func NotFound(resource string) *Error { return &Error{Kind: KindNotFound, Resource: resource} }

// NotFoundMessage is a 404 with a custom message, for example "404 User with ID or username 'x' Not Found".
func NotFoundMessage(msg string) *Error {
	return &Error{Kind: KindMessage, Status: http.StatusNotFound, Message: msg}
}

// Unauthorized reports a missing or invalid authentication.
func Unauthorized() *Error { return &Error{Kind: KindUnauthorized, Message: "401 Unauthorized"} }

// Forbidden reports that a visible resource may not be acted on; reason may be empty.
func Forbidden(reason string) *Error {
	msg := "403 Forbidden"
	if reason != "" {
		msg += " - " + reason
	}
	return &Error{Kind: KindForbidden, Message: msg}
}

// Invalid reports a parameter that failed to parse: {"error":"<param> is invalid"}.
func Invalid(param string) *Error {
	return &Error{Kind: KindBadRequest, Message: param + " is invalid"}
}

// Missing reports a required parameter that was not given: {"error":"<param> is missing"}.
func Missing(param string) *Error {
	return &Error{Kind: KindBadRequest, Message: param + " is missing"}
}

// NotAllowedValue reports a parameter outside its allowed values.
func NotAllowedValue(param string) *Error {
	return &Error{Kind: KindBadRequest, Message: param + " does not have a valid value"}
}

// BadParam is a 400 {"error": msg} with a free-form message.
func BadParam(msg string) *Error { return &Error{Kind: KindBadRequest, Message: msg} }

// Validation reports model validation failures, attribute by attribute.
func Validation(fields map[string][]string) *Error {
	return &Error{Kind: KindValidation, Fields: fields}
}

// FieldError is Validation with one attribute and message.
func FieldError(field, msg string) *Error {
	return Validation(map[string][]string{field: {msg}})
}

// Message is an error answered with {"message": msg} and the given status.
func Message(status int, msg string) *Error {
	return &Error{Kind: KindMessage, Status: status, Message: msg}
}

// Conflict is a 409 with {"message": msg}.
func Conflict(msg string) *Error { return &Error{Kind: KindConflict, Message: msg} }

// InsufficientScope reports a token whose scopes do not allow the request.
func InsufficientScope(scopes ...string) *Error {
	return &Error{Kind: KindScope, Message: "insufficient_scope", Scopes: scopes}
}

// RateLimited reports a throttled request.
func RateLimited(retryIn time.Duration) *Error {
	return &Error{Kind: KindRateLimited, Message: "This endpoint has been requested too many times. Try again later.", RetryIn: retryIn}
}

// InvalidToken reports an expired or revoked token, as GitLab's OAuth guard words it.
func InvalidToken(description string) *Error {
	return &Error{Kind: KindInvalidToken, Message: description}
}

// As returns err as an *Error when it is one.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// IsNotFound reports whether err is a not-found error.
func IsNotFound(err error) bool {
	e, ok := As(err)
	return ok && (e.Kind == KindNotFound || (e.Kind == KindMessage && e.Status == http.StatusNotFound))
}

// Wrapf wraps an unexpected error with context; it is answered as a 500.
func Wrapf(err error, format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, err)...)
}
