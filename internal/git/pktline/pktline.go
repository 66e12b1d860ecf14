// Package pktline writes and reads git's pkt-line framing (gitprotocol-common(5)): four
// hexadecimal digits giving the length of the line including themselves, then the payload;
// "0000" is a flush. It is the one pkt-line implementation of Anvil's git layer and smart-HTTP
// server. Written by hand: the framing is a few lines, and the only Go library offering it
// (go-git) would bring a second git implementation along.
package pktline

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// MaxLen is the longest pkt-line git writes, length digits included (LARGE_PACKET_MAX).
const MaxLen = 65520

// Flush is the flush packet that ends a list of lines.
const Flush = "0000"

// ErrMalformed is a pkt-line stream that cannot be read: a bad length or a truncated line.
var ErrMalformed = errors.New("malformed pkt-line")

// Append appends payload framed as one pkt-line to dst. A payload longer than MaxLen-4 cannot
// be framed; Append panics on it, as that is a programming error (callers frame their own
// protocol lines, never user data of unbounded length).
func Append(dst []byte, payload string) []byte {
	if len(payload) > MaxLen-4 {
		panic(fmt.Sprintf("pktline: payload of %d bytes", len(payload)))
	}
	dst = fmt.Appendf(dst, "%04x", len(payload)+4)
	return append(dst, payload...)
}

// Format frames payload as one pkt-line.
func Format(payload string) []byte { return Append(nil, payload) }

// Reader reads pkt-lines from a buffered stream.
type Reader struct {
	r   *bufio.Reader
	hdr [4]byte
}

// NewReader reads pkt-lines from r.
func NewReader(r *bufio.Reader) *Reader { return &Reader{r: r} }

// Next reads one pkt-line and returns its payload; flush is true for a flush packet (and the
// payload nil). At the end of the stream before a line starts it returns io.EOF; a line cut
// short or a bad length (a protocol v2 delimiter among them) is ErrMalformed.
func (p *Reader) Next() (payload []byte, flush bool, err error) {
	payload, kind, err := p.NextPacket()
	switch {
	case err != nil:
		return nil, false, err
	case kind == Delim || kind == ResponseEnd:
		return nil, false, fmt.Errorf("%w: length %d", ErrMalformed, kind)
	}
	return payload, kind == FlushPacket, nil
}

// Kind is what a packet is: a line, or one of the special packets without payload.
type Kind int

// The packet kinds; the special ones are their length field's value (protocol v2 adds the
// delimiter "0001" and the response end "0002").
const (
	FlushPacket Kind = 0
	Delim       Kind = 1
	ResponseEnd Kind = 2
	Line        Kind = 4
)

// NextPacket reads one packet, telling the special packets apart. An empty line ("0004") is a
// Line with an empty payload.
func (p *Reader) NextPacket() (payload []byte, kind Kind, err error) {
	if _, err := io.ReadFull(p.r, p.hdr[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, 0, io.EOF
		}
		return nil, 0, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	n, err := strconv.ParseUint(string(p.hdr[:]), 16, 16)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: bad length %q", ErrMalformed, p.hdr[:])
	}
	switch {
	case n <= 2:
		return nil, Kind(n), nil
	case n < 4 || n > MaxLen:
		return nil, 0, fmt.Errorf("%w: length %d", ErrMalformed, n)
	}
	line := make([]byte, n-4)
	if _, err := io.ReadFull(p.r, line); err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return line, Line, nil
}

// Peek returns the next four bytes without consuming them (what a pack's "PACK" signature is
// told apart from a pkt-line length by).
func (p *Reader) Peek() ([]byte, error) { return p.r.Peek(4) }
