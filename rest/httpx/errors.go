package httpx

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"anvil/internal/apperr"

	"github.com/gin-gonic/gin"
)

// Error renders err as GitLab does. Errors that are not application errors are logged and
// answered 500 without detail.
func Error(c *gin.Context, err error) {
	status, body := Render(err)
	if status == http.StatusInternalServerError {
		if errors.Is(err, context.Canceled) {
			status = 499 // client went away; nothing useful to send
		}
		slog.ErrorContext(c.Request.Context(), "request failed", "method", c.Request.Method, "route", c.FullPath(), "err", err)
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
		return http.StatusInternalServerError, gin.H{"message": "500 Internal Server Error"}
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
