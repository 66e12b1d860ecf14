package httpx

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"

	"github.com/gin-gonic/gin"
)

// Error renders err as GitLab does; a project addressed by the old path it moved from is
// redirected instead (moved.go). Errors that are not application errors are logged and
// answered 500 without detail.
func Error(c *gin.Context, err error) {
	if answerMoved(c, err) {
		return
	}
	status, body := Render(err)
	if status == http.StatusInternalServerError {
		if errors.Is(err, context.Canceled) {
			status = 499 // client went away; nothing useful to send
		}
		slog.ErrorContext(c.Request.Context(), "request failed", "method", c.Request.Method, "route", c.FullPath(), "err", err)
	} else if _, ok := apperr.As(err); !ok && !isGrapeError(err) {
		slog.WarnContext(c.Request.Context(), "the database refused a write the service did not check",
			"method", c.Request.Method, "route", c.FullPath(), "status", status, "err", err)
	}
	if e, ok := apperr.As(err); ok {
		switch e.Kind {
		case apperr.KindRateLimited:
			c.Header("Retry-After", strconv.Itoa(max(1, int(e.RetryIn.Seconds()+0.5))))
		case apperr.KindInvalidToken:
			c.Header("WWW-Authenticate", `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="`+e.Message+`"`)
		case apperr.KindScope:
			c.Header("WWW-Authenticate", `Bearer realm="Protected by OAuth 2.0", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="`+strings.Join(e.Scopes, " ")+`"`)
		}
	}
	JSON(c, status, body)
	c.Abort()
}

// statuses is the HTTP status of each kind of application error.
var statuses = map[apperr.Kind]int{
	apperr.KindNotFound:           http.StatusNotFound,
	apperr.KindUnauthorized:       http.StatusUnauthorized,
	apperr.KindInvalidToken:       http.StatusUnauthorized,
	apperr.KindForbidden:          http.StatusForbidden,
	apperr.KindScope:              http.StatusForbidden,
	apperr.KindParam:              http.StatusBadRequest,
	apperr.KindBadRequest:         http.StatusBadRequest,
	apperr.KindValidation:         http.StatusBadRequest,
	apperr.KindUnprocessable:      http.StatusUnprocessableEntity,
	apperr.KindConflict:           http.StatusConflict,
	apperr.KindNotAllowed:         http.StatusMethodNotAllowed,
	apperr.KindPreconditionFailed: http.StatusPreconditionFailed,
	apperr.KindTooLarge:           http.StatusRequestEntityTooLarge,
	apperr.KindRateLimited:        http.StatusTooManyRequests,
}

// statusLines are GitLab's words for a kind when no sentence of its own is given: the line
// its API helpers (not_found!, forbidden!, bad_request!, conflict!, ...) write, to which a
// reason is appended after " - ".
var statusLines = map[apperr.Kind]string{
	apperr.KindNotFound:           "404 Not Found",
	apperr.KindUnauthorized:       "401 Unauthorized",
	apperr.KindForbidden:          "403 Forbidden",
	apperr.KindBadRequest:         "400 Bad request",
	apperr.KindUnprocessable:      "422 Unprocessable Entity",
	apperr.KindConflict:           "409 Conflict",
	apperr.KindNotAllowed:         "405 Method Not Allowed",
	apperr.KindPreconditionFailed: "412 Precondition Failed",
	apperr.KindTooLarge:           "413 Request Entity Too Large",
}

// Render maps an error to GitLab's status and body.
func Render(err error) (int, any) {
	var ge *grapeError
	if errors.As(err, &ge) {
		return ge.status, gin.H{"error": ge.text}
	}
	e, ok := apperr.As(err)
	if !ok {
		return renderStorage(err)
	}
	status, known := statuses[e.Kind]
	if !known {
		return http.StatusInternalServerError, gin.H{"message": "500 Internal Server Error"}
	}
	switch e.Kind {
	case apperr.KindParam:
		// Grape's parameter errors: {"error": "<param> is invalid"}.
		return status, gin.H{"error": e.Message}
	case apperr.KindScope:
		return status, gin.H{
			"error":             "insufficient_scope",
			"error_description": "The request requires higher privileges than provided by the access token.",
			"scope":             strings.Join(e.Scopes, " "),
		}
	case apperr.KindInvalidToken:
		return status, gin.H{"error": "invalid_token", "error_description": e.Message}
	case apperr.KindRateLimited:
		return status, gin.H{"message": gin.H{"error": e.Message}}
	}
	body := gin.H{"message": Message(e)}
	if e.Code != "" {
		body["error_code"] = e.Code
	}
	return status, body
}

// Message is the "message" of GitLab's body for e: its sentence, its list of messages, its
// validation messages by attribute, or the kind's status line with the reason or resource.
func Message(e *apperr.Error) any {
	switch {
	case e.Message != "":
		return e.Message
	case e.Messages != nil:
		return e.Messages
	case e.Kind == apperr.KindValidation:
		return e.Fields
	case e.Kind == apperr.KindNotFound && e.Record:
		return "404 Not found" // GitLab's answer to Rails' RecordNotFound
	case e.Kind == apperr.KindNotFound && e.Resource != "":
		return "404 " + e.Resource + " Not Found"
	}
	line := statusLines[e.Kind]
	if e.Reason != "" {
		line += " - " + e.Reason
	}
	return line
}

// grapeError is Grape's error!(text, status): {"error": text} with a status of its own, for
// the few answers only the REST API gives that way (pagination limits, the projects limit).
type grapeError struct {
	status int
	text   string
}

func (e *grapeError) Error() string { return e.text }

// GrapeError is Grape's error!(text, status): {"error": text} with the given status.
func GrapeError(status int, text string) error { return &grapeError{status: status, text: text} }

func isGrapeError(err error) bool {
	var ge *grapeError
	return errors.As(err, &ge)
}

// renderStorage is the safety net for errors the services should have turned into application
// errors: a schema validator's refusal is the client's bad input (400 naming the field) and a
// constraint violation is a conflicting concurrent write (409); answering 500 instead would make
// client-go retry the write five times. Anything else is a server fault.
func renderStorage(err error) (int, any) {
	var ve *ent.ValidationError
	// A validator failure wraps the validator's own error; a missing required field does not
	// (that one is a programming error and stays a 500).
	if errors.As(err, &ve) && errors.Unwrap(ve.Unwrap()) != nil {
		return http.StatusBadRequest, gin.H{"message": gin.H{ve.Name: []string{"is invalid"}}}
	}
	if ent.IsConstraintError(err) {
		return http.StatusConflict, gin.H{"message": "409 Conflict"}
	}
	return http.StatusInternalServerError, gin.H{"message": "500 Internal Server Error"}
}
