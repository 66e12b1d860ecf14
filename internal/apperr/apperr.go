// Package apperr defines the typed errors every operation in internal/ returns. An error says
// what went wrong (its Kind) and carries the human text; it never names an HTTP status or a
// transport's wording. Each transport maps the kinds once: rest/httpx/errors.go to GitLab's
// statuses and bodies, graph/errors.go to GraphQL errors (see docs/ARCHITECTURE.md, "Errors").
package apperr

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Kind classifies an error by what went wrong; transports decide how each kind is answered.
type Kind int

// The kinds of application errors.
const (
	// KindNotFound: the resource does not exist or the caller may not see it.
	KindNotFound Kind = iota + 1
	// KindUnauthorized: authentication is missing or invalid.
	KindUnauthorized
	// KindInvalidToken: the token presented has expired or been revoked.
	KindInvalidToken
	// KindForbidden: the caller sees the resource but may not act on it.
	KindForbidden
	// KindScope: the token's scopes do not cover the request.
	KindScope
	// KindParam: a request parameter is missing, malformed or outside its values (Grape's
	// parameter errors); the message names the parameter.
	KindParam
	// KindBadRequest: the request was understood and refused, with a reason or a sentence.
	KindBadRequest
	// KindValidation: the model refused the change, attribute by attribute.
	KindValidation
	// KindUnprocessable: the change is well-formed but cannot be carried out.
	KindUnprocessable
	// KindConflict: the change conflicts with the current state (a concurrent write, a taken
	// name).
	KindConflict
	// KindNotAllowed: the operation is not offered for this resource.
	KindNotAllowed
	// KindPreconditionFailed: a precondition the caller gave (if-unmodified-since, a last
	// owner rule) does not hold.
	KindPreconditionFailed
	// KindTooLarge: the request body is larger than accepted.
	KindTooLarge
	// KindRateLimited: the caller made too many requests; RetryIn says when to try again.
	KindRateLimited
)

var kindNames = map[Kind]string{
	KindNotFound: "not found", KindUnauthorized: "unauthorized", KindInvalidToken: "invalid token",
	KindForbidden: "forbidden", KindScope: "insufficient scope", KindParam: "invalid parameter",
	KindBadRequest: "bad request", KindValidation: "validation failed", KindUnprocessable: "unprocessable",
	KindConflict: "conflict", KindNotAllowed: "not allowed", KindPreconditionFailed: "precondition failed",
	KindTooLarge: "too large", KindRateLimited: "too many requests",
}

// String names the kind in plain words.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is an application error. The text is in exactly one of Message (a whole sentence,
// shown as it is), Reason (why the kind applies, shown after the kind's own words, as GitLab's
// forbidden!/bad_request!/unauthorized! helpers do), Messages, Fields or, for KindNotFound,
// Resource; none means the kind's own words alone.
type Error struct {
	Kind Kind
	// Message is a whole human sentence ("Could not update refs/heads/main. Please refresh and
	// try again."); for KindParam the whole parameter error ("id is invalid").
	Message string
	// Reason qualifies the kind: "Not permitted to revoke" of a refused request.
	Reason string
	// Resource names what was not found (KindNotFound): "Project", "Group", "User with ID or
	// username 'x'"; empty means nothing in particular.
	Resource string
	// Record marks a KindNotFound of a record looked up by id, which GitLab words on its own.
	Record bool
	// Messages is a list of full messages ("Name has already been taken").
	Messages []string
	// Fields holds KindValidation's messages by attribute.
	Fields map[string][]string
	// Scopes are the scopes that would have been accepted (KindScope).
	Scopes []string
	// RetryIn is when a KindRateLimited caller may try again.
	RetryIn time.Duration
	// Code is an optional machine-readable code (GitLab's error_code).
	Code string
}

// Error returns the error's text in plain words, for logs.
func (e *Error) Error() string {
	switch {
	case e.Message != "":
		return e.Message
	case len(e.Messages) > 0:
		return strings.Join(e.Messages, ", ")
	case e.Kind == KindValidation:
		return FieldSentence(e.Fields)
	case e.Kind == KindNotFound && e.Resource != "":
		return e.Resource + " not found"
	case e.Kind == KindScope:
		return "insufficient scope: " + strings.Join(e.Scopes, " ")
	case e.Reason != "":
		return e.Kind.String() + ": " + e.Reason
	}
	return e.Kind.String()
}

// Text is the error's human text without any transport wording: the message, the reason, or
// the messages joined; empty when the kind alone says it.
func (e *Error) Text() string {
	switch {
	case e.Message != "":
		return e.Message
	case e.Reason != "":
		return e.Reason
	case len(e.Messages) > 0:
		return strings.Join(e.Messages, ", ")
	}
	return ""
}

// FieldSentence joins validation messages by attribute: "name can't be blank; path is taken".
func FieldSentence(fields map[string][]string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+" "+strings.Join(fields[k], ", "))
	}
	return strings.Join(parts, "; ")
}

// As returns err as an *Error when it is one.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// Is reports whether err is an application error of one of kinds.
func Is(err error, kinds ...Kind) bool {
	e, ok := As(err)
	if !ok {
		return false
	}
	for _, k := range kinds {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// IsNotFound reports whether err is a not-found error.
func IsNotFound(err error) bool { return Is(err, KindNotFound) }

// Wrapf wraps an unexpected error with context; it is answered as an internal error.
func Wrapf(err error, format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, err)...)
}
