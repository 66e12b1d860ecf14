package gitserver

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/git/pktline"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/repos"
)

// responseWriter streams git's output: every write is flushed at once (progress and sideband
// messages must reach the client as they come), and it remembers whether anything was sent, so
// that a failure before the first byte can still become an error status.
type responseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	written bool
}

func newResponseWriter(w http.ResponseWriter) *responseWriter {
	rc := http.NewResponseController(w)
	// The request body is still being read while git answers (receive-pack reports as it
	// goes); HTTP/1.1 servers would otherwise stop reading once the response starts.
	_ = rc.EnableFullDuplex()
	return &responseWriter{w: w, rc: rc}
}

func (rw *responseWriter) Write(p []byte) (int, error) {
	rw.written = true
	n, err := rw.w.Write(p)
	if err == nil {
		err = rw.rc.Flush()
	}
	return n, err
}

// fail answers err from git: when git refused the client's request (clientFault), 400 and a
// warning; otherwise 500 and an error. Once something was sent only the log line is left (the
// client sees a truncated response).
func (s *Server) fail(ctx context.Context, rw *responseWriter, what string, err error, body *bodyReader) {
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return
	}
	if msg, ok := clientFault(err, body); ok {
		s.Log.WarnContext(ctx, "git "+what+" refused the request", "err", err)
		if !rw.written {
			plain(rw.w, http.StatusBadRequest, msg)
		}
		return
	}
	s.Log.ErrorContext(ctx, "git "+what+" failed", "err", err)
	if !rw.written {
		plain(rw.w, http.StatusInternalServerError, "Internal server error")
	}
}

// refuse answers a request that is the client's error: 400 with a short message, logged as a
// warning, not an error.
func (s *Server) refuse(ctx context.Context, w http.ResponseWriter, what string, err error) {
	s.Log.WarnContext(ctx, "git "+what+": bad request", "err", err)
	var bad *badRequest
	if errors.As(err, &bad) {
		plain(w, http.StatusBadRequest, bad.Msg)
		return
	}
	plain(w, http.StatusBadRequest, "Bad request")
}

// gitProtocol is the client's Git-Protocol header ("version=2"). A header with characters git
// never sends there is ignored (protocol v0), as git ignores parameters it does not know,
// rather than failing the request.
func gitProtocol(r *http.Request) string {
	h := r.Header.Get("Git-Protocol")
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("=:.-_", c)) {
			return ""
		}
	}
	return h
}

// setHeaders writes the headers of a git response.
func setHeaders(w http.ResponseWriter, contentType string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("Pragma", "no-cache")
	h.Set("Expires", "Fri, 01 Jan 1980 00:00:00 GMT")
}

// advertise handles GET .../info/refs?service=...: the ref advertisement, preceded by the
// "# service=" pkt-line and a flush except for protocol v2 fetches, whose capability
// advertisement stands alone (as git http-backend does).
func (s *Server) advertise(w http.ResponseWriter, r *http.Request, svc service, p *ent.Project, repo *git.Repository) {
	ctx := r.Context()
	setHeaders(w, "application/x-"+string(svc)+"-advertisement")
	rw := newResponseWriter(w)
	proto := gitProtocol(r)
	if svc == receivePack || !strings.Contains(proto, "version=2") {
		if _, err := rw.Write(append(pktline.Format("# service="+string(svc)+"\n"), pktline.Flush...)); err != nil {
			return
		}
	}
	opts := git.PackOptions{Stdout: rw, AdvertiseRefs: true, GitProtocol: proto}
	var err error
	if svc == uploadPack {
		err = repo.UploadPack(ctx, opts)
	} else {
		err = repo.ReceivePack(ctx, opts)
	}
	if err != nil {
		s.fail(ctx, rw, "advertisement", err, nil)
	}
}

// requestBody returns the request body, decompressed when the client gzipped it.
func requestBody(r *http.Request) (io.Reader, error) {
	if strings.EqualFold(r.Header.Get("Content-Encoding"), "gzip") {
		return gzip.NewReader(r.Body)
	}
	return r.Body, nil
}

// checkContentType refuses a POST whose body is not the service's request type (415, as git
// http-backend answers).
func checkContentType(w http.ResponseWriter, r *http.Request, svc service) bool {
	if r.Header.Get("Content-Type") != "application/x-"+string(svc)+"-request" {
		plain(w, http.StatusUnsupportedMediaType, "Unsupported Media Type")
		return false
	}
	return true
}

// uploadPack handles POST .../git-upload-pack: a fetch or clone, streamed both ways.
func (s *Server) uploadPack(w http.ResponseWriter, r *http.Request, repo *git.Repository) {
	if !checkContentType(w, r, uploadPack) {
		return
	}
	ctx := r.Context()
	body, err := requestBody(r)
	if err != nil {
		s.refuse(ctx, w, "upload-pack", err)
		return
	}
	req, err := readUploadRequest(body, strings.Contains(gitProtocol(r), "version=2"))
	if err != nil {
		s.refuse(ctx, w, "upload-pack", err)
		return
	}
	setHeaders(w, "application/x-git-upload-pack-result")
	rw := newResponseWriter(w)
	if err := repo.UploadPack(ctx, git.PackOptions{Stdin: bytes.NewReader(req), Stdout: rw, GitProtocol: gitProtocol(r)}); err != nil {
		s.fail(ctx, rw, "upload-pack", err, nil)
	}
}

// receivePack handles POST .../git-receive-pack. The command list is read first and checked
// against branch protection; git then receives the push with Anvil's hooks: pre-receive carries
// out the verdicts (refusing the whole push with GitLab's message), post-receive lists the refs
// that moved, which are then recorded.
func (s *Server) receivePack(w http.ResponseWriter, r *http.Request, actor *authz.Actor, p *ent.Project, repo *git.Repository) {
	if !checkContentType(w, r, receivePack) {
		return
	}
	ctx := r.Context()
	body, err := requestBody(r)
	if err != nil {
		s.refuse(ctx, w, "receive-pack", err)
		return
	}
	br := bufio.NewReaderSize(body, 64<<10)
	cmds, raw, err := readCommands(br)
	if err == nil && len(raw) == 0 {
		err = badf("Bad request: empty body")
	}
	if err != nil {
		s.refuse(ctx, w, "receive-pack", err)
		return
	}
	hasBranches, err := repo.HasBranches(ctx)
	if err != nil {
		s.internal(ctx, err).write(w)
		return
	}
	head, err := repo.Head(ctx)
	if err != nil {
		s.internal(ctx, err).write(w)
		return
	}
	verdicts, err := s.Protected.CheckPush(ctx, actor, p, protectedbranches.RepoState{Empty: !hasBranches, DefaultBranch: head}, cmds)
	if err != nil {
		s.internal(ctx, err).write(w)
		return
	}
	result, err := os.CreateTemp(s.tmpDir, "push-*")
	if err != nil {
		s.internal(ctx, err).write(w)
		return
	}
	_ = result.Close()
	defer os.Remove(result.Name())
	env := map[string]string{envHook: "1", envRepo: repo.Path(), envHome: s.GitHome, envResult: result.Name()}
	if len(verdicts) > 0 {
		if env[envVerdicts], err = encodeVerdicts(verdicts); err != nil {
			s.internal(ctx, err).write(w)
			return
		}
	}
	setHeaders(w, "application/x-git-receive-pack-result")
	rw := newResponseWriter(w)
	in := &bodyReader{r: io.MultiReader(bytes.NewReader(raw), br)}
	err = repo.ReceivePackWithHooks(ctx, git.PackOptions{Stdin: in, Stdout: rw},
		git.ReceivePackHooks{Dir: s.hooksDir, Env: env})
	if err != nil {
		s.fail(ctx, rw, "receive-pack", err, in)
	}
	// Whatever git accepted is in the repository now, even if the client went away: record it.
	updates, rerr := readUpdates(result.Name())
	if rerr != nil {
		s.Log.ErrorContext(ctx, "read push result", "project_id", p.ID, "err", rerr)
		return
	}
	if err := s.Repos.RecordPush(background(ctx), actor, p, repo, !hasBranches, updates); err != nil {
		s.Log.ErrorContext(ctx, "record push", "project_id", p.ID, "err", err)
	}
}

// readUpdates reads the ref updates post-receive wrote.
func readUpdates(path string) ([]repos.RefUpdate, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmds, err := readHookCommands(f)
	if err != nil {
		return nil, err
	}
	out := make([]repos.RefUpdate, 0, len(cmds))
	for _, c := range cmds {
		out = append(out, repos.RefUpdate{Old: c.old, New: c.new, Ref: c.ref})
	}
	return out, nil
}
