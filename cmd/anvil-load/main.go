// Command anvil-load sends a bounded read load to a running Anvil server on this machine and
// prints latency percentiles and throughput per endpoint. It stops after -duration or -requests,
// whichever comes first, and only targets the -url given (loopback by default).
//
//	anvil-load -url http://127.0.0.1:8080 -token glpat-... -concurrency 8 -duration 20s
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "server base URL (loopback only)")
	token := flag.String("token", os.Getenv("ANVIL_TOKEN"), "personal access token")
	concurrency := flag.Int("concurrency", 8, "parallel clients")
	duration := flag.Duration("duration", 20*time.Second, "how long to run")
	maxRequests := flag.Int64("requests", 200000, "upper bound on requests")
	flag.Parse()
	u, err := url.Parse(*base)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		fmt.Fprintln(os.Stderr, "anvil-load: -url must be a loopback address")
		os.Exit(2)
	}
	paths := []string{"/api/v4/projects?per_page=100", "/api/v4/users?per_page=100", "/api/v4/projects/1", "/api/v4/user"}
	type sample struct {
		path string
		d    time.Duration
		ok   bool
	}
	var (
		mu      sync.Mutex
		samples []sample
		sent    atomic.Int64
		wg      sync.WaitGroup
	)
	deadline := time.Now().Add(*duration)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: *concurrency}}
	start := time.Now()
	for w := 0; w < *concurrency; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; time.Now().Before(deadline) && sent.Add(1) <= *maxRequests; i++ {
				p := paths[i%len(paths)]
				req, _ := http.NewRequest("GET", *base+p, nil)
				req.Header.Set("PRIVATE-TOKEN", *token)
				t := time.Now()
				resp, err := client.Do(req)
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				mu.Lock()
				samples = append(samples, sample{p, time.Since(t), ok})
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	byPath := map[string][]time.Duration{}
	failed := 0
	for _, s := range samples {
		byPath[s.path] = append(byPath[s.path], s.d)
		if !s.ok {
			failed++
		}
	}
	fmt.Printf("%d requests in %s (%.0f req/s), %d failed\n", len(samples), elapsed.Round(time.Millisecond), float64(len(samples))/elapsed.Seconds(), failed)
	for _, p := range paths {
		ds := byPath[p]
		if len(ds) == 0 {
			continue
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		pct := func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))] }
		fmt.Printf("%-40s n=%-7d p50=%-10s p90=%-10s p99=%s\n", p, len(ds), pct(.5), pct(.9), pct(.99))
	}
}
