package git

import (
	"anvil/internal/git/catfile"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Ref name prefixes.
const (
	BranchPrefix = "refs/heads/"
	TagPrefix    = "refs/tags/"
)

// maxRefNameLength bounds ref names; git has no limit, file systems do (255 bytes per component).
const maxRefNameLength = 1024

// ValidateRefName checks a full ref name ("refs/heads/main") with git's check-ref-format rules
// plus Anvil's: it must start with "refs/", be valid UTF-8, at most 1024 bytes, and no
// component may start with "-".
func ValidateRefName(name string) error {
	if err := checkRefFormat(name); err != nil {
		return fmt.Errorf("%w: %q: %s", ErrInvalidRefName, name, err.Error())
	}
	if !strings.HasPrefix(name, "refs/") {
		return fmt.Errorf("%w: %q: must start with refs/", ErrInvalidRefName, name)
	}
	return nil
}

// ValidateBranchName checks a short branch name ("main", "feature/x") as git check-ref-format
// --branch does, also refusing "HEAD" and names starting with "-".
func ValidateBranchName(name string) error {
	if name == "HEAD" {
		return fmt.Errorf("%w: %q", ErrInvalidRefName, name)
	}
	return ValidateRefName(BranchPrefix + name)
}

// ValidateTagName checks a short tag name ("v1.0").
func ValidateTagName(name string) error { return ValidateRefName(TagPrefix + name) }

// BranchRef returns the full ref of a branch.
func BranchRef(name string) string { return BranchPrefix + name }

// TagRef returns the full ref of a tag.
func TagRef(name string) string { return TagPrefix + name }

// refFormatError is the short reason a name breaks a rule.
type refFormatError string

func (e refFormatError) Error() string { return string(e) }

// checkRefFormat applies the rules of git-check-ref-format(1) to a name with at least two
// components, returning a short reason on failure.
func checkRefFormat(name string) error {
	switch {
	case name == "":
		return refFormatError("empty")
	case len(name) > maxRefNameLength:
		return refFormatError("too long")
	case !utf8.ValidString(name):
		return refFormatError("not valid UTF-8")
	case name == "@":
		return refFormatError("is @")
	case strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/"):
		return refFormatError("starts or ends with /")
	case strings.HasSuffix(name, "."):
		return refFormatError("ends with .")
	case strings.Contains(name, ".."):
		return refFormatError("contains ..")
	case strings.Contains(name, "@{"):
		return refFormatError("contains @{")
	case !strings.Contains(name, "/"):
		return refFormatError("has one level")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c == 0x7f {
			return refFormatError("contains a control character")
		}
		switch c {
		case ' ', '~', '^', ':', '?', '*', '[', '\\':
			return refFormatError(fmt.Sprintf("contains %q", c))
		}
	}
	for _, comp := range strings.Split(name, "/") {
		switch {
		case comp == "":
			return refFormatError("contains //")
		case strings.HasPrefix(comp, "."):
			return refFormatError("a component starts with .")
		case strings.HasSuffix(comp, ".lock"):
			return refFormatError("a component ends with .lock")
		case strings.HasPrefix(comp, "-"):
			return refFormatError("a component starts with -")
		}
	}
	return nil
}

// maxRevisionLength bounds revision expressions from users.
const maxRevisionLength = 4096

// ValidateRevision is the one check of a revision expression from a client ("main",
// "v1.0^{commit}", "a..b", an object id) before git sees it: not empty, not starting with "-"
// (it would read as an option), no control characters, at most 4096 bytes, and none of the
// forms that make git fail outright instead of answering "missing" (which would kill a shared
// cat-file process):
//   - no ":" (a path-scoped revision, "main:../x", as Gitaly refuses it from clients: paths are
//     separate parameters, joined by this package, see ReadBlobAt);
//   - no "@{u}", "@{upstream}" or "@{push}" (a bare repository has no upstreams).
func ValidateRevision(rev string) error {
	switch {
	case rev == "":
		return fmt.Errorf("%w: empty", ErrInvalidRevision)
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("%w: %q starts with -", ErrInvalidRevision, rev)
	case len(rev) > maxRevisionLength:
		return fmt.Errorf("%w: too long", ErrInvalidRevision)
	case strings.Contains(rev, ":"):
		return fmt.Errorf("%w: %q contains ':'", ErrInvalidRevision, rev)
	case catfile.NamesUpstream(rev):
		return fmt.Errorf("%w: %q names an upstream", ErrInvalidRevision, rev)
	}
	for i := 0; i < len(rev); i++ {
		if c := rev[i]; c < 0x20 || c == 0x7f {
			return fmt.Errorf("%w: %q has a control character", ErrInvalidRevision, rev)
		}
	}
	return nil
}
