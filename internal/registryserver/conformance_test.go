package registryserver_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// conformanceModule is the OCI distribution-spec conformance suite, pinned in go.mod as a tool.
const conformanceModule = "github.com/opencontainers/distribution-spec/conformance"

// TestOCIConformance runs the OCI distribution-spec conformance suite against the embedded
// registry, through Anvil's token service (the suite signs in with a user's token and follows
// the Bearer challenges), and requires every test it runs to pass: pulling, pushing (monolithic,
// chunked, streamed, cross-repository mounts), content discovery (tag lists, referrers) and
// content management (deleting tags, manifests and blobs). The suite is a program of its own,
// configured by environment variables; its report (results.yaml, report.html, junit.xml) is
// kept in the test's temporary directory, or in $ANVIL_CONFORMANCE_RESULTS when set.
func TestOCIConformance(t *testing.T) {
	goBin, err := exec.LookPath("go")
	require.NoError(t, err, "the suite is built with the go command")
	dir := t.TempDir()
	bin := filepath.Join(dir, "conformance")
	build := exec.Command(goBin, "build", "-o", bin, conformanceModule)
	build.Dir = moduleRoot(t)
	out, err := build.CombinedOutput()
	require.NoError(t, err, "build the conformance suite: %s", out)

	in := servertest.Start(t)
	g := in.NewGroup(t, "conformance", "private", nil)
	u, _ := in.NewUser(t, "oci")
	for _, p := range []string{"repo1", "repo2"} {
		in.AddProjectMember(t, in.NewProject(t, g, p, "private"), u, 40)
	}
	results := os.Getenv("ANVIL_CONFORMANCE_RESULTS")
	if results == "" {
		results = filepath.Join(dir, "results")
	}
	// Every setting comes from the environment; the suite still wants a configuration file.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "oci-conformance.yaml"), []byte("{}\n"), 0o600))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, bin)
	run.Dir = dir
	run.Env = append(os.Environ(),
		"OCI_REGISTRY="+strings.TrimPrefix(in.URL, "http://"),
		"OCI_TLS=disabled",
		"OCI_REPO1=conformance/repo1",
		"OCI_REPO2=conformance/repo2",
		"OCI_USERNAME=oci",
		"OCI_PASSWORD="+in.NewToken(t, u.ID, "api"),
		"OCI_VERSION=1.1",
		"OCI_RESULTS_DIR="+results,
		"OCI_LOG=error",
		// distribution v3.1.2 stores sha256 content only (sha512 is optional in the spec).
		"OCI_DATA_SHA512=false",
		"OCI_CONFIGURATION="+filepath.Join(dir, "oci-conformance.yaml"),
	)
	var stdout bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stdout
	runErr := run.Run()
	report := stdout.String()
	raw, err := os.ReadFile(filepath.Join(results, "results.yaml"))
	require.NoError(t, err, "the suite wrote no results: %v\n%s", runErr, report)
	var res struct {
		APIs map[string]string `yaml:"apis"`
		Data map[string]string `yaml:"data"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &res))
	t.Logf("conformance summary:\n%s", summary(report))
	require.NoError(t, runErr, "the suite reported failures:\n%s", report)
	// The spec's four areas, API by API: pull, push, content discovery, content management.
	for _, api := range []string{
		"Ping", "Manifest get by digest", "Manifest get by tag", "Manifest head by digest", "Manifest head by tag",
		"Blob get", "Blob get range", "Blob head",
		"Blob push", "Blob post put", "Blob chunked", "Blob streaming", "Blob mount",
		"Manifest put by digest", "Manifest put by tag", "Manifest put with subject",
		"Tag listing", "Referrers",
		"Tag delete", "Tag delete atomic", "Manifest delete", "Manifest delete atomic", "Blob delete", "Blob delete atomic",
	} {
		require.Equal(t, "Pass", res.APIs[api], "API %q", api)
	}
	for name, status := range res.Data {
		require.Contains(t, []string{"Pass", "Disabled"}, status, "data %q", name)
	}
	require.Equal(t, "Pass", res.Data["Blobs sha256"])
}

// summary keeps the suite's report lines that name a whole group.
func summary(report string) string {
	var keep []string
	for _, l := range strings.Split(report, "\n") {
		if strings.Count(strings.TrimLeft(l, " "), "/") <= 1 && strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// moduleRoot is the directory of go.mod.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "go.mod not found")
		dir = parent
	}
}
