package repositoryapi

import (
	"net/http"
	"strconv"

	"anvil/internal/service/repofiles"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// requireRef reads the ref parameter as the files API declares it: required and not blank.
func requireRef(b *params.Binder) string {
	b.Require("ref")
	return nonBlank(b, "ref")
}

// nonBlank reads a string that may not be blank (Grape's allow_blank: false).
func nonBlank(b *params.Binder, name string) string {
	v := b.String(name)
	if v == nil {
		return ""
	}
	if *v == "" {
		b.Fail(name + " is empty")
	}
	return *v
}

// setFileHeaders sends the file's metadata as X-Gitlab-* headers, as GitLab does on every
// files read.
func setFileHeaders(c *gin.Context, m presenter.FileMeta) {
	for _, kv := range m.Headers() {
		c.Header(kv[0], kv[1])
	}
}

// getFile handles GET and HEAD /projects/:id/repository/files/:file_path: the metadata and
// Base64 content (HEAD: the metadata as headers only).
func (h *handlers) getFile(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	ref := requireRef(b)
	if err := b.Err(); err != nil {
		return err
	}
	head := c.Request.Method == http.MethodHead
	f, err := h.svc.GetFile(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		repofiles.FileParams{Path: httpx.PathParam(c, "file_path"), Ref: ref, Content: !head})
	if err != nil {
		return err
	}
	meta := presenter.FileMetaOf(f)
	setFileHeaders(c, meta)
	if head {
		c.Header("Content-Type", "application/json")
		c.Status(http.StatusOK)
		c.Writer.WriteHeaderNow()
		return nil
	}
	return httpx.OK(c, presenter.FileOf(f))
}

// rawFile handles GET and HEAD /projects/:id/repository/files/:file_path/raw: the file's bytes
// (ref defaults to the default branch), with the metadata headers.
func (h *handlers) rawFile(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	ref := nonBlank(b, "ref")
	lfs := b.BoolDefault("lfs", false)
	if err := b.Err(); err != nil {
		return err
	}
	f, err := h.svc.GetFile(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		repofiles.FileParams{Path: httpx.PathParam(c, "file_path"), Ref: ref, Raw: true, LFS: lfs})
	if err != nil {
		return err
	}
	noCache(c)
	setFileHeaders(c, presenter.FileMetaOf(f))
	return sendContent(c, f.Name, f.Size, f.Peek, f.WriteTo)
}

// blame handles GET and HEAD /projects/:id/repository/files/:file_path/blame.
func (h *handlers) blame(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := repofiles.BlameParams{Path: httpx.PathParam(c, "file_path"), Ref: requireRef(b)}
	if b.Has("range") {
		p.StartLine, p.EndLine = bindRange(b)
	}
	if err := b.Err(); err != nil {
		return err
	}
	f, ranges, err := h.svc.Blame(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p)
	if err != nil {
		return err
	}
	setFileHeaders(c, presenter.FileMetaOf(f))
	if c.Request.Method == http.MethodHead {
		c.Header("Content-Type", "application/json")
		c.Status(http.StatusOK)
		c.Writer.WriteHeaderNow()
		return nil
	}
	return httpx.OK(c, presenter.BlameRanges(ranges))
}

// bindRange reads range[start] and range[end]: both required, positive integers.
func bindRange(b *params.Binder) (int, int) {
	r := b.Hash("range")
	if r == nil {
		return 0, 0
	}
	line := func(key string) int {
		name := "range[" + key + "]"
		v, ok := r[key]
		if !ok {
			b.Fail(name + " is missing")
			return 0
		}
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			b.Fail(name + " is invalid")
		case n <= 0:
			b.Fail(name + " does not have a valid value")
		}
		return n
	}
	return line("start"), line("end")
}

// createFile handles POST /projects/:id/repository/files/:file_path: 201 {file_path, branch}.
func (h *handlers) createFile(c *gin.Context) error {
	in, err := bindWrite(c, true)
	if err != nil {
		return err
	}
	if _, err := h.svc.CreateFile(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in); err != nil {
		return err
	}
	return httpx.Created(c, presenter.FileInfo{FilePath: in.Path, Branch: in.Branch})
}

// updateFile handles PUT /projects/:id/repository/files/:file_path: 200 {file_path, branch}.
func (h *handlers) updateFile(c *gin.Context) error {
	in, err := bindWrite(c, true)
	if err != nil {
		return err
	}
	if _, err := h.svc.UpdateFile(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in); err != nil {
		return err
	}
	return httpx.OK(c, presenter.FileInfo{FilePath: in.Path, Branch: in.Branch})
}

// deleteFile handles DELETE /projects/:id/repository/files/:file_path: 204.
func (h *handlers) deleteFile(c *gin.Context) error {
	in, err := bindWrite(c, false)
	if err != nil {
		return err
	}
	if _, err := h.svc.DeleteFile(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// bindWrite reads the parameters of a file change; withContent adds content, encoding and
// execute_filemode (create and update).
func bindWrite(c *gin.Context, withContent bool) (repofiles.WriteInput, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return repofiles.WriteInput{}, err
	}
	b.Require("branch", "commit_message")
	in := repofiles.WriteInput{
		Path:          httpx.PathParam(c, "file_path"),
		Branch:        nonBlank(b, "branch"),
		CommitMessage: nonBlank(b, "commit_message"),
		StartBranch:   b.StringDefault("start_branch", ""),
		AuthorEmail:   b.StringDefault("author_email", ""),
		AuthorName:    b.StringDefault("author_name", ""),
		LastCommitID:  b.StringDefault("last_commit_id", ""),
	}
	if withContent {
		b.Require("content")
		in.Content = b.StringDefault("content", "")
		in.Encoding = "text"
		if v := b.Enum("encoding", "base64", "text"); v != nil {
			in.Encoding = *v
		}
		in.ExecuteFilemode = b.Bool("execute_filemode")
	}
	return in, b.Err()
}
