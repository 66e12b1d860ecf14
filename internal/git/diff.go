package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"anvil/internal/git/gitcmd"
)

// DiffOptions select and bound a diff. Zero limits mean no limit.
type DiffOptions struct {
	// Paths restrict the diff to these paths.
	Paths []string
	// NoRenames turns rename detection off (it is on by default, git's 50% similarity).
	NoRenames bool
	// MaxFiles stops after this many files; MaxLines and MaxBytes stop when the patches of the
	// files so far exceed them. Stopping sets DiffResult.Overflow (GitLab's diff limits).
	MaxFiles int
	MaxLines int
	MaxBytes int
	// MaxPatchBytes drops the patch of a single file larger than this (DiffFile.TooLarge).
	MaxPatchBytes int
}

// DiffFile is one changed file.
type DiffFile struct {
	OldPath, NewPath string
	// OldMode and NewMode are six-digit octal modes, "000000" for a side that does not exist.
	OldMode, NewMode string
	OldID, NewID     ObjectID
	// Status is git's letter: 'A'dded, 'D'eleted, 'M'odified, 'R'enamed, 'C'opied, 'T'ype
	// changed (a typechange's Patch holds the deletion hunks then the addition hunks).
	Status byte
	// Similarity is the rename or copy score (0-100).
	Similarity int
	// Additions and Deletions count the patch's lines (0 for binary files).
	Additions, Deletions int
	// Binary: git considers either side binary.
	Binary bool
	// Patch is the unified diff from the first "@@" hunk header (GitLab's diff field), or git's
	// "Binary files a/x and b/y differ" line; "" when the change has no content lines.
	Patch string
	// TooLarge: the patch exceeded MaxPatchBytes and Patch is empty.
	TooLarge bool
}

// NewFile reports an addition (GitLab's new_file).
func (f *DiffFile) NewFile() bool { return f.Status == 'A' }

// DeletedFile reports a deletion (GitLab's deleted_file).
func (f *DiffFile) DeletedFile() bool { return f.Status == 'D' }

// RenamedFile reports a rename (GitLab's renamed_file).
func (f *DiffFile) RenamedFile() bool { return f.Status == 'R' }

// DiffResult is a bounded diff.
type DiffResult struct {
	Files []DiffFile
	// Overflow: a limit stopped the diff; Files holds the files before it.
	Overflow bool
}

// diffSide resolves a diff side: "" is the empty tree, anything else a validated revision.
func diffSide(rev string) (string, error) {
	if rev == "" {
		return string(EmptyTreeOID), nil
	}
	return rev, ValidateRevision(rev)
}

func diffCommand(from, to string, opts DiffOptions) (*gitcmd.Cmd, error) {
	f, err := diffSide(from)
	if err != nil {
		return nil, err
	}
	t, err := diffSide(to)
	if err != nil {
		return nil, err
	}
	cmd := gitcmd.New("diff-tree", "-r", "-z", "--no-color", "--no-ext-diff", "--no-textconv", "--full-index")
	if opts.NoRenames {
		cmd.Flag("--no-renames")
	} else {
		cmd.Flag("-M")
	}
	paths := make([]string, 0, len(opts.Paths))
	for _, p := range opts.Paths {
		p, err := CleanPath(p)
		if err != nil {
			return nil, err
		}
		if p != "" {
			paths = append(paths, p)
		}
	}
	return cmd.Arg(f, t).Paths(paths...), nil
}

// Diff compares two commits or trees (from "" is the empty tree): every changed file with its
// modes, ids, line counts and patch, within opts' limits. It runs one diff-tree process
// (--raw for the file list, then the patches, whose lines are counted as they stream) and stops
// it as soon as a limit is reached, so a huge diff costs no more than its first pages.
func (r *Repository) Diff(ctx context.Context, from, to string, opts DiffOptions) (*DiffResult, error) {
	cmd, err := diffCommand(from, to, opts)
	if err != nil {
		return nil, err
	}
	cmd.Flag("--raw", "-p")
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p, err := r.c.runner.Start(ctx, r.path, cmd)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	_ = p.Stdin.Close()
	res, perr := parseDiff(bufio.NewReaderSize(p.Stdout, 64<<10), opts)
	if perr != nil || res.Overflow {
		// Stop reading: kill git rather than drain a diff nobody will use.
		p.Kill()
		_ = p.Wait()
		if perr != nil {
			return nil, perr
		}
		return res, nil
	}
	if err := p.Wait(); err != nil {
		return nil, revisionErr(r.missing(err), "diff")
	}
	return res, nil
}

// parseDiff reads diff-tree -z --raw -p output.
func parseDiff(br *bufio.Reader, opts DiffOptions) (*DiffResult, error) {
	res := &DiffResult{}
	files, err := parseRaw(br)
	if err != nil {
		return nil, err
	}
	if len(files) > 0 {
		if c, err := br.ReadByte(); err != nil || c != 0 {
			return nil, fmt.Errorf("diff: missing patch separator")
		}
	}
	keep := len(files)
	if opts.MaxFiles > 0 && keep > opts.MaxFiles {
		keep = opts.MaxFiles
		res.Overflow = true
	}
	// Each file has one "diff --git" section, a typechange two (deletion, then addition).
	totalLines, totalBytes := 0, 0
	fi, seen := -1, 0
	var patch bytes.Buffer
	inBody := false
	finish := func() {
		if fi >= 0 && fi < len(files) && !files[fi].TooLarge {
			files[fi].Patch = patch.String()
		}
		patch.Reset()
	}
	maxLine := 0
	if opts.MaxPatchBytes > 0 {
		maxLine = opts.MaxPatchBytes + 1
	}
	for {
		line, err := readLine(br, maxLine)
		if err == io.EOF && len(line) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("diff: %w", err)
		}
		if bytes.HasPrefix(line, []byte("diff --git ")) {
			sections := 1
			if fi >= 0 && files[fi].Status == 'T' {
				sections = 2
			}
			if fi < 0 || seen >= sections {
				finish()
				fi, seen = fi+1, 0
				if fi >= keep {
					break
				}
			}
			seen++
			inBody = false
			continue
		}
		if fi < 0 || fi >= len(files) {
			return nil, fmt.Errorf("diff: patch without a file")
		}
		f := &files[fi]
		if !inBody {
			switch {
			case bytes.HasPrefix(line, []byte("@@")):
				inBody = true
			case bytes.HasPrefix(line, []byte("Binary files ")):
				f.Binary = true
				inBody = true
			default:
				continue // extended header lines
			}
		}
		switch line[0] {
		case '+':
			f.Additions++
		case '-':
			f.Deletions++
		}
		if f.TooLarge {
			continue
		}
		totalLines++
		totalBytes += len(line)
		if (opts.MaxLines > 0 && totalLines > opts.MaxLines) || (opts.MaxBytes > 0 && totalBytes > opts.MaxBytes) {
			res.Overflow = true
			res.Files = files[:fi]
			return res, nil
		}
		if opts.MaxPatchBytes > 0 && patch.Len()+len(line) > opts.MaxPatchBytes {
			f.TooLarge = true
			patch.Reset()
			continue
		}
		patch.Write(line)
	}
	finish()
	res.Files = files[:keep]
	return res, nil
}

// readLine reads one line with its "\n"; with max > 0, bytes beyond max are dropped.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if max <= 0 || len(line) < max {
			room := len(chunk)
			if max > 0 && len(line)+room > max {
				room = max - len(line)
			}
			line = append(line, chunk[:room]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

// parseRaw reads the --raw -z records: ":<old mode> <new mode> <old id> <new id> <status>\0
// <path>\0[<new path>\0]".
func parseRaw(br *bufio.Reader) ([]DiffFile, error) {
	var files []DiffFile
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("diff: %w", err)
		}
		if b[0] != ':' {
			return files, nil
		}
		meta, err := readField(br)
		if err != nil {
			return nil, err
		}
		f := strings.Fields(strings.TrimPrefix(meta, ":"))
		if len(f) != 5 || len(f[4]) == 0 {
			return nil, fmt.Errorf("diff: malformed raw record %q", meta)
		}
		file := DiffFile{OldMode: f[0], NewMode: f[1], OldID: ObjectID(f[2]), NewID: ObjectID(f[3]), Status: f[4][0]}
		if len(f[4]) > 1 {
			file.Similarity, _ = strconv.Atoi(f[4][1:])
		}
		if file.OldPath, err = readField(br); err != nil {
			return nil, err
		}
		file.NewPath = file.OldPath
		if file.Status == 'R' || file.Status == 'C' {
			if file.NewPath, err = readField(br); err != nil {
				return nil, err
			}
		}
		files = append(files, file)
	}
}

// readField reads up to the next NUL.
func readField(br *bufio.Reader) (string, error) {
	s, err := br.ReadString(0)
	if err != nil {
		return "", fmt.Errorf("diff: truncated output: %w", err)
	}
	return s[:len(s)-1], nil
}

// FileStat is one file's line counts.
type FileStat struct {
	// OldPath differs from Path for renames and copies.
	OldPath, Path        string
	Additions, Deletions int
	Binary               bool
}

// readNumstat reads one --numstat -z record: "<add>\t<del>\t<path>\0", or for renames
// "<add>\t<del>\t\0<old>\0<new>\0"; binary files count "-".
func readNumstat(br *bufio.Reader) (FileStat, error) {
	var st FileStat
	add, err := br.ReadString('\t')
	if err != nil {
		return st, fmt.Errorf("diff: truncated numstat: %w", err)
	}
	del, err := br.ReadString('\t')
	if err != nil {
		return st, fmt.Errorf("diff: truncated numstat: %w", err)
	}
	add, del = strings.TrimSuffix(add, "\t"), strings.TrimSuffix(del, "\t")
	if add == "-" || del == "-" {
		st.Binary = true
	} else {
		st.Additions, _ = strconv.Atoi(add)
		st.Deletions, _ = strconv.Atoi(del)
	}
	b, err := br.Peek(1)
	if err != nil {
		return st, fmt.Errorf("diff: truncated numstat: %w", err)
	}
	if b[0] == 0 {
		_, _ = br.ReadByte()
		if st.OldPath, err = readField(br); err != nil {
			return st, err
		}
		st.Path, err = readField(br)
		return st, err
	}
	st.Path, err = readField(br)
	st.OldPath = st.Path
	return st, err
}

// DiffStats returns per-file line counts between two commits or trees (from "" is the empty
// tree), without patches. Only Paths and NoRenames of opts apply.
func (r *Repository) DiffStats(ctx context.Context, from, to string, opts DiffOptions) ([]FileStat, error) {
	cmd, err := diffCommand(from, to, opts)
	if err != nil {
		return nil, err
	}
	out, err := r.output(ctx, cmd.Flag("--numstat"))
	if err != nil {
		return nil, revisionErr(err, "diff stats")
	}
	br := bufio.NewReader(bytes.NewReader(out))
	var stats []FileStat
	for {
		if _, err := br.Peek(1); errors.Is(err, io.EOF) {
			return stats, nil
		}
		st, err := readNumstat(br)
		if err != nil {
			return nil, err
		}
		stats = append(stats, st)
	}
}
