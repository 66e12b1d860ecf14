package repositoryapi

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
)

// noCache writes the headers of GitLab's no_cache_headers (raw downloads are never cached).
func noCache(c *gin.Context) {
	c.Header("Cache-Control", "max-age=0, private, must-revalidate, no-store, no-cache")
	c.Header("Pragma", "no-cache")
	c.Header("Expires", "Fri, 01 Jan 1990 00:00:00 GMT")
}

// sniffLen is how much content decides the type (http.DetectContentType reads 512 bytes).
const sniffLen = 512

// blobHeaders sets the content type and disposition of raw content as GitLab Workhorse does
// for a blob: the type is detected from the first bytes; any text is sent as text/plain (never
// HTML or script); text, images (but SVG), audio, video and PDF are shown inline, anything else
// is an attachment. name is the file name ("" for a blob by id).
func blobHeaders(h http.Header, head []byte, name string, size int64) {
	ct := contentType(head)
	disposition := "inline"
	if !inlineType(ct) {
		disposition = "attachment"
	}
	if name != "" {
		disposition += "; " + fileNameParams(name)
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", disposition)
	h.Set("Content-Length", strconv.FormatInt(size, 10))
}

func contentType(head []byte) string {
	if isSVG(head) {
		return "image/svg+xml"
	}
	ct := http.DetectContentType(head)
	if strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") {
		return "text/plain; charset=utf-8"
	}
	return ct
}

func isSVG(head []byte) bool {
	h := bytes.ToLower(head)
	return bytes.Contains(h, []byte("<svg")) && (bytes.HasPrefix(bytes.TrimSpace(h), []byte("<svg")) ||
		bytes.HasPrefix(bytes.TrimSpace(h), []byte("<?xml")) || bytes.HasPrefix(bytes.TrimSpace(h), []byte("<!doctype svg")))
}

func inlineType(ct string) bool {
	if ct == "image/svg+xml" {
		return false
	}
	for _, prefix := range []string{"image/", "text/", "video/", "audio/", "application/pdf"} {
		if strings.HasPrefix(ct, prefix) {
			return true
		}
	}
	return false
}

// fileNameParams renders the filename parameters as Rails' ContentDisposition does: a quoted
// ASCII fallback (non-ASCII characters become "?") and the RFC 5987 UTF-8 form, both
// percent-escaped.
func fileNameParams(name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r > 0x7e || r < 0x20 {
			return '?'
		}
		return r
	}, name)
	return `filename="` + percentEscape(ascii, " !#$+.^_`|~-") + `"; filename*=UTF-8''` + percentEscape(name, "!#$&+.^_`|~-")
}

// percentEscape escapes every byte that is not alphanumeric or in keep.
func percentEscape(s, keep string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte(keep, ch) >= 0 {
			b.WriteByte(ch)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", ch)
	}
	return b.String()
}

// sniffWriter holds back the first bytes of a download until they decide its headers, then
// streams through a buffer (git writes in small pieces; the buffer turns them into few large
// socket writes). Nothing reaches the client before the first sniffLen bytes (or the end), so
// a failure before then can still be answered with a JSON error.
type sniffWriter struct {
	w       gin.ResponseWriter
	buf     *bufio.Writer
	head    []byte
	started bool
	start   func(h http.Header, head []byte)
}

func (s *sniffWriter) Write(p []byte) (int, error) {
	if s.started {
		return s.buf.Write(p)
	}
	need := sniffLen - len(s.head)
	if len(p) < need {
		s.head = append(s.head, p...)
		return len(p), nil
	}
	s.head = append(s.head, p[:need]...)
	if err := s.flush(); err != nil {
		return 0, err
	}
	n, err := s.buf.Write(p[need:])
	return need + n, err
}

// flush sends the headers and the held bytes.
func (s *sniffWriter) flush() error {
	if s.started {
		return nil
	}
	s.started = true
	s.start(s.w.Header(), s.head)
	s.w.WriteHeader(http.StatusOK)
	s.buf = bufio.NewWriterSize(s.w, 64<<10)
	_, err := s.buf.Write(s.head)
	return err
}

// finish sends everything still held.
func (s *sniffWriter) finish() error {
	if err := s.flush(); err != nil {
		return err
	}
	return s.buf.Flush()
}

// stream runs write into the response. An error before any byte went out is returned for the
// caller to render; after that the connection is dropped, so the client sees a truncated
// transfer rather than a clean end.
func stream(c *gin.Context, write func(context.Context, io.Writer) error, start func(h http.Header, head []byte)) error {
	sw := &sniffWriter{w: c.Writer, start: start}
	err := write(c.Request.Context(), sw)
	if err == nil {
		err = sw.finish()
	}
	if err == nil || !sw.started {
		return err
	}
	slog.WarnContext(c.Request.Context(), "download interrupted", "route", c.FullPath(), "err", err)
	abort(c)
	return nil
}

// abort closes the connection of a response that cannot be finished.
func abort(c *gin.Context) {
	if conn, _, err := c.Writer.Hijack(); err == nil {
		_ = conn.Close()
	}
	c.Abort()
}

// RawHeaders sets the headers of raw content sent whole (a snippet's file): its type and
// disposition as blobHeaders decides them, and no caching.
func RawHeaders(c *gin.Context, data []byte, name string) {
	noCache(c)
	head := data
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	blobHeaders(c.Writer.Header(), head, name, int64(len(data)))
}

// Stream is stream for the raw downloads of other resources (a merge request's raw diffs):
// write runs into the response; start sets the headers once the first bytes are known.
func Stream(c *gin.Context, write func(context.Context, io.Writer) error, start func(h http.Header, head []byte)) error {
	return stream(c, write, start)
}

// NoCache writes GitLab's no_cache_headers.
func NoCache(c *gin.Context) { noCache(c) }
