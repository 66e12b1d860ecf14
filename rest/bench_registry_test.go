package rest_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/registry"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// BenchmarkRegistry pushes and pulls a 200 MB image (four 50 MB layers of random bytes, so
// nothing compresses) with crane through Anvil — gin, the token service at /jwt/auth, the
// registry authorizing every request by its bearer token, notifications recording the
// repository — and through the same registry code run bare on its own HTTP server with no
// authentication, alternating which goes first. Each sample pushes a fresh image (new blobs)
// to a new repository, then pulls it back (three times) reading every layer. It reports the medians in ms
// and the Anvil/bare ratios, the median of the pairs' ratios (target ≤ 1.1).
//
// Knobs: ANVIL_BENCH_REGISTRY_SAMPLES (pairs per run, default 3), ANVIL_BENCH_REGISTRY_MB
// (image size, default 200), ANVIL_BENCH_REGISTRY_PULLS (pulls per sample, averaged: a pull
// is shorter than a push and noisier on a busy machine; default 3).
func BenchmarkRegistry(b *testing.B) {
	samples := envInt("ANVIL_BENCH_REGISTRY_SAMPLES", 3)
	mb := envInt("ANVIL_BENCH_REGISTRY_MB", 200)
	pullsPerSample := envInt("ANVIL_BENCH_REGISTRY_PULLS", 3)

	in := servertest.Start(b)
	alice, tok := in.NewUser(b, "alice")
	in.NewProject(b, in.PersonalNamespace(b, alice), "bench", "private")
	anvilHost := strings.TrimPrefix(in.URL, "http://")
	anvilOpts := []crane.Option{crane.Insecure, crane.WithAuth(authn.FromConfig(authn.AuthConfig{Username: "alice", Password: tok}))}

	dir := b.TempDir()
	bare, err := registry.New(context.Background(), registry.Config{
		Dir: filepath.Join(dir, "secrets"), BlobStorageURL: "file://" + filepath.Join(dir, "blobs"),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer bare.Close()
	bareSrv := httptest.NewServer(bare)
	defer bareSrv.Close()
	bareHost := strings.TrimPrefix(bareSrv.URL, "http://")
	bareOpts := []crane.Option{crane.Insecure}

	var pushA, pullA, pushB, pullB []time.Duration
	n := 0
	for b.Loop() {
		for range samples {
			n++
			imgA, imgB := benchImage(b, mb), benchImage(b, mb)
			run := func(host string, opts []crane.Option, img v1.Image, pushes, pulls *[]time.Duration) {
				ref := fmt.Sprintf("%s/alice/bench/s%d:v1", host, n)
				start := time.Now()
				if err := crane.Push(img, ref, opts...); err != nil {
					b.Fatal(err)
				}
				*pushes = append(*pushes, time.Since(start))
				start = time.Now()
				for range pullsPerSample {
					pullAll(b, ref, opts)
				}
				*pulls = append(*pulls, time.Since(start)/time.Duration(pullsPerSample))
			}
			if n%2 == 0 {
				run(anvilHost, anvilOpts, imgA, &pushA, &pullA)
				run(bareHost, bareOpts, imgB, &pushB, &pullB)
			} else {
				run(bareHost, bareOpts, imgB, &pushB, &pullB)
				run(anvilHost, anvilOpts, imgA, &pushA, &pullA)
			}
		}
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(ms(median(pushA)), "anvil-push-ms")
	b.ReportMetric(ms(median(pushB)), "bare-push-ms")
	b.ReportMetric(ms(median(pullA)), "anvil-pull-ms")
	b.ReportMetric(ms(median(pullB)), "bare-pull-ms")
	// Ratios are taken pair by pair (the two runs of a pair are adjacent in time, so a busy
	// machine weighs on both alike), then their median.
	var pushR, pullR, totalR []float64
	for i := range pushA {
		pushR = append(pushR, float64(pushA[i])/float64(pushB[i]))
		pullR = append(pullR, float64(pullA[i])/float64(pullB[i]))
		totalR = append(totalR, float64(pushA[i]+pullA[i])/float64(pushB[i]+pullB[i]))
	}
	b.ReportMetric(median(pushR), "push-ratio")
	b.ReportMetric(median(pullR), "pull-ratio")
	b.ReportMetric(median(totalR), "anvil/bare")
	b.ReportMetric(float64(len(pushA)), "samples")
}

// benchImage is an image of four layers of random bytes, mb MB in all, built in memory.
func benchImage(b *testing.B, mb int) v1.Image {
	b.Helper()
	img := empty.Image
	for range 4 {
		data := make([]byte, mb<<20/4)
		_, _ = rand.Read(data)
		var err error
		img, err = mutate.AppendLayers(img, static.NewLayer(data, types.DockerLayer))
		if err != nil {
			b.Fatal(err)
		}
	}
	return img
}

// pullAll pulls ref and reads every layer (crane verifies each digest as it reads).
func pullAll(b *testing.B, ref string, opts []crane.Option) {
	b.Helper()
	img, err := crane.Pull(ref, opts...)
	if err != nil {
		b.Fatal(err)
	}
	layers, err := img.Layers()
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range layers {
		rc, err := l.Compressed()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, rc); err != nil {
			b.Fatal(err)
		}
		rc.Close()
	}
}

func envInt(key string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(key)); err == nil && n > 0 {
		return n
	}
	return def
}
