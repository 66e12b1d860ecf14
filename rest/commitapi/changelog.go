package commitapi

import (
	"time"

	"anvil/internal/service/commits"
	"anvil/internal/service/commits/changelog"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// bindChangelog reads the parameters shared by both changelog routes.
func bindChangelog(b *params.Binder, commit bool) commits.ChangelogInput {
	b.Require("version")
	in := commits.ChangelogInput{
		Version:       b.StringDefault("version", ""),
		From:          b.String("from"),
		To:            b.String("to"),
		Trailer:       b.StringDefault("trailer", commits.DefaultTrailer),
		ConfigFile:    b.StringDefault("config_file", changelog.DefaultConfigFile),
		ConfigFileRef: b.StringDefault("config_file_ref", ""),
	}
	if b.Has("version") && !changelog.ValidVersion(in.Version) {
		b.Fail("version is invalid")
	}
	if s := b.String("date"); s != nil {
		// A datetime keeps its offset: the release date is the date where it was given.
		if t, err := time.Parse(time.RFC3339Nano, *s); err == nil {
			in.Date = &t
		} else if t, ok := params.ParseTime(*s); ok {
			in.Date = &t
		} else {
			b.Fail("date is invalid")
		}
	}
	if commit {
		in.Branch = b.String("branch")
		in.File = b.StringDefault("file", commits.DefaultChangelogFile)
		in.Message = b.String("message")
	}
	return in
}

// changelog handles GET /projects/:id/repository/changelog: {"notes": "<markdown>"}.
func (h *handlers) changelog(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindChangelog(b, false)
	if err := b.Err(); err != nil {
		return err
	}
	notes, err := h.svc.Changelog(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, gin.H{"notes": notes})
}

// commitChangelog handles POST /projects/:id/repository/changelog: the section is committed
// into the changelog file; 200.
func (h *handlers) commitChangelog(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindChangelog(b, true)
	if err := b.Err(); err != nil {
		return err
	}
	if err := h.svc.CommitChangelog(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in); err != nil {
		return err
	}
	return httpx.OK(c, statusOK)
}
