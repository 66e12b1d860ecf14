package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/service/projects"
)

// The repository benchmark compares each repository endpoint with the same work done by the git
// CLI alone, on a generated repository of gittest.Large's size (20,000 commits, 50,000 files).
//
// Knobs:
//   - ANVIL_BENCH_REPO: where the generated repository is kept. When it names a repository
//     made from the same spec, generation is skipped (so later runs start at once);
//     otherwise it is generated there (the directory must be missing or empty). Unset: a
//     temporary directory, removed when the benchmark ends.
//   - ANVIL_BENCH_SAMPLES: the least number of timed API/git pairs per operation (default 10),
//     however slow the operation; -benchtime adds more for the fast ones.

// benchSpecFile records, inside a generated repository, the spec it was made from.
const benchSpecFile = "anvil-bench-spec"

// benchCompareDistance is how many commits apart the compared refs are.
const benchCompareDistance = 100

// benchRepoCache returns the path of the generated repository, generating it when needed.
func benchRepoCache(b *testing.B, client *git.Client, spec gittest.LargeSpec) string {
	b.Helper()
	path := os.Getenv("ANVIL_BENCH_REPO")
	if path == "" {
		path = filepath.Join(b.TempDir(), "bench.git")
	}
	path, err := filepath.Abs(path)
	if err != nil {
		b.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(path, benchSpecFile)); err == nil {
		if string(got) == spec.String() {
			return path
		}
		b.Fatalf("ANVIL_BENCH_REPO=%s was generated for %q, not %q: remove it", path, got, spec)
	}
	if entries, err := os.ReadDir(path); err == nil && len(entries) > 0 {
		b.Fatalf("ANVIL_BENCH_REPO=%s exists and is not a generated benchmark repository", path)
	}
	start := time.Now()
	if err := gittest.BuildLarge(context.Background(), client, path, spec); err != nil {
		b.Fatal(err)
	}
	// One packed-refs file, as a long-lived repository has, is what importBenchProject copies.
	if _, err := rawGit(path, io.Discard, "pack-refs", "--all"); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, benchSpecFile), []byte(spec.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	// Straight to stderr: the log of a benchmark with sub-benchmarks is not shown.
	fmt.Fprintf(os.Stderr, "generated %s in %s at %s\n", spec, time.Since(start).Round(time.Millisecond), path)
	return path
}

// importBenchProject creates a private project through the projects service (which creates its
// empty repository) owned by a new user, and fills the repository with the generated one: its
// packs are hard-linked (copied across file systems) and its refs copied, as if it had been
// pushed. It returns the project id, the owner's token and the repository path.
func importBenchProject(b *testing.B, in *servertest.Instance, cache string) (int, string, string) {
	b.Helper()
	ctx := context.Background()
	u, token := in.NewUser(b, "bench-owner")
	name, vis, branch := "big", "private", gittest.Large.Branch
	p, _, err := in.Services.Projects.Create(ctx, &authz.Actor{User: u}, projects.CreateInput{
		Attributes: projects.Attributes{Name: &name, Path: &name, Visibility: &vis, DefaultBranch: &branch},
	})
	if err != nil {
		b.Fatalf("create project: %v", err)
	}
	repo, err := in.Services.Repos.Repository(p)
	if err != nil {
		b.Fatal(err)
	}
	dst := repo.Path()
	packs, err := filepath.Glob(filepath.Join(cache, "objects", "pack", "pack-*"))
	if err != nil || len(packs) == 0 {
		b.Fatalf("no packs in %s (%v)", cache, err)
	}
	for _, src := range packs {
		if err := linkOrCopy(src, filepath.Join(dst, "objects", "pack", filepath.Base(src))); err != nil {
			b.Fatal(err)
		}
	}
	if err := linkOrCopy(filepath.Join(cache, "packed-refs"), filepath.Join(dst, "packed-refs")); err != nil {
		b.Fatal(err)
	}
	// The cat-file processes of the server must not have cached the empty repository.
	in.Services.Git.Evict(dst)
	return p.ID, token, dst
}

// linkOrCopy hard-links src to dst, copying when they are on different file systems.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o444)
}

// The git binary is looked up once: a lookup per command would slow the baseline down.
var (
	gitBinOnce sync.Once
	gitBin     string
	gitBinErr  error
)

// rawGit runs the git CLI on the repository at path with a neutral configuration (no system or
// global config, C locale), sending its output to stdout; it returns the output's size.
func rawGit(path string, stdout io.Writer, args ...string) (int64, error) {
	gitBinOnce.Do(func() { gitBin, gitBinErr = exec.LookPath("git") })
	if gitBinErr != nil {
		return 0, gitBinErr
	}
	cmd := exec.Command(gitBin, append([]string{"--git-dir=" + path}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C", "TZ=UTC"}
	cw := &countWriter{w: stdout}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = cw, &stderr
	if err := cmd.Run(); err != nil {
		return cw.n, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return cw.n, nil
}

// countWriter counts what passes through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// apiGet issues one authenticated GET, reads the whole body into w and fails on anything but
// 200, quoting the start of the body (a missing route answers 404).
func apiGet(client *http.Client, url, token string, w io.Writer) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("PRIVATE-TOKEN", token)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	_, err = io.Copy(w, resp.Body)
	return err
}

// benchOp is one operation done both ways.
type benchOp struct {
	name string
	// api is the path and query under /api/v4/projects/:id/repository.
	api string
	// git runs the same work with the git CLI, writing its output to w.
	git func(w io.Writer) error
	// check validates the API's answer once, before timing (nil: any 200 will do).
	check func(body []byte) error
}

// BenchmarkRepositoryAPIvsGit times the repository endpoints through HTTP (the owner's token on
// a private project: the authorization path of a real request) next to the git CLI doing the
// same work, on a generated repository of 20,000 commits and 50,000 files. Each operation
// reports the median API time (api-ms), the median git time (git-ms) and the median ratio of a
// pair (api/git; the target is at most 1.25); load1 is the one-minute load average when it
// finished, as CPU is shared.
func BenchmarkRepositoryAPIvsGit(b *testing.B) {
	in := servertest.Start(b)
	spec := gittest.Large
	cache := benchRepoCache(b, in.Services.Git, spec)
	id, token, path := importBenchProject(b, in, cache)
	base := fmt.Sprintf("%s/api/v4/projects/%d/repository", in.URL, id)

	rev := func(r string) string {
		var out bytes.Buffer
		if _, err := rawGit(path, &out, "rev-parse", "--verify", r+"^{commit}"); err != nil {
			b.Fatal(err)
		}
		return strings.TrimSpace(out.String())
	}
	branch := spec.Branch
	head := rev(branch)
	from := rev(fmt.Sprintf("%s~%d", branch, benchCompareDistance))
	dir := strings.TrimSuffix(spec.Path(42), "/"+filepath.Base(spec.Path(42))) // dir042/sub2
	perPage, deepPage := 20, 500
	// The fields the commits API returns: ids, parents, identities, dates, message, trailers.
	logFormat := "--format=%H%x1f%h%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B%x1f%(trailers:only,unfold)%x1e"
	archivePrefix := fmt.Sprintf("--prefix=big-%s-%s/", branch, head)

	ops := []benchOp{
		{
			name: "tree_root",
			api:  "/tree?per_page=100",
			git:  func(w io.Writer) error { _, err := rawGit(path, w, "ls-tree", branch); return err },
			check: jsonLen(func(n int) error {
				return expect(n == min(100, spec.Dirs), "tree_root: %d entries", n)
			}),
		},
		{
			name: "tree_dir",
			api:  "/tree?per_page=100&path=" + dir,
			git:  func(w io.Writer) error { _, err := rawGit(path, w, "ls-tree", branch+":"+dir); return err },
			check: jsonLen(func(n int) error {
				return expect(n == min(100, spec.Files/spec.Dirs), "tree_dir: %d entries", n)
			}),
		},
		{
			name: "commits_first_page",
			api:  fmt.Sprintf("/commits?per_page=%d", perPage),
			git: func(w io.Writer) error {
				_, err := rawGit(path, w, "log", "-n", strconv.Itoa(perPage), logFormat, branch)
				return err
			},
			check: jsonLen(func(n int) error { return expect(n == perPage, "commits: %d", n) }),
		},
		{
			name: fmt.Sprintf("commits_page_%d", deepPage),
			api:  fmt.Sprintf("/commits?per_page=%d&page=%d", perPage, deepPage),
			git: func(w io.Writer) error {
				_, err := rawGit(path, w, "log", "--skip", strconv.Itoa((deepPage-1)*perPage), "-n", strconv.Itoa(perPage), logFormat, branch)
				return err
			},
			check: jsonLen(func(n int) error { return expect(n == perPage, "commits deep page: %d", n) }),
		},
		{
			name: fmt.Sprintf("compare_%d_commits", benchCompareDistance),
			api:  fmt.Sprintf("/compare?from=%s&to=%s", from, head),
			// The API lists the commits and diffs from the merge base at once; so does this.
			git: func(w io.Writer) error {
				return both(
					func() error { _, err := rawGit(path, w, "log", logFormat, from+".."+head); return err },
					func() error { _, err := rawGit(path, io.Discard, "diff", "-p", "-M", from+"..."+head); return err },
				)
			},
			check: func(body []byte) error {
				var c struct {
					Commits []json.RawMessage `json:"commits"`
					Diffs   []json.RawMessage `json:"diffs"`
				}
				if err := json.Unmarshal(body, &c); err != nil {
					return err
				}
				return expect(len(c.Commits) == benchCompareDistance && len(c.Diffs) > 0,
					"compare: %d commits, %d diffs", len(c.Commits), len(c.Diffs))
			},
		},
		{
			name: "archive_tar.gz",
			api:  "/archive.tar.gz",
			git: func(w io.Writer) error {
				_, err := rawGit(path, w, "archive", "--format=tar.gz", archivePrefix, head)
				return err
			},
			check: func(body []byte) error {
				return expect(len(body) > 1<<20 && body[0] == 0x1f && body[1] == 0x8b, "archive: %d bytes", len(body))
			},
		},
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			url := base + op.api
			// Warm the connection, the cat-file processes and the page cache, and check the
			// answer is the listing it should be.
			var body bytes.Buffer
			if err := apiGet(client, url, token, &body); err != nil {
				b.Fatal(err)
			}
			if op.check != nil {
				if err := op.check(body.Bytes()); err != nil {
					b.Fatal(err)
				}
			}
			if err := op.git(io.Discard); err != nil {
				b.Fatal(err)
			}
			api := func() error { return apiGet(client, url, token, io.Discard) }
			git := func() error { return op.git(io.Discard) }
			measurePair(b, api, git)
		})
	}
}

// measurePair times api and git alternately (swapping which goes first each round, so neither
// profits from the other's warm caches more often) at least ANVIL_BENCH_SAMPLES times and
// reports their medians and the median ratio of a pair.
func measurePair(b *testing.B, api, git func() error) {
	minSamples := 10
	if s, err := strconv.Atoi(os.Getenv("ANVIL_BENCH_SAMPLES")); err == nil && s > 0 {
		minSamples = s
	}
	timed := func(f func() error) time.Duration {
		t := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t)
	}
	var apiTimes, gitTimes []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N || i < minSamples; i++ {
		if i%2 == 0 {
			apiTimes = append(apiTimes, timed(api))
			gitTimes = append(gitTimes, timed(git))
		} else {
			gitTimes = append(gitTimes, timed(git))
			apiTimes = append(apiTimes, timed(api))
		}
	}
	b.StopTimer()
	// The ratio is the median of each pair's ratio: the two calls of a pair ran under the same
	// load, so a busy moment shared by both cancels out.
	ratios := make([]float64, len(apiTimes))
	for i := range apiTimes {
		ratios[i] = float64(apiTimes[i]) / float64(gitTimes[i])
	}
	b.ReportMetric(0, "ns/op") // a pair of calls per iteration: not a meaningful figure
	b.ReportMetric(ms(median(apiTimes)), "api-ms")
	b.ReportMetric(ms(median(gitTimes)), "git-ms")
	b.ReportMetric(median(ratios), "api/git")
	b.ReportMetric(float64(len(apiTimes)), "samples")
	if load, err := loadAverage(); err == nil {
		b.ReportMetric(load, "load1")
	}
}

// median returns the middle value (the mean of the two middle ones for an even count).
func median[T time.Duration | float64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// loadAverage reads the one-minute load average (Linux).
func loadAverage() (float64, error) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0, errors.New("empty /proc/loadavg")
	}
	return strconv.ParseFloat(f[0], 64)
}

// both runs f and g concurrently and returns the first error.
func both(f, g func() error) error {
	var wg sync.WaitGroup
	var ferr error
	wg.Add(1)
	go func() { defer wg.Done(); ferr = f() }()
	gerr := g()
	wg.Wait()
	return errors.Join(ferr, gerr)
}

// jsonLen checks the length of a JSON array answer.
func jsonLen(check func(n int) error) func([]byte) error {
	return func(body []byte) error {
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return err
		}
		return check(len(items))
	}
}

func expect(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf("unexpected answer: "+format, args...)
}
