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
	} else if _, ok := apperr.As(err); !ok {
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

// Render maps an error to GitLab's status and body.
func Render(err error) (int, any) {
	e, ok := apperr.As(err)
	if !ok {
		return renderStorage(err)
	}
	switch e.Kind {
	case apperr.KindNotFound:
		return http.StatusNotFound, gin.H{"message": e.Error()}
	case apperr.KindUnauthorized:
		return http.StatusUnauthorized, gin.H{"message": "401 Unauthorized"}
	case apperr.KindForbidden:
		return http.StatusForbidden, gin.H{"message": e.Message}
	case apperr.KindBadRequest:
		// Grape's error!(text, status) answers {"error": text} with any status (405 for
		// pagination limits, 403 for quotas); 400 unless the error says otherwise.
		status := http.StatusBadRequest
		if e.Status != 0 {
			status = e.Status
		}
		return status, gin.H{"error": e.Message}
	case apperr.KindValidation:
		status := http.StatusBadRequest
		if e.Status != 0 {
			status = e.Status
		}
		return status, gin.H{"message": e.Fields}
	case apperr.KindConflict:
		return http.StatusConflict, gin.H{"message": e.Message}
	case apperr.KindScope:
		return http.StatusForbidden, gin.H{
			"error":             "insufficient_scope",
			"error_description": "The request requires higher privileges than provided by the access token.",
			"scope":             strings.Join(e.Scopes, " "),
		}
	case apperr.KindInvalidToken:
		return http.StatusUnauthorized, gin.H{"error": "invalid_token", "error_description": e.Message}
	case apperr.KindRateLimited:
		return http.StatusTooManyRequests, gin.H{"message": gin.H{"error": e.Message}}
	case apperr.KindMessage:
		body := gin.H{"message": e.Message}
		if e.Code != "" {
			body["error_code"] = e.Code
		}
		return e.Status, body
	}
	return http.StatusInternalServerError, gin.H{"message": "500 Internal Server Error"}
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
