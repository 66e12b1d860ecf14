package gitcmd

import (
	"fmt"
	"os"
	"strings"
)

// baseEnv is the whole environment of every git process: nothing is inherited from Anvil's own
// environment except PATH, so a stray GIT_DIR, GIT_INDEX_FILE or GIT_CONFIG_PARAMETERS in the
// server's environment cannot redirect or reconfigure git.
func baseEnv(home string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	return []string{
		// git finds its helpers through its exec path; PATH is only a fallback.
		"PATH=" + path,
		// A private, empty HOME: nothing from the service account's home directory applies.
		"HOME=" + home,
		// Neither /etc/gitconfig nor ~/.gitconfig (or the XDG file) is read: only the
		// repository's own config and the -c pairs of descriptions.go apply.
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		// No system-wide gitattributes either (archive and diff read attributes).
		"GIT_ATTR_NOSYSTEM=1",
		// Never wait for a password on a terminal nobody watches.
		"GIT_TERMINAL_PROMPT=0",
		// refs/replace/* can be pushed; honouring them would make reads disagree with object
		// ids (an API answer about commit X would show replaced content).
		"GIT_NO_REPLACE_OBJECTS=1",
		// Paths come from users: ":(exclude)" or "*" must not be read as pathspec magic.
		"GIT_LITERAL_PATHSPECS=1",
		// Messages we match on are English, and output is not localised.
		"LC_ALL=C",
		// Dates given without a zone are UTC, whatever the host says.
		"TZ=UTC",
	}
}

// allowedEnv are the variables a caller may add to one command.
var allowedEnv = map[string]bool{
	"GIT_AUTHOR_NAME":     true,
	"GIT_AUTHOR_EMAIL":    true,
	"GIT_AUTHOR_DATE":     true,
	"GIT_COMMITTER_NAME":  true,
	"GIT_COMMITTER_EMAIL": true,
	"GIT_COMMITTER_DATE":  true,
	// Protocol v2 negotiation for upload-pack, passed on from the client's Git-Protocol header.
	"GIT_PROTOCOL": true,
	// Quarantine directories for objects received before they are accepted.
	"GIT_OBJECT_DIRECTORY":             true,
	"GIT_ALTERNATE_OBJECT_DIRECTORIES": true,
	"GIT_QUARANTINE_PATH":              true,
}

func checkEnv(key, value string) error {
	if !allowedEnv[key] {
		return fmt.Errorf("%w: environment variable %q not allowed", ErrInvalidArgument, key)
	}
	if strings.ContainsAny(value, "\x00\n") {
		return fmt.Errorf("%w: environment variable %s has a NUL or newline", ErrInvalidArgument, key)
	}
	return nil
}
