package git

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"anvil/internal/git/gitcmd"
)

// BlameOptions restrict a blame to a line range (1-based, inclusive; zero means whole file).
type BlameOptions struct {
	StartLine, EndLine int
}

// BlameRange is a run of consecutive lines last changed by one commit (GitLab's blame entry).
type BlameRange struct {
	Commit *Commit
	// StartLine is the first line's number in the blamed file (1-based).
	StartLine int
	// Lines are the lines' contents, without newlines.
	Lines []string
	// OrigPath and OrigStartLine locate the lines in Commit (the file may have been renamed).
	OrigPath      string
	OrigStartLine int
}

// Blame attributes each line of path at rev to the commit that last changed it. A missing path
// fails with ErrPathNotFound.
func (r *Repository) Blame(ctx context.Context, rev, path string, opts BlameOptions) ([]BlameRange, error) {
	p, err := CleanPath(path)
	if err != nil {
		return nil, err
	}
	if p == "" {
		return nil, fmt.Errorf("%w: blame needs a file", ErrInvalidPath)
	}
	commit, err := r.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	entry, err := r.TreeEntryAt(ctx, string(commit), p)
	if err != nil {
		return nil, err
	}
	if entry.Type != TypeBlob {
		return nil, fmt.Errorf("blame %q: not a file: %w", p, ErrPathNotFound)
	}
	// blame does not understand --end-of-options; its one argument is a resolved commit id.
	cmd := gitcmd.New("blame", "--porcelain")
	if opts.StartLine > 0 || opts.EndLine > 0 {
		if opts.StartLine < 1 || (opts.EndLine > 0 && opts.EndLine < opts.StartLine) {
			return nil, fmt.Errorf("%w: blame range %d-%d", ErrInvalidArgument, opts.StartLine, opts.EndLine)
		}
		rng := strconv.Itoa(opts.StartLine) + ","
		if opts.EndLine > 0 {
			rng += strconv.Itoa(opts.EndLine)
		}
		cmd.Option("-L", rng)
	}
	out, err := r.output(ctx, cmd.Arg(string(commit)).Paths(p))
	if err != nil {
		if stderrHas(err, "has only", "invalid line range") {
			return nil, fmt.Errorf("blame: %w: %w", ErrInvalidArgument, err)
		}
		return nil, fmt.Errorf("blame: %w", err)
	}
	ranges, ids, err := parseBlame(out)
	if err != nil {
		return nil, err
	}
	commits, err := r.ReadCommits(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[ObjectID]*Commit, len(commits))
	for _, c := range commits {
		byID[c.ID] = c
	}
	for i := range ranges {
		ranges[i].Commit = byID[ranges[i].Commit.ID]
	}
	return ranges, nil
}

// parseBlame reads --porcelain output into ranges (Commit holds only the id) and the distinct
// commit ids.
func parseBlame(out []byte) ([]BlameRange, []ObjectID, error) {
	var ranges []BlameRange
	var ids []ObjectID
	filenames := map[ObjectID]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var cur ObjectID
	var orig, final int
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\t") {
			if cur == "" {
				return nil, nil, fmt.Errorf("blame: content before header")
			}
			content := line[1:]
			if n := len(ranges); n > 0 && ranges[n-1].Commit.ID == cur &&
				ranges[n-1].StartLine+len(ranges[n-1].Lines) == final {
				ranges[n-1].Lines = append(ranges[n-1].Lines, content)
			} else {
				ranges = append(ranges, BlameRange{Commit: &Commit{ID: cur}, StartLine: final,
					Lines: []string{content}, OrigPath: filenames[cur], OrigStartLine: orig})
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) >= 3 && IsFullObjectID(f[0]) {
			cur = ObjectID(f[0])
			var err1, err2 error
			orig, err1 = strconv.Atoi(f[1])
			final, err2 = strconv.Atoi(f[2])
			if err1 != nil || err2 != nil {
				return nil, nil, fmt.Errorf("blame: malformed header %q", line)
			}
			if _, ok := filenames[cur]; !ok {
				filenames[cur] = ""
				ids = append(ids, cur)
			}
			continue
		}
		if name, ok := strings.CutPrefix(line, "filename "); ok && cur != "" {
			filenames[cur] = unquoteC(name)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("blame: %w", err)
	}
	return ranges, ids, nil
}

// unquoteC undoes git's C-style quoting of unusual paths ("\"a\\tb\"", octal escapes for
// bytes above 0x7f); unquoted input is returned as is.
func unquoteC(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i:i+3], 8, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(e)
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}
