package notes

import (
	"bufio"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/git"
)

// Position types: a line of a text diff, a point of an image, a whole file.
const (
	PositionText  = "text"
	PositionImage = "image"
	PositionFile  = "file"
)

// PositionTypes are position_type's values.
var PositionTypes = []string{PositionText, PositionImage, PositionFile}

// Position is where a diff note sits (GitLab's Gitlab::Diff::Position): the diff between
// BaseSHA (or StartSHA) and HeadSHA, a file by its paths, and a line of it (text), a point of
// it (image) or the file itself.
type Position struct {
	BaseSHA, StartSHA, HeadSHA string
	PositionType               string
	OldPath, NewPath           *string
	OldLine, NewLine           *int
	// Width, Height, X and Y place an image note.
	Width, Height, X, Y *int
	// LineRange is a multi-line note's range (merge requests), kept as given.
	LineRange map[string]any
}

// filePath is the position's file: the new path, else the old one (a deleted file).
func (p *Position) filePath() string {
	if p.NewPath != nil && *p.NewPath != "" {
		return *p.NewPath
	}
	if p.OldPath != nil {
		return *p.OldPath
	}
	return ""
}

// paths are the paths the position's diff is read for.
func (p *Position) paths() []string {
	var out []string
	for _, s := range []*string{p.OldPath, p.NewPath} {
		if s != nil && *s != "" && (len(out) == 0 || out[0] != *s) {
			out = append(out, *s)
		}
	}
	return out
}

// complete reports GitLab's Position#complete?: the diff's commits, a file, and a line for a
// text position.
func (p *Position) complete() bool {
	if p.StartSHA == "" || p.HeadSHA == "" || p.filePath() == "" {
		return false
	}
	return p.PositionType != PositionText || p.OldLine != nil || p.NewLine != nil
}

// Map is the position as stored and shown (GitLab's Position#to_h): the common keys, then the
// text keys (old_line, new_line, line_range) or the image keys (width, height, x, y).
func (p *Position) Map() map[string]any {
	str := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	m := map[string]any{
		"base_sha": str(p.BaseSHA), "start_sha": str(p.StartSHA), "head_sha": str(p.HeadSHA),
		"old_path": ptr(p.OldPath), "new_path": ptr(p.NewPath), "position_type": p.PositionType,
	}
	switch p.PositionType {
	case PositionText:
		m["old_line"], m["new_line"] = ptr(p.OldLine), ptr(p.NewLine)
		if p.LineRange != nil {
			m["line_range"] = p.LineRange
		} else {
			m["line_range"] = nil
		}
	case PositionImage:
		m["width"], m["height"], m["x"], m["y"] = ptr(p.Width), ptr(p.Height), ptr(p.X), ptr(p.Y)
	}
	return m
}

// ptr is *v, or nil (JSON null).
func ptr[T any](v *T) any {
	if v == nil {
		return nil
	}
	return *v
}

// Diffs reads the diff a diff note is placed on, in the repository of the noteable's project
// (merge requests, commits): a noteable type whose notes may be diff notes registers one with
// Service.RegisterDiffs.
type Diffs interface {
	// FileDiff returns the change to the file at paths between the commits from and to of t's
	// project's repository; nil (no error) when the file did not change or a commit is not there.
	FileDiff(ctx context.Context, t *Target, from, to string, paths []string) (*git.DiffFile, error)
}

// RegisterDiffs lets notes of noteableType be diff notes, read against d (wiring).
func (s *Service) RegisterDiffs(noteableType string, d Diffs) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.diffs[noteableType]; dup || d == nil {
		panic(fmt.Sprintf("notes: diffs of %q registered twice or nil", noteableType))
	}
	s.diffs[noteableType] = d
}

// diffsOf returns the diffs of a noteable type, nil for one without diff notes.
func (s *Service) diffsOf(noteableType string) Diffs {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.diffs[noteableType]
}

// noteErrors is GitLab's rendering of a note's validation errors ("Note {:attr=>[...]}").
type noteErrors [][2]string

func (e noteErrors) err() error {
	var b strings.Builder
	b.WriteString("Note {")
	for i, kv := range e {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, ":%s=>[%s]", kv[0], kv[1])
	}
	b.WriteString("}")
	return apperr.BadRequest(b.String())
}

// checkPosition validates a diff note's position as GitLab's DiffNote does: the noteable takes
// diff notes, a text position names a line of the file's diff (its line code), the position is
// complete. The errors read like GitLab's (400 "Note {:line_code=>[...]}").
func (s *Service) checkPosition(ctx context.Context, t *Target, p *Position) error {
	d := s.diffsOf(t.Type)
	if d == nil {
		return noteErrors{{"noteable", `"doesn't support new-style diff notes"`}}.err()
	}
	var errs noteErrors
	if p.PositionType == PositionText {
		found := false
		if p.complete() {
			from := p.BaseSHA
			if from == "" {
				from = p.StartSHA
			}
			f, err := s.fileDiff(ctx, d, t, from, p)
			if err != nil {
				return err
			}
			found = f != nil && hasLine(f.Patch, p.OldLine, p.NewLine)
		}
		if !found {
			errs = append(errs, [2]string{"line_code", `"can't be blank", "must be a valid line code"`})
		}
	}
	if !p.complete() {
		errs = append(errs, [2]string{"position", `"is incomplete"`})
	}
	if len(errs) > 0 {
		return errs.err()
	}
	return nil
}

// fileDiff reads the position's file diff; shas that are no commit ids (full or abbreviated)
// find no diff.
func (s *Service) fileDiff(ctx context.Context, d Diffs, t *Target, from string, p *Position) (*git.DiffFile, error) {
	for _, sha := range []string{from, p.HeadSHA} {
		if !shaRe.MatchString(sha) {
			return nil, nil
		}
	}
	return d.FileDiff(ctx, t, from, p.HeadSHA, p.paths())
}

// shaRe matches a commit id, full or abbreviated.
var shaRe = regexp.MustCompile(`^[0-9a-fA-F]{7,40}$`)

// DiffLine is a line of a file's diff: its numbers on the old and new side (nil on the side it
// is not on: an added line has no old number, a removed line no new one).
type DiffLine struct {
	Old, New *int
}

// Type is the line's GitLab type: "new" (added), "old" (removed), "" (context).
func (l DiffLine) Type() string {
	switch {
	case l.Old == nil:
		return "new"
	case l.New == nil:
		return "old"
	}
	return ""
}

// DiffLines lists the lines of a unified diff's hunks (the patch of a git.DiffFile).
func DiffLines(patch string) []DiffLine {
	var out []DiffLine
	oldN, newN := 0, 0
	sc := bufio.NewScanner(strings.NewReader(patch))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "@@"):
			oldN, newN = hunkStart(line)
		case oldN == 0 && newN == 0:
			// Outside a hunk (a binary notice).
		case strings.HasPrefix(line, "+"):
			n := newN
			out = append(out, DiffLine{New: &n})
			newN++
		case strings.HasPrefix(line, "-"):
			o := oldN
			out = append(out, DiffLine{Old: &o})
			oldN++
		case strings.HasPrefix(line, " "):
			o, n := oldN, newN
			out = append(out, DiffLine{Old: &o, New: &n})
			oldN++
			newN++
		}
	}
	return out
}

// hunkStart reads the first old and new line numbers of "@@ -a,b +c,d @@" (a hunk that starts
// at line 0 is an empty side: its first line would be 1).
func hunkStart(h string) (int, int) {
	f := strings.Fields(h)
	if len(f) < 3 {
		return 0, 0
	}
	num := func(s string) int {
		s, _, _ = strings.Cut(s[1:], ",")
		n, _ := strconv.Atoi(s)
		return max(n, 1)
	}
	return num(f[1]), num(f[2])
}

// hasLine reports whether the patch has the line numbered old and new (GitLab's
// line_for_position: both numbers equal, nil matching the side the line is not on).
func hasLine(patch string, old, new *int) bool {
	eq := func(a, b *int) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }
	for _, l := range DiffLines(patch) {
		if eq(l.Old, old) && eq(l.New, new) {
			return true
		}
	}
	return false
}
