package repositoryapi_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/git/gittest"
	"anvil/internal/service/projects"
)

// benchSize reads a size of the benchmark repository from the environment.
func benchSize(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// writeHistory feeds git fast-import a history of commits commits over files files: the first
// commit adds every file (dNNN/sNN/fNNNNN.txt), each later one changes two of them.
func writeHistory(b *testing.B, repoPath string, commits, files int) {
	b.Helper()
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	path := func(i int) string { return fmt.Sprintf("d%03d/s%02d/f%05d.txt", i/500, (i/50)%10, i) }
	for c := 1; c <= commits; c++ {
		fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\n", c)
		who := []string{"Alice <alice@example.com>", "Bob <bob@example.com>", "Carol <carol@example.com>"}[c%3]
		fmt.Fprintf(w, "author %s %d +0000\ncommitter %s %d +0000\n", who, 1700000000+c*60, who, 1700000000+c*60)
		msg := fmt.Sprintf("commit %d\n", c)
		fmt.Fprintf(w, "data %d\n%s", len(msg), msg)
		if c > 1 {
			fmt.Fprintf(w, "from :%d\n", c-1)
		}
		if c == 1 {
			for i := 0; i < files; i++ {
				body := fmt.Sprintf("file %d\nline two\nline three\n", i)
				fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s", path(i), len(body), body)
			}
		} else {
			for _, i := range []int{(c * 7919) % files, (c * 104729) % files} {
				body := fmt.Sprintf("file %d\nchanged in %d\nline three\n", i, c)
				fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s", path(i), len(body), body)
			}
		}
		w.WriteString("\n")
	}
	w.Flush()
	gittest.Git(b, repoPath, buf.Bytes(), "fast-import", "--quiet")
	gittest.Git(b, repoPath, nil, "repack", "-a", "-d", "-q")
	gittest.Git(b, repoPath, nil, "commit-graph", "write", "--reachable")
}

// BenchmarkRepository measures the tree, compare and archive endpoints on a large repository
// (20,000 commits and 50,000 files by default; ANVIL_BENCH_COMMITS and ANVIL_BENCH_FILES
// change them) next to the git command line doing the same work: read each "api" result
// against its "git" twin.
//
//	go test ./rest/repositoryapi -run '^$' -bench Repository -benchtime 20x
func BenchmarkRepository(b *testing.B) {
	in := servertest.Start(b)
	root, err := in.Services.Users.FindByRef(context.Background(), "root")
	if err != nil {
		b.Fatal(err)
	}
	path, vis := "big", "public"
	p, _, err := in.Services.Projects.Create(context.Background(), authz.System(root), projects.CreateInput{
		Attributes: projects.Attributes{Path: &path, Visibility: &vis}})
	if err != nil {
		b.Fatal(err)
	}
	repo, err := in.Services.Repos.Repository(p)
	if err != nil {
		b.Fatal(err)
	}
	commits := benchSize("ANVIL_BENCH_COMMITS", 20000)
	writeHistory(b, repo.Path(), commits, benchSize("ANVIL_BENCH_FILES", 50000))
	from := fmt.Sprintf("main~%d", min(200, commits-1))
	api := in.URL + "/api/v4/projects/root%2Fbig/repository"
	client := &http.Client{}
	// A request names a URL and the git command doing the same work; %d in either is replaced
	// by a number unique to the iteration, so that every request of a "cold" case lists a tree
	// no earlier request cached (a different commit).
	cases := []struct {
		name, url string
		git       []string
	}{
		{"tree root", api + "/tree", []string{"ls-tree", "main"}},
		{"tree dir", api + "/tree?path=d050/s05", []string{"ls-tree", "main:d050/s05"}},
		{"tree recursive cold", api + "/tree?recursive=true&per_page=100&ref=main~%d", []string{"ls-tree", "-r", "-t", "main~%d"}},
		{"tree recursive keyset cold", api + "/tree?recursive=true&per_page=100&pagination=keyset&ref=main~%d", []string{"ls-tree", "-r", "-t", "main~%d"}},
		{"tree recursive keyset next page", api + "/tree?recursive=true&per_page=100&pagination=keyset&page_token=d049", []string{"ls-tree", "-r", "-t", "main"}},
		{"compare", api + "/compare?from=" + from + "&to=main", nil},
		{"archive tar.gz", api + "/archive.tar.gz", []string{"archive", "--format=tar.gz", "--prefix=big/", "main"}},
		{"archive zip", api + "/archive.zip", []string{"archive", "--format=zip", "--prefix=big/", "main"}},
	}
	iteration := 0
	for _, c := range cases {
		// Each iteration times the request and then the git command; the fastest of each is
		// reported (the machine is shared, so means are noisy) with their ratio.
		b.Run(c.name, func(b *testing.B) {
			bestAPI, bestGit := time.Duration(1<<62), time.Duration(1<<62)
			for i := 0; i < b.N; i++ {
				iteration++
				url := strings.ReplaceAll(c.url, "%d", strconv.Itoa(iteration))
				start := time.Now()
				resp, err := client.Get(url)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("%s: %d", url, resp.StatusCode)
				}
				bestAPI = min(bestAPI, time.Since(start))
				start = time.Now()
				if c.git != nil {
					args := make([]string, len(c.git))
					for j, a := range c.git {
						args[j] = strings.ReplaceAll(a, "%d", strconv.Itoa(iteration))
					}
					runGit(b, repo.Path(), args...)
				} else {
					// compare: the commit list and the merge-base diff, as git log and git diff.
					runGit(b, repo.Path(), "log", "--format=%H%n%an%n%ae%n%at%n%B", from+"..main")
					runGit(b, repo.Path(), "diff", "--raw", "-p", "-M", from+"...main")
				}
				bestGit = min(bestGit, time.Since(start))
			}
			b.ReportMetric(float64(bestAPI.Microseconds())/1000, "api-ms")
			b.ReportMetric(float64(bestGit.Microseconds())/1000, "git-ms")
			b.ReportMetric(float64(bestAPI)/float64(bestGit), "api/git")
		})
	}
}

// runGit runs the git command line alone, discarding its output.
func runGit(b *testing.B, dir string, args ...string) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
}
