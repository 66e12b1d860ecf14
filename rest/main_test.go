package rest_test

import (
	"os"
	"testing"

	"anvil/internal/gitserver"
)

// TestMain lets the test binary serve as git's receive-pack hooks, so the benchmarks can push
// into the server they start.
func TestMain(m *testing.M) {
	gitserver.RunHookIfRequested()
	os.Exit(m.Run())
}
