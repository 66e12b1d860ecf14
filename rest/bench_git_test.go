package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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

// pushBenchProject creates a private project through the projects service (which creates its
// empty repository) owned by a new user, and pushes the generated repository into it with the
// git CLI over smart HTTP, every branch and tag, as a user's first push does. Then the
// repository gets the housekeeping the housekeeping job gives it after a push
// (repos.Service.Housekeep). It returns the project id, the owner's token, the repository
// path and the HTTP URL to clone from (credentials included).
func pushBenchProject(b *testing.B, in *servertest.Instance, cache string) (int, string, string, string) {
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
	remote, err := url.Parse(in.URL + "/bench-owner/big.git")
	if err != nil {
		b.Fatal(err)
	}
	remote.User = url.UserPassword("bench-owner", token)
	start := time.Now()
	if _, err := rawGit(cache, io.Discard, "push", "--quiet", remote.String(), "refs/heads/*:refs/heads/*", "refs/tags/*:refs/tags/*"); err != nil {
		b.Fatal(err)
	}
	pushed := time.Since(start)
	// The push queued the housekeeping job: let it finish, then make sure (a job that found the
	// repository busy did nothing).
	start = time.Now()
	in.WaitJobs(b)
	if err := in.Services.Repos.Housekeep(ctx, p.ID); err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "pushed in %s, housekeeping in %s\n", pushed.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return p.ID, token, repo.Path(), remote.String()
}

// benchMaintainedSuffix names the maintained copy kept beside a cached generated repository.
const benchMaintainedSuffix = ".maintained"

// maintainedCopy returns a copy of the generated repository as git's own maintenance leaves
// it: a fresh clone of it (as the pushed one is a fresh pack) repacked into one pack with a
// reachability bitmap, a commit-graph with changed-path Bloom filters, and packed refs. The git
// CLI side of the benchmark works on it. It is kept beside ANVIL_BENCH_REPO when that is set.
func maintainedCopy(b *testing.B, cache string) string {
	b.Helper()
	path := strings.TrimSuffix(cache, "/") + benchMaintainedSuffix
	if os.Getenv("ANVIL_BENCH_REPO") == "" {
		path = filepath.Join(b.TempDir(), "maintained.git")
	}
	if _, err := os.Stat(filepath.Join(path, benchSpecFile)); err == nil {
		return path
	}
	_ = os.RemoveAll(path)
	start := time.Now()
	steps := [][]string{
		{"clone", "--quiet", "--mirror", "--no-local", cache, path},
		{"--git-dir=" + path, "repack", "-a", "-d", "-q", "--write-bitmap-index"},
		{"--git-dir=" + path, "commit-graph", "write", "--reachable", "--changed-paths"},
		{"--git-dir=" + path, "pack-refs", "--all"},
	}
	for _, args := range steps {
		if _, err := rawGitIn("", io.Discard, args...); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(path, benchSpecFile), []byte("maintained copy"), 0o644); err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "maintained copy made in %s at %s\n", time.Since(start).Round(time.Millisecond), path)
	return path
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
	return rawGitIn("", stdout, append([]string{"--git-dir=" + path}, args...)...)
}

// rawGitIn runs the git CLI with args in directory dir ("" for the current one), as rawGit.
func rawGitIn(dir string, stdout io.Writer, args ...string) (int64, error) {
	gitBinOnce.Do(func() { gitBin, gitBinErr = exec.LookPath("git") })
	if gitBinErr != nil {
		return 0, gitBinErr
	}
	cmd := exec.Command(gitBin, args...)
	cmd.Dir = dir
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
	// api is the path and query under /api/v4/projects/:id/repository; apiAt, when set, gives
	// it for the i-th call instead (operations whose every call must be a first request).
	api   string
	apiAt func(i int) string
	// apiRun replaces the HTTP GET (a clone).
	apiRun func(i int) error
	// git runs the same work with the git CLI on the maintained copy, writing its output to w;
	// i counts the calls as for apiAt.
	git func(i int, w io.Writer) error
	// check validates the API's answer once, before timing (nil: any 200 will do).
	check func(body []byte) error
	// samples, when set, replaces ANVIL_BENCH_SAMPLES as the least number of pairs (for the
	// slow clones).
	samples int
}

// BenchmarkRepositoryAPIvsGit times the repository endpoints through HTTP (the owner's token on
// a private project: the authorization path of a real request) next to the git CLI doing the
// same work, on a generated repository of 20,000 commits and 50,000 files that arrived in
// Anvil by git push (and got the housekeeping that follows a push); the git CLI works on a
// maintained copy of the same repository (one pack with a bitmap, a commit-graph with
// changed-path Bloom filters). Each operation reports the median API time (api-ms), the median
// git time (git-ms) and the median ratio of a pair (api/git; the target is at most 1.25); load1
// is the one-minute load average when it finished, as CPU is shared.
func BenchmarkRepositoryAPIvsGit(b *testing.B) {
	in := servertest.Start(b)
	spec := gittest.Large
	cache := benchRepoCache(b, in.Services.Git, spec)
	maintained := maintainedCopy(b, cache)
	id, token, _, cloneURL := pushBenchProject(b, in, cache)
	base := fmt.Sprintf("%s/api/v4/projects/%d/repository", in.URL, id)
	path := maintained

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
	middle := rev(fmt.Sprintf("%s~%d", branch, spec.Commits/2))
	// Commits shown for the first time, one per call.
	var firstCommits []string
	{
		var out bytes.Buffer
		if _, err := rawGit(path, &out, "rev-list", "-n", "2000", fmt.Sprintf("%s~%d", branch, spec.Commits/4)); err != nil {
			b.Fatal(err)
		}
		firstCommits = strings.Fields(out.String())
	}
	firstCommit := func(i int) string { return firstCommits[(i*7)%len(firstCommits)] }
	dir := strings.TrimSuffix(spec.Path(42), "/"+filepath.Base(spec.Path(42))) // dir042/sub2
	perPage, deepPage := 20, 500
	// The fields the commits API returns: ids, parents, identities, dates, message, trailers.
	logFormat := "--format=%H%x1f%h%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B%x1f%(trailers:only,unfold)%x1e"
	archivePrefix := fmt.Sprintf("--prefix=big-%s-%s/", branch, head)
	// A file no commit after the import changed: its last commit is the root, 20,000 commits
	// down (the longest walk there is), and files read for the first time, one per call, spread
	// over the repository.
	rawPath := spec.Path(17)
	firstPath := func(i int) string { return spec.Path((i*7919 + 101) % spec.Files) }
	rawContent := func(p string) (string, error) {
		var out bytes.Buffer
		_, err := rawGit(path, &out, "cat-file", "blob", branch+":"+p)
		return out.String(), err
	}
	wantRaw, err := rawContent(rawPath)
	if err != nil {
		b.Fatal(err)
	}
	clone := func(url string, args ...string) error {
		dst := filepath.Join(b.TempDir(), "clone.git")
		defer os.RemoveAll(dst)
		_, err := rawGitIn("", io.Discard, append(append([]string{"clone", "--bare", "--quiet"}, args...), url, dst)...)
		return err
	}
	parallel := func(n int, f func() error) error {
		errs := make(chan error, n)
		for range n {
			go func() { errs <- f() }()
		}
		var all []error
		for range n {
			all = append(all, <-errs)
		}
		return errors.Join(all...)
	}

	ops := []benchOp{
		{
			name: "tree_root",
			api:  "/tree?per_page=100",
			git:  func(_ int, w io.Writer) error { _, err := rawGit(path, w, "ls-tree", branch); return err },
			check: jsonLen(func(n int) error {
				return expect(n == min(100, spec.Dirs), "tree_root: %d entries", n)
			}),
		},
		{
			name: "tree_dir",
			api:  "/tree?per_page=100&path=" + dir,
			git:  func(_ int, w io.Writer) error { _, err := rawGit(path, w, "ls-tree", branch+":"+dir); return err },
			check: jsonLen(func(n int) error {
				return expect(n == min(100, spec.Files/spec.Dirs), "tree_dir: %d entries", n)
			}),
		},
		{
			// A file read again (the last commit comes from the cache) against reading it.
			name: "raw_file",
			api:  "/files/" + url.PathEscape(rawPath) + "/raw?ref=" + branch,
			git: func(_ int, w io.Writer) error {
				_, err := rawGit(path, w, "cat-file", "blob", branch+":"+rawPath)
				return err
			},
			check: func(body []byte) error { return expect(string(body) == wantRaw, "raw_file: %q", body) },
		},
		{
			// A file read for the first time: the content and its last commit, which git finds
			// by walking the history (with the commit-graph's Bloom filters on both sides).
			name:  "raw_file_first",
			apiAt: func(i int) string { return "/files/" + url.PathEscape(firstPath(i)) + "/raw?ref=" + branch },
			git: func(i int, w io.Writer) error {
				return errors.Join(
					func() error { _, err := rawGit(path, w, "cat-file", "blob", branch+":"+firstPath(i)); return err }(),
					func() error {
						_, err := rawGit(path, w, "log", "-1", "--format=%H", branch, "--", firstPath(i))
						return err
					}(),
				)
			},
		},
		{
			name: "commit_with_stats",
			api:  "/commits/" + middle,
			git: func(_ int, w io.Writer) error {
				_, err := rawGit(path, w, "show", "--shortstat", logFormat, middle)
				return err
			},
			check: func(body []byte) error {
				var c struct {
					ID    string         `json:"id"`
					Stats map[string]int `json:"stats"`
				}
				if err := json.Unmarshal(body, &c); err != nil {
					return err
				}
				return expect(c.ID == middle && c.Stats["total"] > 0, "commit: %s", body)
			},
		},
		{
			// A commit shown for the first time (its line counts are not remembered yet).
			name:  "commit_with_stats_first",
			apiAt: func(i int) string { return "/commits/" + firstCommit(i) },
			git: func(i int, w io.Writer) error {
				_, err := rawGit(path, w, "show", "--shortstat", logFormat, firstCommit(i))
				return err
			},
		},
		{
			name: "commits_first_page",
			api:  fmt.Sprintf("/commits?per_page=%d", perPage),
			git: func(_ int, w io.Writer) error {
				_, err := rawGit(path, w, "log", "-n", strconv.Itoa(perPage), logFormat, branch)
				return err
			},
			check: jsonLen(func(n int) error { return expect(n == perPage, "commits: %d", n) }),
		},
		{
			name: "commits_path",
			api:  fmt.Sprintf("/commits?per_page=%d&path=%s", perPage, dir),
			git: func(_ int, w io.Writer) error {
				_, err := rawGit(path, w, "log", "-n", strconv.Itoa(perPage), logFormat, branch, "--", dir)
				return err
			},
			check: jsonLen(func(n int) error { return expect(n == perPage, "commits by path: %d", n) }),
		},
		{
			name: fmt.Sprintf("commits_page_%d", deepPage),
			api:  fmt.Sprintf("/commits?per_page=%d&page=%d", perPage, deepPage),
			git: func(_ int, w io.Writer) error {
				_, err := rawGit(path, w, "log", "--skip", strconv.Itoa((deepPage-1)*perPage), "-n", strconv.Itoa(perPage), logFormat, branch)
				return err
			},
			check: jsonLen(func(n int) error { return expect(n == perPage, "commits deep page: %d", n) }),
		},
		{
			name: fmt.Sprintf("compare_%d_commits", benchCompareDistance),
			api:  fmt.Sprintf("/compare?from=%s&to=%s", from, head),
			// The API lists the commits and diffs from the merge base at once; so does this.
			git: func(_ int, w io.Writer) error {
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
			git: func(_ int, w io.Writer) error {
				_, err := rawGit(path, w, "archive", "--format=tar.gz", archivePrefix, head)
				return err
			},
			check: func(body []byte) error {
				return expect(len(body) > 1<<20 && body[0] == 0x1f && body[1] == 0x8b, "archive: %d bytes", len(body))
			},
		},
		{
			// A bare clone over smart HTTP against a local clone of the maintained copy
			// (--no-local: upload-pack and pack-objects, as over the network); the client side
			// (index-pack) is in both.
			name:    "clone",
			apiRun:  func(int) error { return clone(cloneURL) },
			git:     func(int, io.Writer) error { return clone(path, "--no-local") },
			samples: 5,
		},
		{
			name:    "clone_4_at_once",
			apiRun:  func(int) error { return parallel(4, func() error { return clone(cloneURL) }) },
			git:     func(int, io.Writer) error { return parallel(4, func() error { return clone(path, "--no-local") }) },
			samples: 3,
		},
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}
	for _, op := range ops {
		// The counters outlive the runs of the sub-benchmark (testing runs it again with a
		// larger b.N), so that a first-request operation never repeats a request.
		apiCalls, gitCalls := 0, 0
		b.Run(op.name, func(b *testing.B) {
			urlAt := func(i int) string {
				if op.apiAt != nil {
					return base + op.apiAt(i)
				}
				return base + op.api
			}
			api := func(i int) error {
				if op.apiRun != nil {
					return op.apiRun(i)
				}
				return apiGet(client, urlAt(i), token, io.Discard)
			}
			// Warm the connection, the cat-file processes and the page cache, and check the
			// answer is the listing it should be (call 0; the timed calls count from 1).
			if op.apiRun == nil {
				var body bytes.Buffer
				if err := apiGet(client, urlAt(0), token, &body); err != nil {
					b.Fatal(err)
				}
				if op.check != nil {
					if err := op.check(body.Bytes()); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := op.git(0, io.Discard); err != nil {
				b.Fatal(err)
			}
			measurePair(b, op.samples,
				func() error { apiCalls++; return api(apiCalls) },
				func() error { gitCalls++; return op.git(gitCalls, io.Discard) })
		})
	}
}

// measurePair times api and git alternately (swapping which goes first each round, so neither
// profits from the other's warm caches more often) at least ANVIL_BENCH_SAMPLES times (or
// samples, when set) and reports their medians and the median ratio of a pair.
func measurePair(b *testing.B, samples int, api, git func() error) {
	minSamples := 10
	if s, err := strconv.Atoi(os.Getenv("ANVIL_BENCH_SAMPLES")); err == nil && s > 0 {
		minSamples = s
	}
	if samples > 0 {
		minSamples = samples
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
