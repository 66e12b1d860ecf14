package git

import (
	"errors"
	"fmt"
	"strings"

	"anvil/internal/git/gitcmd"
)

// Errors of the git layer. Test with errors.Is; operations wrap them with context.
var (
	// ErrReferenceNotFound: a revision or ref name does not resolve.
	ErrReferenceNotFound = errors.New("reference not found")
	// ErrObjectNotFound: an object (or a path in a tree) does not exist.
	ErrObjectNotFound = errors.New("object not found")
	// ErrPathNotFound: a path does not exist in a tree. It is also an ErrObjectNotFound.
	ErrPathNotFound = fmt.Errorf("path not found: %w", ErrObjectNotFound)
	// ErrConflict: a merge, cherry-pick or revert has conflicts; see *ConflictError.
	ErrConflict = errors.New("merge conflict")
	// ErrEmptyChange: a cherry-pick or revert would not change the tree it applies to.
	ErrEmptyChange = errors.New("change is empty")
	// ErrStaleRef: a ref update's expected old value did not match (someone else moved it).
	ErrStaleRef = errors.New("reference changed concurrently")
	// ErrReferenceExists: a ref to be created exists, or its name clashes with an existing ref
	// (refs/heads/a blocks refs/heads/a/b and the reverse).
	ErrReferenceExists = errors.New("reference already exists")
	// ErrInvalidRefName: a ref name breaks git's check-ref-format rules or Anvil's stricter ones.
	ErrInvalidRefName = errors.New("invalid reference name")
	// ErrInvalidRevision: a revision expression is unusable (empty, starts with "-", has control
	// characters).
	ErrInvalidRevision = errors.New("invalid revision")
	// ErrInvalidObjectID: a string is not a full object id.
	ErrInvalidObjectID = errors.New("invalid object id")
	// ErrInvalidPath: a path is unusable (see ValidatePath).
	ErrInvalidPath = errors.New("invalid path")
	// ErrInvalidArgument: any other refused input (identity, option value).
	ErrInvalidArgument = gitcmd.ErrInvalidArgument
	// ErrUnrelatedHistories: a merge of commits with no common ancestor was not allowed.
	ErrUnrelatedHistories = errors.New("unrelated histories")
	// ErrRepositoryNotFound: the repository directory does not exist or is not a repository.
	ErrRepositoryNotFound = errors.New("repository not found")
	// ErrUnsupported: the operation or format is not available with this git or host.
	ErrUnsupported = errors.New("unsupported")
)

// ConflictError lists the paths a merge could not resolve. errors.Is(err, ErrConflict) holds.
type ConflictError struct {
	// Paths are the conflicted paths, in git's order, without duplicates.
	Paths []string
}

// Error lists the conflicted paths.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("merge conflict in %d path(s): %s", len(e.Paths), strings.Join(e.Paths, ", "))
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// stderrHas reports whether err is a failed git command whose stderr contains one of subs.
func stderrHas(err error, subs ...string) bool {
	s := gitcmd.Stderr(err)
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
