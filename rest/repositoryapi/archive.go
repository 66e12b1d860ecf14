package repositoryapi

import (
	"net/http"
	"strings"

	"anvil/internal/git"
	"anvil/internal/service/repofiles"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// archive handles GET /projects/:id/repository/archive[.format] for one route suffix ("" takes
// the format parameter, else tar.gz): the archive is streamed as git writes it, named as GitLab
// names it.
func (h *handlers) archive(suffix string) httpx.Handler {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		p := repofiles.ArchiveParams{SHA: b.StringDefault("sha", ""), Path: b.StringDefault("path", ""), Format: suffix}
		if suffix == "" {
			p.Format = b.StringDefault("format", "")
		}
		if err := b.Err(); err != nil {
			return err
		}
		a, err := h.svc.PrepareArchive(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p)
		if err != nil {
			return err
		}
		headers := func(hd http.Header, _ []byte) { archiveHeaders(hd, a) }
		if c.Request.Method == http.MethodHead {
			headers(c.Writer.Header(), nil)
			c.Status(http.StatusOK)
			c.Writer.WriteHeaderNow()
			return nil
		}
		return stream(c, a.WriteTo, headers)
	}
}

// archiveHeaders are the headers GitLab Workhorse sends with an archive.
func archiveHeaders(h http.Header, a *repofiles.Archive) {
	ct := "application/octet-stream"
	if a.Format == git.ArchiveZip {
		ct = "application/zip"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Transfer-Encoding", "binary")
	h.Set("Content-Disposition", `attachment; filename="`+quoteName(a.FileName)+`"`)
	h.Set("Cache-Control", "private")
}

// quoteName makes a name safe inside a quoted header parameter.
func quoteName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '"' || r == '\\':
			return '_'
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
}
