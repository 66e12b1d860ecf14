package git

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// headFromFile reads the default branch from the HEAD file of the files ref backend, which
// holds "ref: refs/heads/<branch>\n": every repository endpoint without a ref asks for HEAD,
// and this spares it a git process. ok is false when the file says anything else (a detached
// HEAD, a reftable repository's placeholder "refs/heads/.invalid", an unreadable file), for
// git itself to answer.
func (r *Repository) headFromFile() (branch string, ok bool) {
	data, err := os.ReadFile(filepath.Join(r.Path(), "HEAD"))
	if err != nil || len(data) > 1024 {
		return "", false
	}
	target, found := bytes.CutPrefix(bytes.TrimRight(data, "\n"), []byte("ref: "))
	if !found {
		return "", false
	}
	ref := string(target)
	branch, found = strings.CutPrefix(ref, BranchPrefix)
	if !found || ValidateRefName(ref) != nil || ValidateBranchName(branch) != nil {
		return "", false
	}
	return branch, true
}
