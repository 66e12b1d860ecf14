package forks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"anvil/internal/git"
)

// copyRepository gives the empty repository dst the objects and refs of src: every branch and
// tag, or with branch set that branch and the tags it contains. The git layer has no transfer
// between repositories, so this plays both ends of a fetch: src's upload-pack is asked for the
// refs' objects and its pack is streamed, as a push creating those refs, into dst's
// receive-pack, which checks every object before any ref moves. Nothing touches disk in
// between and no process runs per ref.
func copyRepository(ctx context.Context, src, dst *git.Repository, branch string) error {
	refs, err := refsToCopy(ctx, src, branch)
	if err != nil || len(refs) == 0 {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	pr, pw := io.Pipe()
	strip := &nakStripper{w: pw}
	uploadErr := make(chan error, 1)
	go func() {
		err := src.UploadPack(ctx, git.PackOptions{Stdin: bytes.NewReader(uploadRequest(refs)), Stdout: strip})
		if err == nil && !strip.done {
			err = errors.New("upload-pack sent no pack")
		}
		pw.CloseWithError(err)
		uploadErr <- err
	}()
	var report bytes.Buffer
	err = dst.ReceivePack(ctx, git.PackOptions{Stdin: io.MultiReader(bytes.NewReader(receiveCommands(refs)), pr), Stdout: &report})
	// receive-pack may stop before the end of the pack; let upload-pack go.
	pr.CloseWithError(errors.New("receive-pack finished"))
	if err != nil {
		cancel()
	}
	if uerr := <-uploadErr; uerr != nil && err == nil {
		return fmt.Errorf("copy repository: %w", uerr)
	}
	if err != nil {
		return fmt.Errorf("copy repository: %w", err)
	}
	return checkReport(report.Bytes(), len(refs))
}

// refsToCopy lists what a fork gets: branches and tags, or one branch and its tags.
func refsToCopy(ctx context.Context, src *git.Repository, branch string) ([]git.Ref, error) {
	if branch == "" {
		return src.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix, git.TagPrefix}})
	}
	heads, err := src.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchRef(branch)}})
	if err != nil {
		return nil, err
	}
	var out []git.Ref
	for _, r := range heads {
		if r.Name == git.BranchRef(branch) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	tags, err := src.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.TagPrefix}, Merged: out[0].Target})
	if err != nil {
		return nil, err
	}
	return append(out, tags...), nil
}

// pktLine frames one line of git's protocol.
func pktLine(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

// uploadRequest asks upload-pack (protocol v0, stateless) for every ref's object, with no
// objects on our side: the whole history comes back as one pack after a NAK. No side-band and
// no progress, so the pack follows the NAK line as is.
func uploadRequest(refs []git.Ref) []byte {
	var b strings.Builder
	seen := map[git.ObjectID]bool{}
	for _, r := range refs {
		if seen[r.Target] {
			continue
		}
		line := "want " + string(r.Target)
		if len(seen) == 0 {
			line += " ofs-delta no-progress"
		}
		seen[r.Target] = true
		b.WriteString(pktLine(line + "\n"))
	}
	b.WriteString("0000")
	b.WriteString(pktLine("done\n"))
	return []byte(b.String())
}

// receiveCommands creates every ref in receive-pack's terms; the pack follows them.
func receiveCommands(refs []git.Ref) []byte {
	var b strings.Builder
	for i, r := range refs {
		line := string(git.ZeroOID) + " " + string(r.Target) + " " + r.Name
		if i == 0 {
			line += "\x00report-status"
		}
		b.WriteString(pktLine(line + "\n"))
	}
	b.WriteString("0000")
	return []byte(b.String())
}

// checkReport reads receive-pack's report: "unpack ok", then "ok <ref>" for each ref.
func checkReport(report []byte, refs int) error {
	lines, err := readPktLines(report)
	if err != nil {
		return fmt.Errorf("copy repository: %w", err)
	}
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "unpack ok" {
		return fmt.Errorf("copy repository: %q", strings.Join(lines, ""))
	}
	ok := 0
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "ok "):
			ok++
		case strings.HasPrefix(l, "ng "):
			return fmt.Errorf("copy repository: %s", strings.TrimSpace(l))
		}
	}
	if ok != refs {
		return fmt.Errorf("copy repository: %d of %d refs created", ok, refs)
	}
	return nil
}

// readPktLines splits pkt-lines up to the first flush.
func readPktLines(b []byte) ([]string, error) {
	var out []string
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, errors.New("truncated pkt-line")
		}
		n, err := strconv.ParseUint(string(b[:4]), 16, 16)
		if err != nil {
			return nil, fmt.Errorf("bad pkt-line length %q", b[:4])
		}
		if n == 0 {
			break
		}
		if n < 4 || int(n) > len(b) {
			return nil, errors.New("bad pkt-line length")
		}
		out = append(out, string(b[4:n]))
		b = b[n:]
	}
	return out, nil
}

// nakStripper passes upload-pack's answer on without its leading "NAK" pkt-line, leaving the
// bare pack receive-pack expects after the commands.
type nakStripper struct {
	w    io.Writer
	head []byte
	done bool
}

// Write buffers until the first pkt-line is complete, then forwards everything after it.
func (s *nakStripper) Write(p []byte) (int, error) {
	if s.done {
		return s.w.Write(p)
	}
	s.head = append(s.head, p...)
	if len(s.head) < 4 {
		return len(p), nil
	}
	n, err := strconv.ParseUint(string(s.head[:4]), 16, 16)
	if err != nil || n < 4 {
		return 0, fmt.Errorf("upload-pack: unexpected answer %q", s.head[:4])
	}
	if len(s.head) < int(n) {
		return len(p), nil
	}
	if line := string(s.head[4:n]); !strings.HasPrefix(line, "NAK") {
		return 0, fmt.Errorf("upload-pack: unexpected answer %q", strings.TrimSpace(line))
	}
	rest := s.head[n:]
	s.head, s.done = nil, true
	if len(rest) > 0 {
		if _, err := s.w.Write(rest); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
