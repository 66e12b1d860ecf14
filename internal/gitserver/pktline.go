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
	"anvil/internal/service/protectedbranches"
)

// maxPktLen is the largest pkt-line git writes (LARGE_PACKET_MAX).
const maxPktLen = 65520

// maxCommandBytes bounds the command list read before git starts (a mirror push of many
// thousands of refs still fits).
const maxCommandBytes = 32 << 20

// errMalformed is a receive-pack request whose command list cannot be read.
var errMalformed = errors.New("malformed receive-pack request")

// readCommands reads the command list at the head of a receive-pack request: pkt-lines
// "<old> <new> <ref>" (the first one followed by NUL and the capabilities) up to the first
// flush, skipping "shallow" lines. It returns the commands and every byte it consumed, which
// must be handed to git before the rest of the body (push options, the pack). An empty body is
// no command.
func readCommands(r *bufio.Reader) ([]protectedbranches.Command, []byte, error) {
	var (
		raw  bytes.Buffer
		cmds []protectedbranches.Command
		hdr  [4]byte
	)
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) && raw.Len() == 0 {
				return nil, nil, nil
			}
			return nil, nil, fmt.Errorf("%w: %v", errMalformed, err)
		}
		raw.Write(hdr[:])
		n, err := strconv.ParseUint(string(hdr[:]), 16, 16)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: bad pkt-line length %q", errMalformed, hdr[:])
		}
		if n == 0 {
			return cmds, raw.Bytes(), nil
		}
		if n < 4 || n > maxPktLen || raw.Len()+int(n) > maxCommandBytes {
			return nil, nil, fmt.Errorf("%w: pkt-line length %d", errMalformed, n)
		}
		line := make([]byte, n-4)
		if _, err := io.ReadFull(r, line); err != nil {
			return nil, nil, fmt.Errorf("%w: %v", errMalformed, err)
		}
		raw.Write(line)
		text := strings.TrimSuffix(string(line), "\n")
		if strings.HasPrefix(text, "shallow ") {
			continue
		}
		text, _, _ = strings.Cut(text, "\x00")
		f := strings.Split(text, " ")
		if len(f) != 3 {
			return nil, nil, fmt.Errorf("%w: command %q", errMalformed, text)
		}
		oldID, err1 := git.ParseObjectID(f[0])
		newID, err2 := git.ParseObjectID(f[1])
		if err1 != nil || err2 != nil || f[2] == "" {
			return nil, nil, fmt.Errorf("%w: command %q", errMalformed, text)
		}
		cmds = append(cmds, protectedbranches.Command{Old: oldID, New: newID, Ref: f[2]})
	}
}
