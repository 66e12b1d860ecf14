package mergerequestapi

import (
	"net/http"
	"strconv"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/mergerequests/versions"
	"anvil/rest/httpx"
	"anvil/rest/presenter"
	"anvil/rest/repositoryapi"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// diffHandlers serve a merge request's diff versions, changes, diffs and commits.
type diffHandlers struct {
	*handlers
	versions *versions.Service
}

// registerDiffs adds the routes of a merge request's diffs and versions.
func (h *handlers) registerDiffs(t *route.Table) {
	d := &diffHandlers{handlers: h, versions: t.S.MergeRequestVersions}
	const mr = "/projects/:id/merge_requests/:merge_request_iid"
	t.GET(mr+"/changes", d.changes)
	t.GET(mr+"/diffs", d.diffs)
	t.GET(mr+"/raw_diffs", d.rawDiffs)
	t.GET(mr+"/versions", d.list)
	t.GET(mr+"/versions/:version_id", d.version)
	t.GET(mr+"/commits", d.commits)
}

// find is the merge request of the path, readable by the caller.
func (d *diffHandlers) find(c *gin.Context) (*ent.MergeRequest, authz.Level, error) {
	return d.mrs.Find(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "merge_request_iid"), authz.ReadMergeRequest)
}

// changes handles GET .../changes: the merge request with its latest version's files, past
// GitLab's safe limits collapsed; access_raw_diffs reads them from the repository instead,
// without the stored limits.
func (d *diffHandlers) changes(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	raw := b.BoolDefault("access_raw_diffs", false)
	unidiff := b.BoolDefault("unidiff", false)
	if err := b.Err(); err != nil {
		return err
	}
	ctx := c.Request.Context()
	mr, level, err := d.find(c)
	if err != nil {
		return err
	}
	o, err := d.single(c, b, mr, level, false)
	if err != nil {
		return err
	}
	var files []*ent.MergeRequestDiffFile
	overflow := false
	if raw {
		if files, err = d.versions.RawFiles(ctx, mr); err != nil {
			return err
		}
	} else {
		res, v, err := d.versions.Files(ctx, mr, nil)
		if err != nil {
			return err
		}
		files = versions.CollapseSafe(res.Items, d.versions.CurrentLimits(ctx))
		overflow = v != nil && v.State == versions.StateOverflow
	}
	return httpx.OK(c, presenter.MergeRequestChanges{
		MergeRequest: httpx.P(c).MergeRequest(mr, o),
		Changes:      presenter.MergeRequestDiffFiles(files, unidiff), Overflow: overflow,
	})
}

// diffs handles GET .../diffs: one page of the latest version's files (20 by default).
func (d *diffHandlers) diffs(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	unidiff := b.BoolDefault("unidiff", false)
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	mr, _, err := d.find(c)
	if err != nil {
		return err
	}
	res, _, err := d.versions.Files(c.Request.Context(), mr, &page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, res, presenter.MergeRequestDiffFiles(res.Items, unidiff))
}

// rawDiffs handles GET .../raw_diffs: the latest version's diff as git prints it, plain
// text, never cached (GitLab's send_git_diff of the merge request's diff_refs).
func (d *diffHandlers) rawDiffs(c *gin.Context) error {
	mr, _, err := d.find(c)
	if err != nil {
		return err
	}
	diff, err := d.versions.RawDiff(c.Request.Context(), mr)
	if err != nil {
		return err
	}
	repositoryapi.NoCache(c)
	return repositoryapi.Stream(c, diff.WriteTo, func(h http.Header, _ []byte) {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	})
}

// list handles GET .../versions: the versions, newest first.
func (d *diffHandlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	mr, _, err := d.find(c)
	if err != nil {
		return err
	}
	res, err := d.versions.List(c.Request.Context(), mr, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, res, presenter.MergeRequestDiffs(res.Items))
}

// version handles GET .../versions/:version_id: one version with its commits and diffs.
func (d *diffHandlers) version(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	unidiff := b.BoolDefault("unidiff", false)
	if err := b.Err(); err != nil {
		return err
	}
	id, err := strconv.Atoi(httpx.PathParam(c, "version_id"))
	if err != nil {
		return apperr.Invalid("version_id")
	}
	mr, _, err := d.find(c)
	if err != nil {
		return err
	}
	v, err := d.versions.Get(c.Request.Context(), mr, id)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeRequestDiffFull(mr.Edges.Project, v, unidiff))
}

// commits handles GET .../commits: the latest version's commits, newest first, as the
// repository's commits (with their trailers, as GitLab stores them).
func (d *diffHandlers) commits(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	mr, _, err := d.find(c)
	if err != nil {
		return err
	}
	res, err := d.versions.Commits(c.Request.Context(), mr, &page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, res, httpx.P(c).CommitList(mr.Edges.Project, res.Items, false, true))
}
