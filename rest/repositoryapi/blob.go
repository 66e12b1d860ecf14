package repositoryapi

import (
	"context"
	"io"
	"net/http"

	"anvil/rest/httpx"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// blob handles GET /projects/:id/repository/blobs/:sha: the blob with Base64 content.
func (h *handlers) blob(c *gin.Context) error {
	b, err := h.svc.Blob(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "sha"))
	if err != nil {
		return err
	}
	return httpx.OK(c, presenter.BlobOf(b))
}

// rawBlob handles GET and HEAD /projects/:id/repository/blobs/:sha/raw: the blob's bytes,
// streamed, typed from their first bytes, never cached.
func (h *handlers) rawBlob(c *gin.Context) error {
	br, err := h.svc.RawBlob(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "sha"))
	if err != nil {
		return err
	}
	noCache(c)
	return sendContent(c, "", br.Size, br.Peek, br.WriteTo)
}

// sendContent sends raw content: HEAD answers the headers from the first bytes alone, GET
// streams the whole content behind them.
func sendContent(c *gin.Context, name string, size int64, peek func(context.Context, int64) ([]byte, error),
	write func(context.Context, io.Writer) error) error {
	if c.Request.Method == http.MethodHead {
		head, err := peek(c.Request.Context(), sniffLen)
		if err != nil {
			return err
		}
		blobHeaders(c.Writer.Header(), head, name, size)
		c.Status(http.StatusOK)
		c.Writer.WriteHeaderNow()
		return nil
	}
	return stream(c, write, func(hd http.Header, head []byte) { blobHeaders(hd, head, name, size) })
}
