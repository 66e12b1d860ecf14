package repofiles

import (
	"net/url"
	"strings"

	"anvil/internal/apperr"
)

// errFilePath is Grape's answer to a file_path that fails GitLab's FilePath validator.
var errFilePath = apperr.BadParam("file_path should be a valid file path")

// checkFilePath validates a file_path parameter as GitLab's FilePath validator does: no NUL
// byte, no ".." component (also once more percent-decoded, as GitLab decodes before checking),
// and no absolute path, except that raw downloads accept one leading "/" (dropped). It returns
// the path to use.
func checkFilePath(p string, allowLeadingSlash bool) (string, error) {
	if allowLeadingSlash {
		p = strings.TrimPrefix(p, "/")
	}
	if p == "" || strings.HasPrefix(p, "/") || traverses(p) {
		return "", errFilePath
	}
	if dec, err := url.PathUnescape(p); err == nil && dec != p && (strings.HasPrefix(dec, "/") || traverses(dec)) {
		return "", errFilePath
	}
	return p, nil
}

// traverses reports a NUL byte or a ".." component (with either slash).
func traverses(p string) bool {
	if strings.ContainsRune(p, 0) {
		return true
	}
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return true
		}
	}
	return p == ".."
}
