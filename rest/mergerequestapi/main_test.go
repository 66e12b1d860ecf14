package mergerequestapi_test

import (
	"os"
	"testing"

	"anvil/internal/gitserver"
)

func TestMain(m *testing.M) {
	gitserver.RunHookIfRequested() // pushes run the test binary as git's pre-receive hook
	os.Exit(m.Run())
}
