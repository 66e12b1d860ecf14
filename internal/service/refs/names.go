package refs

import (
	"regexp"
	"strings"

	"anvil/internal/git"
)

// reservedPrefixes are the name starts GitLab's ref validator refuses: a short name that looks
// like a full ref would be ambiguous.
var reservedPrefixes = []string{"refs/heads/", "refs/tags/", "refs/remotes/"}

// ValidBranchName is GitLab's GitRefValidator for branch names: git's check-ref-format rules
// (with Anvil's stricter ones: no component starting with "-", so a name can never be read as
// an option), not "HEAD", and not starting like a full ref name. It runs no process.
func ValidBranchName(name string) bool {
	return validShortName(name) && git.ValidateBranchName(name) == nil
}

// ValidTagName is ValidBranchName for tag names.
func ValidTagName(name string) bool {
	return validShortName(name) && git.ValidateTagName(name) == nil
}

func validShortName(name string) bool {
	if name == "" || name == "HEAD" || strings.HasPrefix(name, "-") {
		return false
	}
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}

// hexBranch is a branch name git could confuse with a commit id.
var hexBranch = regexp.MustCompile(`^[0-9a-fA-F]{40}(/|$)`)

// LooksLikeObjectID reports whether a branch name starts with 40 hexadecimal digits as a whole
// component, which GitLab refuses for new branches.
func LooksLikeObjectID(name string) bool { return hexBranch.MatchString(name) }
