// Package version names Anvil's own version and the GitLab API version it speaks.
package version

// Anvil is Anvil's release, set at build time with -ldflags "-X anvil/internal/version.Anvil=...".
var Anvil = "0.1.0-dev"

// Revision is the source revision, set at build time.
var Revision = "unknown"

// GitLab is the GitLab release whose REST API v4 Anvil reproduces. Clients gate features on it,
// so it is a real GitLab version string; "-ee" because every tier's features are on.
const GitLab = "18.6.0-ee"
