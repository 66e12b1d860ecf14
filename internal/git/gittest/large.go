package gittest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"time"

	"anvil/internal/git"
	"anvil/internal/git/gitcmd"
)

// LargeSpec sizes a generated repository for benchmarks: one commit adding Files files spread
// over Dirs directories (two levels: dirNNN/subN/fileNNNNN.txt), then Commits-1 commits each
// changing one to three files, a lightweight tag v<k> every TagEvery commits, dated one minute
// apart by three rotating authors. The history is deterministic: the same spec always gives
// the same object ids.
type LargeSpec struct {
	Commits, Files, Dirs int
	// TagEvery tags every TagEvery-th commit (0: no tags).
	TagEvery int
	// Branch is the branch the history is written to (default DefaultBranch).
	Branch string
}

// Large is the repository size Anvil's performance targets are stated for: 20,000 commits and
// 50,000 files.
var Large = LargeSpec{Commits: 20000, Files: 50000, Dirs: 200, TagEvery: 1000, Branch: DefaultBranch}

// String names the spec, so a cached repository can be checked against the spec it was made
// from.
func (s LargeSpec) String() string {
	return fmt.Sprintf("commits=%d files=%d dirs=%d tag-every=%d branch=%s", s.Commits, s.Files, s.Dirs, s.TagEvery, s.branch())
}

func (s LargeSpec) branch() string {
	if s.Branch == "" {
		return DefaultBranch
	}
	return s.Branch
}

// Path is the path of file i (0 <= i < Files).
func (s LargeSpec) Path(i int) string {
	d := i % s.Dirs
	return fmt.Sprintf("dir%03d/sub%d/file%05d.txt", d, d%10, i)
}

// WriteStream writes the spec's history as a git fast-import stream (ending with "done").
func (s LargeSpec) WriteStream(w io.Writer) error {
	if err := s.validate(); err != nil {
		return err
	}
	ref := git.BranchRef(s.branch())
	bw := bufio.NewWriterSize(w, 1<<20)
	when := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	blob := func(content string) {
		fmt.Fprintf(bw, "data %d\n%s\n", len(content), content)
	}
	content := func(i, rev int) string {
		return fmt.Sprintf("file %d revision %d\nline two of file %d\nline three\nline four %d\n", i, rev, i, rev*7)
	}
	fmt.Fprintf(bw, "commit %s\nmark :1\ncommitter Bench <bench@example.com> %d +0000\n", ref, when)
	blob("Initial import\n")
	for i := 0; i < s.Files; i++ {
		fmt.Fprintf(bw, "M 100644 inline %s\n", s.Path(i))
		blob(content(i, 0))
	}
	fmt.Fprintln(bw)
	seed := uint32(1)
	next := func() int {
		seed = seed*1664525 + 1013904223
		return int(seed >> 8)
	}
	authors := []string{"Alice <alice@example.com>", "Bob <bob@example.com>", "Carol <carol@example.com>"}
	for c := 2; c <= s.Commits; c++ {
		author := authors[c%3]
		at := when + int64(c)*60
		fmt.Fprintf(bw, "commit %s\nmark :%d\nauthor %s %d +0000\ncommitter %s %d +0000\n", ref, c, author, at, author, at)
		blob(fmt.Sprintf("Change %d\n\nTouches a few files.\n", c))
		fmt.Fprintf(bw, "from :%d\n", c-1)
		for n := 1 + next()%3; n > 0; n-- {
			i := next() % s.Files
			fmt.Fprintf(bw, "M 100644 inline %s\n", s.Path(i))
			blob(content(i, c))
		}
		fmt.Fprintln(bw)
		if s.TagEvery > 0 && c%s.TagEvery == 0 {
			fmt.Fprintf(bw, "reset refs/tags/v%d\nfrom :%d\n\n", c/s.TagEvery, c)
		}
	}
	fmt.Fprintln(bw, "done")
	return bw.Flush()
}

func (s LargeSpec) validate() error {
	if s.Commits < 1 || s.Files < 1 || s.Dirs < 1 {
		return fmt.Errorf("gittest: large spec needs at least one commit, file and directory: %s", s)
	}
	return nil
}

// BuildLarge writes the spec's history with git fast-import into the bare repository at path,
// creating it (HEAD on the spec's branch) when missing. On two cores the Large spec takes
// about 15 seconds.
func BuildLarge(ctx context.Context, client *git.Client, path string, s LargeSpec) error {
	if err := s.validate(); err != nil {
		return err
	}
	if !client.Repository(path).Exists() {
		if err := client.InitBare(ctx, path, s.branch()); err != nil {
			return err
		}
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(s.WriteStream(pw)) }()
	err := client.Runner().Run(ctx, path, gitcmd.New("fast-import", "--quiet", "--done"), gitcmd.Stdin(pr))
	_ = pr.CloseWithError(io.ErrClosedPipe) // stop the writer if git gave up early
	if err != nil {
		return fmt.Errorf("gittest: fast-import %s: %w", s, err)
	}
	return nil
}
