package gitserver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"anvil/internal/git"
	"anvil/internal/git/gitcmd"
	"anvil/internal/git/pktline"
)

// maxUploadRequestBytes bounds an upload-pack request (wants, haves and arguments), which is
// read whole and checked before git starts: a negotiation of hundreds of thousands of haves
// still fits.
const maxUploadRequestBytes = 32 << 20

// badRequest is a smart-HTTP request that is the client's error: answered 400 with Msg, logged
// below ERROR (so that alerts on server errors stay meaningful).
type badRequest struct{ Msg string }

func (e *badRequest) Error() string { return e.Msg }

func badf(format string, args ...any) error { return &badRequest{Msg: fmt.Sprintf(format, args...)} }

// readUploadRequest reads the body of a POST to git-upload-pack and checks it before git sees
// it: pkt-line framing, the lines each protocol version allows, object ids in want, have and
// shallow lines, positive depths. It returns the body to hand to git, or a *badRequest.
func readUploadRequest(body io.Reader, v2 bool) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(body, maxUploadRequestBytes+1))
	switch {
	case err != nil:
		return nil, badf("Bad request: unreadable body")
	case len(raw) == 0:
		return nil, badf("Bad request: empty body")
	case len(raw) > maxUploadRequestBytes:
		return nil, badf("Bad request: request too large")
	}
	r := pktline.NewReader(bufio.NewReader(bytes.NewReader(raw)))
	if v2 {
		err = checkV2Request(r)
	} else {
		err = checkV0Request(r)
	}
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// nextLine reads one packet: its text without the trailing newline, or the special packet.
func nextLine(r *pktline.Reader) (string, pktline.Kind, error) {
	payload, kind, err := r.NextPacket()
	switch {
	case errors.Is(err, io.EOF):
		return "", 0, io.EOF
	case err != nil:
		return "", 0, badf("Bad request: malformed pkt-line")
	case kind == pktline.Line && len(payload) == 0:
		return "", 0, badf("Bad request: empty pkt-line")
	}
	return strings.TrimSuffix(string(payload), "\n"), kind, nil
}

// checkV0Request checks a protocol v0/v1 negotiation: want, shallow, deepen and filter lines,
// flushes, have lines and done.
func checkV0Request(r *pktline.Reader) error {
	for {
		line, kind, err := nextLine(r)
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		case kind == pktline.FlushPacket:
			continue
		case kind != pktline.Line:
			return badf("Bad request: malformed pkt-line")
		}
		if err := checkArgument(line, true); err != nil {
			return err
		}
	}
}

// v2Commands are the commands of protocol v2 that git serves.
var v2Commands = map[string]bool{"ls-refs": true, "fetch": true, "object-info": true, "bundle-uri": true}

// checkV2Request checks protocol v2 requests: "command=<name>", capability lines, a delimiter,
// the command's arguments, a flush.
func checkV2Request(r *pktline.Reader) error {
	for {
		line, kind, err := nextLine(r)
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		case kind == pktline.FlushPacket:
			continue
		case kind != pktline.Line:
			return badf("Bad request: malformed pkt-line")
		}
		name, ok := strings.CutPrefix(line, "command=")
		if !ok || !v2Commands[name] {
			return badf("Bad request: invalid command")
		}
		inArgs := false
	request:
		for {
			line, kind, err := nextLine(r)
			switch {
			case errors.Is(err, io.EOF):
				return badf("Bad request: request not terminated")
			case err != nil:
				return err
			case kind == pktline.FlushPacket:
				break request
			case kind == pktline.Delim && !inArgs:
				inArgs = true
				continue
			case kind != pktline.Line:
				return badf("Bad request: malformed pkt-line")
			}
			if inArgs {
				if err := checkArgument(line, false); err != nil {
					return err
				}
			}
		}
	}
}

// checkArgument checks one line of a negotiation: object ids where git expects them, positive
// depths and timestamps. In protocol v0 only the known lines are allowed; v2 arguments git
// does not know are left for git to refuse (it answers those itself, without failing).
func checkArgument(line string, v0 bool) error {
	key, value, _ := strings.Cut(line, " ")
	switch key {
	case "want", "have", "shallow":
		id := value
		if key == "want" && v0 {
			id, _, _ = strings.Cut(value, " ") // capabilities follow the first want
		}
		if _, err := git.ParseObjectID(id); err != nil {
			return badf("Bad request: %s without a valid object id", key)
		}
	case "deepen":
		if n, err := strconv.Atoi(value); err != nil || n <= 0 {
			return badf("Bad request: invalid deepen")
		}
	case "deepen-since":
		if n, err := strconv.ParseInt(value, 10, 64); err != nil || n < 0 {
			return badf("Bad request: invalid deepen-since")
		}
	case "deepen-not", "filter", "want-ref":
		if value == "" {
			return badf("Bad request: %s without a value", key)
		}
	case "done", "deepen-relative":
	default:
		if v0 {
			return badf("Bad request: unexpected line")
		}
	}
	return nil
}

// bodyReader reads a request body for git and remembers whether reading it failed (a body cut
// short, broken gzip): git then fails because of the client.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && b.err == nil {
		b.err = err
	}
	return n, err
}

// clientFault reports whether err is git refusing the request it was given (a protocol error,
// an object the client may not fetch, a body that could not be read) rather than a failure of
// the server, with a short message.
func clientFault(err error, body *bodyReader) (string, bool) {
	if body != nil && body.err != nil {
		return "Bad request: unreadable body", true
	}
	var ge *gitcmd.Error
	if !errors.As(err, &ge) || ge.ExitCode != 128 {
		return "", false
	}
	for _, sign := range []string{"protocol error", "not our ref", "invalid deepen", "invalid command",
		"unknown capability", "hung up unexpectedly", "expected flush", "expected to get", "bad line length",
		"invalid shallow", "unexpected line", "not negotiated", "invalid filter", "unknown filter",
		"no commits selected for shallow", "cannot be used together"} {
		if strings.Contains(strings.ToLower(ge.Stderr), sign) {
			return "Bad request", true
		}
	}
	return "", false
}
