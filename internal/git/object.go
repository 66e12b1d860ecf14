package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Signature is an author, committer or tagger line.
type Signature struct {
	Name  string
	Email string
	// When is the recorded time in the recorded time zone (offsets are kept, names are not).
	When time.Time
}

// Commit is a parsed commit object.
type Commit struct {
	ID        ObjectID
	Tree      ObjectID
	Parents   []ObjectID
	Author    Signature
	Committer Signature
	// Encoding is the encoding header ("" means UTF-8). Message is not re-encoded.
	Encoding string
	// Message is the raw message, as stored.
	Message string
	// Signature is the armored gpgsig (or gpgsig-sha256) header, "" for unsigned commits.
	Signature string
	// Trailers are the message's trailers, in order, as git's %(trailers:only,unfold) finds them.
	Trailers []Trailer
	// Stats is filled by operations that count changes (Log with WithStats), else nil.
	Stats *CommitStats
}

// Subject returns the first line of the message.
func (c *Commit) Subject() string {
	line, _, _ := strings.Cut(c.Message, "\n")
	return strings.TrimSuffix(line, "\r")
}

// TrailerMap returns the trailers by key; with duplicate keys the last value wins (GitLab's
// "trailers").
func (c *Commit) TrailerMap() map[string]string {
	m := make(map[string]string, len(c.Trailers))
	for _, t := range c.Trailers {
		m[t.Key] = t.Value
	}
	return m
}

// ExtendedTrailers returns every value of every key (GitLab's "extended_trailers").
func (c *Commit) ExtendedTrailers() map[string][]string {
	m := make(map[string][]string, len(c.Trailers))
	for _, t := range c.Trailers {
		m[t.Key] = append(m[t.Key], t.Value)
	}
	return m
}

// Tag is a tag ref, annotated or lightweight.
type Tag struct {
	// Name is the short name ("v1.0").
	Name string
	// ID is what the ref points at: the tag object for an annotated tag, else the target.
	ID ObjectID
	// Annotated: the ref points at a tag object.
	Annotated bool
	// Message and Tagger come from the tag object (empty for lightweight tags). Message excludes
	// the signature.
	Message string
	Tagger  *Signature
	// Signature is the armored signature appended to a signed tag's message.
	Signature string
	// TargetID and TargetType are the object the tag finally points at (tags of tags peeled).
	TargetID   ObjectID
	TargetType ObjectType
	// Commit is the target commit when the tag peels to a commit.
	Commit *Commit
}

// TagObject is a parsed tag object.
type TagObject struct {
	ID         ObjectID
	Object     ObjectID
	Type       ObjectType
	Name       string
	Tagger     *Signature
	Message    string
	Signature  string
	rawMessage string
}

// TreeEntry is one entry of a tree.
type TreeEntry struct {
	ID ObjectID
	// Type is "blob", "tree" or "commit" (a submodule).
	Type ObjectType
	// Mode is the six-digit mode: "100644", "100755", "120000" (symlink), "040000" (tree),
	// "160000" (submodule).
	Mode string
	// Name is the last path component; Path is the full path from the repository root.
	Name string
	Path string
	// Size is the blob size in bytes when requested, else -1.
	Size int64
}

// ParseCommit parses the content of a commit object with id.
func ParseCommit(id ObjectID, data []byte) (*Commit, error) {
	c := &Commit{ID: id}
	headers, msg, err := splitHeaders(data)
	if err != nil {
		return nil, fmt.Errorf("parse commit %s: %w", id, err)
	}
	for _, h := range headers {
		switch h.key {
		case "tree":
			c.Tree = ObjectID(h.value)
		case "parent":
			c.Parents = append(c.Parents, ObjectID(h.value))
		case "author":
			c.Author = ParseSignature(h.value)
		case "committer":
			c.Committer = ParseSignature(h.value)
		case "encoding":
			c.Encoding = h.value
		case "gpgsig", "gpgsig-sha256":
			c.Signature = h.value
		}
	}
	if c.Tree == "" {
		return nil, fmt.Errorf("parse commit %s: no tree header", id)
	}
	c.Message = msg
	c.Trailers = ParseTrailers(msg)
	return c, nil
}

// ParseTagObject parses the content of a tag object with id.
func ParseTagObject(id ObjectID, data []byte) (*TagObject, error) {
	t := &TagObject{ID: id}
	headers, msg, err := splitHeaders(data)
	if err != nil {
		return nil, fmt.Errorf("parse tag %s: %w", id, err)
	}
	for _, h := range headers {
		switch h.key {
		case "object":
			t.Object = ObjectID(h.value)
		case "type":
			t.Type = ObjectType(h.value)
		case "tag":
			t.Name = h.value
		case "tagger":
			s := ParseSignature(h.value)
			t.Tagger = &s
		}
	}
	if t.Object == "" {
		return nil, fmt.Errorf("parse tag %s: no object header", id)
	}
	t.rawMessage = msg
	t.Message, t.Signature = splitSignature(msg)
	return t, nil
}

// splitSignature separates a signature block appended to a tag message.
func splitSignature(msg string) (text, sig string) {
	for _, marker := range []string{"-----BEGIN PGP SIGNATURE-----", "-----BEGIN SSH SIGNATURE-----", "-----BEGIN SIGNED MESSAGE-----"} {
		if i := strings.Index(msg, marker); i >= 0 && (i == 0 || msg[i-1] == '\n') {
			return msg[:i], msg[i:]
		}
	}
	return msg, ""
}

type header struct{ key, value string }

// splitHeaders splits an object into its header lines (continuation lines starting with a
// space are joined with "\n") and the message after the first empty line.
func splitHeaders(data []byte) ([]header, string, error) {
	var hs []header
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data)
		}
		line := data[:i]
		if i < len(data) {
			data = data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			return hs, string(data), nil
		}
		if line[0] == ' ' {
			if len(hs) == 0 {
				return nil, "", fmt.Errorf("continuation line before any header")
			}
			hs[len(hs)-1].value += "\n" + string(line[1:])
			continue
		}
		k, v, _ := strings.Cut(string(line), " ")
		hs = append(hs, header{k, v})
	}
	return hs, "", nil
}

// ParseSignature parses "Name <email> 1600000000 +0200". Malformed parts are left empty (git
// stores whatever old tools wrote), never an error.
func ParseSignature(s string) Signature {
	var sig Signature
	end := strings.LastIndexByte(s, '>')
	start := -1
	if end >= 0 {
		start = strings.LastIndexByte(s[:end], '<')
	}
	if start < 0 || end < 0 {
		sig.Name = strings.TrimSpace(s)
		return sig
	}
	sig.Name = strings.TrimSpace(s[:start])
	sig.Email = s[start+1 : end]
	fields := strings.Fields(s[end+1:])
	if len(fields) == 0 {
		return sig
	}
	secs, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return sig
	}
	offset := 0
	if len(fields) > 1 {
		offset = parseTZ(fields[1])
	}
	sig.When = time.Unix(secs, 0).In(time.FixedZone("", offset))
	return sig
}

// parseTZ reads "+0200" or "-0130" into seconds east of UTC.
func parseTZ(tz string) int {
	if len(tz) != 5 || (tz[0] != '+' && tz[0] != '-') {
		return 0
	}
	hh, err1 := strconv.Atoi(tz[1:3])
	mm, err2 := strconv.Atoi(tz[3:5])
	if err1 != nil || err2 != nil {
		return 0
	}
	off := hh*3600 + mm*60
	if tz[0] == '-' {
		off = -off
	}
	return off
}

// formatSignatureTime renders a time as git stores it: "1600000000 +0200".
func formatSignatureTime(t time.Time) string {
	_, off := t.Zone()
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%d %c%02d%02d", t.Unix(), sign, off/3600, off%3600/60)
}

// ParseTree parses the content of a tree object; entries get paths under dir ("" for the root)
// and Size -1.
func ParseTree(dir string, data []byte) ([]TreeEntry, error) {
	var entries []TreeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+21 {
			return nil, fmt.Errorf("parse tree: malformed entry")
		}
		mode := normalizeMode(string(data[:sp]))
		name := string(data[sp+1 : nul])
		id := ObjectID(fmt.Sprintf("%x", data[nul+1:nul+21]))
		data = data[nul+21:]
		entries = append(entries, TreeEntry{
			ID: id, Type: modeType(mode), Mode: mode, Name: name, Path: joinPath(dir, name), Size: -1,
		})
	}
	return entries, nil
}

// normalizeMode writes modes with six digits, as ls-tree and GitLab do ("40000" → "040000").
func normalizeMode(m string) string {
	for len(m) < 6 {
		m = "0" + m
	}
	return m
}

// modeType is the object type a tree entry mode points at.
func modeType(mode string) ObjectType {
	switch mode {
	case "040000":
		return TypeTree
	case "160000":
		return TypeCommit
	}
	return TypeBlob
}
