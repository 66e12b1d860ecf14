package git_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"anvil/internal/git"
	"anvil/internal/git/gitcmd"
)

// Benchmarks run against a generated repository of benchCommits commits and benchFiles files,
// written with git fast-import the first time a benchmark needs it (so plain "go test" never
// pays for it) and removed when the test binary exits.
const (
	benchCommits = 20000
	benchFiles   = 50000
	benchDirs    = 200 // benchFiles/benchDirs files per directory, in two levels
)

var (
	benchOnce   sync.Once
	benchDir    string
	benchClient *git.Client
	benchRepo   *git.Repository
	benchErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchClient != nil {
		_ = benchClient.Close()
	}
	if benchDir != "" {
		_ = os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func benchPath(i int) string {
	d := i % benchDirs
	return fmt.Sprintf("dir%03d/sub%d/file%05d.txt", d, d%10, i)
}

// writeBenchStream writes the fast-import stream: one commit adding every file, then commits
// changing one to three files each, a tag every 1000 commits, with dates one minute apart.
func writeBenchStream(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	when := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	blob := func(content string) {
		fmt.Fprintf(bw, "data %d\n%s\n", len(content), content)
	}
	content := func(i, rev int) string {
		return fmt.Sprintf("file %d revision %d\nline two of file %d\nline three\nline four %d\n", i, rev, i, rev*7)
	}
	fmt.Fprintf(bw, "commit refs/heads/main\nmark :1\ncommitter Bench <bench@example.com> %d +0000\n", when)
	blob("Initial import\n")
	for i := 0; i < benchFiles; i++ {
		fmt.Fprintf(bw, "M 100644 inline %s\n", benchPath(i))
		blob(content(i, 0))
	}
	fmt.Fprintln(bw)
	seed := uint32(1)
	next := func() int {
		seed = seed*1664525 + 1013904223
		return int(seed >> 8)
	}
	for c := 2; c <= benchCommits; c++ {
		author := []string{"Alice <alice@example.com>", "Bob <bob@example.com>", "Carol <carol@example.com>"}[c%3]
		fmt.Fprintf(bw, "commit refs/heads/main\nmark :%d\nauthor %s %d +0000\ncommitter %s %d +0000\n",
			c, author, when+int64(c)*60, author, when+int64(c)*60)
		blob(fmt.Sprintf("Change %d\n\nTouches a few files.\n", c))
		fmt.Fprintf(bw, "from :%d\n", c-1)
		for n := 1 + next()%3; n > 0; n-- {
			i := next() % benchFiles
			fmt.Fprintf(bw, "M 100644 inline %s\n", benchPath(i))
			blob(content(i, c))
		}
		fmt.Fprintln(bw)
		if c%1000 == 0 {
			fmt.Fprintf(bw, "reset refs/tags/v%d\nfrom :%d\n\n", c/1000, c)
		}
	}
	fmt.Fprintln(bw, "done")
	return bw.Flush()
}

func benchSetup(b *testing.B) *git.Repository {
	b.Helper()
	benchOnce.Do(func() {
		start := time.Now()
		ctx := context.Background()
		if benchDir, benchErr = os.MkdirTemp("", "anvil-git-bench-"); benchErr != nil {
			return
		}
		if benchClient, benchErr = git.New(ctx, git.Config{HomeDir: benchDir}); benchErr != nil {
			return
		}
		path := filepath.Join(benchDir, "bench.git")
		if benchErr = benchClient.InitBare(ctx, path, "main"); benchErr != nil {
			return
		}
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(writeBenchStream(pw)) }()
		benchErr = benchClient.Runner().Run(ctx, path, gitcmd.New("fast-import", "--quiet", "--done"), gitcmd.Stdin(pr))
		benchRepo = benchClient.Repository(path)
		fmt.Fprintf(os.Stderr, "generated %d commits, %d files in %s\n", benchCommits, benchFiles, time.Since(start).Round(time.Millisecond))
	})
	if benchErr != nil {
		b.Fatalf("generate benchmark repository: %v", benchErr)
	}
	return benchRepo
}

func BenchmarkListTree(b *testing.B) {
	repo := benchSetup(b)
	ctx := context.Background()
	for _, bc := range []struct {
		name, path string
		opts       git.ListTreeOptions
	}{
		{"root", "", git.ListTreeOptions{}},
		{"subdir_with_sizes", "dir042/sub2", git.ListTreeOptions{WithSizes: true}},
		{"recursive_50k", "", git.ListTreeOptions{Recursive: true}},
		{"recursive_subdir", "dir042", git.ListTreeOptions{Recursive: true, WithSizes: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := repo.ListTree(ctx, "main", bc.path, bc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLog(b *testing.B) {
	repo := benchSetup(b)
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		opts git.LogOptions
	}{
		{"first_page", git.LogOptions{Limit: 20}},
		// A date filter that keeps every commit sends the same page to git log.
		{"first_page_git_log", git.LogOptions{Limit: 20, Since: time.Unix(1, 0)}},
		{"deepest_walked_page", git.LogOptions{Skip: 980, Limit: 20}},
		{"page_500", git.LogOptions{Skip: 10000, Limit: 20}},
		{"with_stats", git.LogOptions{Limit: 20, WithStats: true}},
		{"path", git.LogOptions{Limit: 20, Paths: []string{"dir042"}}},
		{"author", git.LogOptions{Limit: 20, Author: "Carol"}},
		{"range", git.LogOptions{Revisions: []string{"v10..v11"}, Limit: 20}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := repo.Log(ctx, bc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("count", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.CountCommits(ctx, git.LogOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkReads(b *testing.B) {
	repo := benchSetup(b)
	ctx := context.Background()
	b.Run("resolve_commit", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.ResolveCommit(ctx, "main~100"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read_commit", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.ReadCommit(ctx, "v5"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tree_entry", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.TreeEntryAt(ctx, "main", benchPath(4242)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("blob", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.ReadBlobAt(ctx, "main", benchPath(4242), -1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("branches_and_tags", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.Tags(ctx, git.ListRefsOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDiff(b *testing.B) {
	repo := benchSetup(b)
	ctx := context.Background()
	for _, bc := range []struct{ name, from, to string }{
		{"one_commit", "main~1", "main"},
		{"1000_commits", "v10", "v11"},
		{"whole_tree", "", "main"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := repo.Diff(ctx, bc.from, bc.to, git.DiffOptions{MaxFiles: 3000, MaxBytes: 500 << 10}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("stats_1000_commits", func(b *testing.B) {
		for b.Loop() {
			if _, err := repo.DiffStats(ctx, "v10", "v11", git.DiffOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkArchive(b *testing.B) {
	repo := benchSetup(b)
	ctx := context.Background()
	for _, f := range []git.ArchiveFormat{git.ArchiveTar, git.ArchiveTarGz, git.ArchiveZip} {
		b.Run(string(f), func(b *testing.B) {
			for b.Loop() {
				if err := repo.Archive(ctx, io.Discard, git.ArchiveOptions{Revision: "main", Format: f, Prefix: "p/"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("subdir_tar.gz", func(b *testing.B) {
		for b.Loop() {
			if err := repo.Archive(ctx, io.Discard, git.ArchiveOptions{Revision: "main", Format: git.ArchiveTarGz, Path: "dir042"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkWrite(b *testing.B) {
	repo := benchSetup(b)
	ctx := context.Background()
	b.Run("edit_tree_and_commit", func(b *testing.B) {
		parent, err := repo.ResolveCommit(ctx, "main")
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			i++
			tree, err := repo.EditTree(ctx, string(parent), []git.TreeAction{
				{Action: git.ActionUpdate, Path: benchPath(i), Content: []byte(fmt.Sprintf("bench %d\n", i))},
				{Action: git.ActionCreate, Path: fmt.Sprintf("new/bench-%d.txt", i), Content: []byte("x\n")},
			})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := repo.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Parents: []git.ObjectID{parent},
				Message: "bench\n", Author: git.Signature{Name: "B", Email: "b@x"}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
