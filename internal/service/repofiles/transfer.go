package repofiles

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"anvil/internal/git"
)

// fetchCommit copies commit id, with the history dst lacks, from src into dst, as GitLab fetches
// a fork's commit into the repository it is compared in. The git layer has no transfer between
// repositories, so this plays both ends of a fetch (as the forks service does): src's
// upload-pack is asked for id, with dst's branch tips as "have" lines so that only the missing
// objects travel, and its pack is pushed into dst's receive-pack under a temporary ref, removed
// again at the end (the objects stay until git collects them). Nothing touches disk between the
// two processes.
// TODO(git layer): move to package git (a Repository.FetchFrom) and share it with forks.
func fetchCommit(ctx context.Context, src, dst *git.Repository, id git.ObjectID) error {
	heads, err := dst.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix}})
	if err != nil {
		return err
	}
	var suffix [8]byte
	_, _ = rand.Read(suffix[:])
	ref := "refs/tmp/compare/" + hex.EncodeToString(suffix[:])

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	strip := &ackStripper{w: pw}
	uploadErr := make(chan error, 1)
	go func() {
		err := src.UploadPack(ctx, git.PackOptions{Stdin: bytes.NewReader(fetchRequest(id, heads)), Stdout: strip})
		if err == nil && !strip.done {
			err = errors.New("upload-pack sent no pack")
		}
		pw.CloseWithError(err)
		uploadErr <- err
	}()
	var report bytes.Buffer
	commands := pktLine(string(git.ZeroOID)+" "+string(id)+" "+ref+"\x00report-status\n") + "0000"
	err = dst.ReceivePack(ctx, git.PackOptions{Stdin: io.MultiReader(strings.NewReader(commands), pr), Stdout: &report})
	pr.CloseWithError(errors.New("receive-pack finished"))
	if err != nil {
		cancel()
	}
	if uerr := <-uploadErr; uerr != nil && err == nil {
		err = uerr
	}
	if err == nil && !bytes.Contains(report.Bytes(), []byte("ok "+ref)) {
		err = fmt.Errorf("receive-pack refused the commit: %q", report.String())
	}
	if err != nil {
		return fmt.Errorf("fetch %s: %w", id, err)
	}
	// The objects are in; the ref was only there to let receive-pack accept them.
	return dst.UpdateRef(context.WithoutCancel(ctx), ref, git.ZeroOID, id)
}

func pktLine(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

// fetchRequest asks upload-pack (protocol v0, stateless, no side-band, no progress) for id,
// telling it which commits the receiving side has.
func fetchRequest(id git.ObjectID, have []git.Ref) []byte {
	var b strings.Builder
	b.WriteString(pktLine("want " + string(id) + " ofs-delta no-progress\n"))
	b.WriteString("0000")
	for i, r := range have {
		if i == 256 {
			break
		}
		b.WriteString(pktLine("have " + string(r.Target) + "\n"))
	}
	b.WriteString(pktLine("done\n"))
	return []byte(b.String())
}

// ackStripper passes upload-pack's answer on without its negotiation lines (NAK, or ACK of a
// common commit), leaving the bare pack receive-pack expects after the commands.
type ackStripper struct {
	w    io.Writer
	head []byte
	done bool
}

// Write buffers until the negotiation lines are complete, then forwards the pack.
func (s *ackStripper) Write(p []byte) (int, error) {
	if s.done {
		return s.w.Write(p)
	}
	s.head = append(s.head, p...)
	for !s.done {
		if len(s.head) >= 4 && string(s.head[:4]) == "PACK" {
			s.done = true
			break
		}
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
		line := string(s.head[4:n])
		if !strings.HasPrefix(line, "NAK") && !strings.HasPrefix(line, "ACK ") {
			return 0, fmt.Errorf("upload-pack: unexpected answer %q", strings.TrimSpace(line))
		}
		s.head = s.head[n:]
	}
	if len(s.head) > 0 {
		rest := s.head
		s.head = nil
		if _, err := s.w.Write(rest); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
