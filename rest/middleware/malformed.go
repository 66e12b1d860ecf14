package middleware

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"anvil/internal/apperr"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// RejectMalformed answers 400 {"error":"<name> is invalid"} when a path parameter or the sudo
// header or parameter decodes to text that is not UTF-8 or holds a NUL byte. Such values match
// nothing, but they reach the database before any lookup can say so, and PostgreSQL refuses
// them with an error that would surface as a 500. GitLab refuses them up front too (its
// HandleMalformedStrings middleware answers 400). Parameters read through the binder are
// checked there; these are the values read around it.
func RejectMalformed(c *gin.Context) {
	for _, p := range c.Params {
		v, err := url.PathUnescape(p.Value)
		if err != nil || malformed(v) {
			httpx.Error(c, apperr.Invalid(p.Key))
			return
		}
	}
	if malformed(c.Request.Header.Get("Sudo")) || malformed(c.Request.URL.Query().Get("sudo")) {
		httpx.Error(c, apperr.Invalid("sudo"))
		return
	}
	c.Next()
}

// malformed reports text no record can hold: invalid UTF-8 or a NUL byte.
func malformed(s string) bool { return !utf8.ValidString(s) || strings.ContainsRune(s, 0) }
