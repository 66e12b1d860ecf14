package git

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"anvil/internal/git/pktline"
)

// FetchOptions name what FetchFrom copies from another repository.
type FetchOptions struct {
	// Refs are created in the receiving repository at their targets (Name and Target; the other
	// fields are ignored), all in one ref transaction once the objects are in: a ref that
	// exists already fails the whole fetch with ErrStaleRef (and ErrReferenceExists).
	Refs []Ref
	// Objects are brought in, with everything they reach, without a ref (a fork's commit to
	// compare or merge). They stay until housekeeping collects them as unreachable, which it
	// does only after weeks (see Housekeep).
	Objects []ObjectID
}

// maxFetchHaves bounds the commits the receiving side announces; past that, a few objects
// more may travel, never fewer.
const maxFetchHaves = 256

// tmpFetchPrefix is where received objects are held by a ref while they arrive.
const tmpFetchPrefix = "refs/tmp/fetch/"

// FetchFrom copies objects from src into r: the history of opts.Refs' targets and of
// opts.Objects that r lacks, then creates opts.Refs. It plays both ends of a fetch, with no
// network and nothing on disk in between: src's upload-pack is asked for the missing objects
// (with r's branch and tag tips as "have" lines, so only what r lacks travels) and its pack is
// streamed into r's receive-pack, which checks every object (fsck) before accepting it under
// temporary refs; one ref transaction then creates opts.Refs and drops the temporary refs.
// Nothing happens when r has every object already, besides creating the refs.
func (r *Repository) FetchFrom(ctx context.Context, src *Repository, opts FetchOptions) error {
	var wants []ObjectID
	seen := map[ObjectID]bool{}
	for _, ref := range opts.Refs {
		if err := ValidateRefName(ref.Name); err != nil {
			return err
		}
		if err := ref.Target.Validate(); err != nil {
			return err
		}
		if !seen[ref.Target] {
			seen[ref.Target] = true
			wants = append(wants, ref.Target)
		}
	}
	for _, id := range opts.Objects {
		if err := id.Validate(); err != nil {
			return err
		}
		if !seen[id] {
			seen[id] = true
			wants = append(wants, id)
		}
	}
	var missing []ObjectID
	for _, id := range wants {
		ok, err := r.HasObject(ctx, id)
		if err != nil {
			return fmt.Errorf("fetch: %w", err)
		}
		if !ok {
			missing = append(missing, id)
		}
	}
	var updates []RefUpdate
	if len(missing) > 0 {
		tmp, err := r.receiveFrom(ctx, src, missing)
		if err != nil {
			return fmt.Errorf("fetch: %w", err)
		}
		for i, name := range tmp {
			updates = append(updates, RefUpdate{Name: name, NewOID: ZeroOID, OldOID: missing[i]})
		}
	}
	for _, ref := range opts.Refs {
		updates = append(updates, RefUpdate{Name: ref.Name, NewOID: ref.Target, OldOID: ZeroOID})
	}
	// The received objects stay whatever happens; the temporary refs must go even when the
	// caller has gone away.
	ctx = context.WithoutCancel(ctx)
	if err := r.UpdateRefs(ctx, updates...); err != nil {
		if len(updates) > len(opts.Refs) {
			_ = r.UpdateRefs(ctx, updates[:len(updates)-len(opts.Refs)]...)
		}
		return fmt.Errorf("fetch: %w", err)
	}
	return nil
}

// receiveFrom streams the objects wants reach, less what r has, from src's upload-pack into
// r's receive-pack, creating one temporary ref per wanted object; it returns their names.
func (r *Repository) receiveFrom(ctx context.Context, src *Repository, wants []ObjectID) ([]string, error) {
	haves, err := r.ListRefs(ctx, ListRefsOptions{Patterns: []string{BranchPrefix, TagPrefix}})
	if err != nil {
		return nil, err
	}
	var suffix [8]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return nil, err
	}
	prefix := tmpFetchPrefix + hex.EncodeToString(suffix[:]) + "/"
	names := make([]string, len(wants))
	for i := range wants {
		names[i] = fmt.Sprintf("%s%d", prefix, i)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	uploadErr := make(chan error, 1)
	go func() {
		err := src.UploadPack(ctx, PackOptions{Stdin: bytes.NewReader(uploadRequest(wants, haves)), Stdout: pw})
		pw.CloseWithError(err)
		uploadErr <- err
	}()
	// upload-pack answers the negotiation (NAK, or ACK of a common commit) and then sends the
	// bare pack, which is what receive-pack reads after its commands.
	pack := bufio.NewReaderSize(pr, 64<<10)
	if err := skipNegotiation(pktline.NewReader(pack)); err != nil {
		pr.CloseWithError(err)
		cancel()
		if uerr := <-uploadErr; uerr != nil && !errors.Is(uerr, context.Canceled) {
			return nil, fmt.Errorf("upload-pack: %w", uerr)
		}
		return nil, fmt.Errorf("upload-pack: %w", err)
	}
	var report bytes.Buffer
	err = r.ReceivePack(ctx, PackOptions{Stdin: io.MultiReader(bytes.NewReader(receiveCommands(wants, names)), pack), Stdout: &report})
	// receive-pack may stop before the end of the pack; let upload-pack go.
	pr.CloseWithError(errors.New("receive-pack finished"))
	if err != nil {
		cancel()
	}
	uerr := <-uploadErr
	switch {
	case err != nil:
		return nil, err
	case uerr != nil:
		return nil, fmt.Errorf("upload-pack: %w", uerr)
	}
	if err := checkReport(report.Bytes(), names); err != nil {
		return nil, err
	}
	return names, nil
}

// uploadRequest asks upload-pack (protocol v0, stateless, no side-band, no progress) for wants,
// announcing haves as the commits the receiving side has.
func uploadRequest(wants []ObjectID, haves []Ref) []byte {
	var b []byte
	for i, id := range wants {
		line := "want " + string(id)
		if i == 0 {
			line += " ofs-delta no-progress"
		}
		b = pktline.Append(b, line+"\n")
	}
	b = append(b, pktline.Flush...)
	for i, h := range haves {
		if i == maxFetchHaves {
			break
		}
		b = pktline.Append(b, "have "+string(h.Target)+"\n")
	}
	return pktline.Append(b, "done\n")
}

// skipNegotiation reads upload-pack's answer up to the pack: NAK or ACK lines, or an ERR line
// that ends the exchange.
func skipNegotiation(r *pktline.Reader) error {
	for {
		head, err := r.Peek()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("no pack")
			}
			return err
		}
		if string(head) == "PACK" {
			return nil
		}
		line, flush, err := r.Next()
		if err != nil {
			return err
		}
		text := strings.TrimSuffix(string(line), "\n")
		switch {
		case flush:
		case strings.HasPrefix(text, "ERR "):
			return errors.New(strings.TrimPrefix(text, "ERR "))
		case text == "NAK", strings.HasPrefix(text, "ACK "):
		default:
			return fmt.Errorf("unexpected answer %q", text)
		}
	}
}

// receiveCommands creates each temporary ref at its object, with a report of the result; the
// pack follows.
func receiveCommands(wants []ObjectID, names []string) []byte {
	var b []byte
	for i, id := range wants {
		line := string(ZeroOID) + " " + string(id) + " " + names[i]
		if i == 0 {
			line += "\x00report-status atomic"
		}
		b = pktline.Append(b, line+"\n")
	}
	return append(b, pktline.Flush...)
}

// checkReport reads receive-pack's report: "unpack ok", then "ok <ref>" for every ref.
func checkReport(report []byte, names []string) error {
	r := pktline.NewReader(bufio.NewReader(bytes.NewReader(report)))
	var lines []string
	for {
		line, flush, err := r.Next()
		if errors.Is(err, io.EOF) || flush {
			break
		}
		if err != nil {
			return fmt.Errorf("receive-pack report: %w", err)
		}
		lines = append(lines, strings.TrimSuffix(string(line), "\n"))
	}
	if len(lines) == 0 || lines[0] != "unpack ok" {
		return fmt.Errorf("receive-pack: %q", strings.Join(lines, "; "))
	}
	ok := map[string]bool{}
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "ok "):
			ok[strings.TrimPrefix(l, "ok ")] = true
		case strings.HasPrefix(l, "ng "):
			return fmt.Errorf("receive-pack: %s", l)
		}
	}
	for _, n := range names {
		if !ok[n] {
			return fmt.Errorf("receive-pack: %s not created", n)
		}
	}
	return nil
}
