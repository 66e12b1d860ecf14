package git

import (
	"context"
	"fmt"
	"strings"

	"anvil/internal/git/gitcmd"
)

// RefUpdate is one change of a ref transaction.
type RefUpdate struct {
	// Name is the full ref name ("refs/heads/main").
	Name string
	// NewOID is the new value; ZeroOID deletes the ref.
	NewOID ObjectID
	// OldOID is the value the ref must have for the change to apply: "" checks nothing,
	// ZeroOID requires that the ref does not exist (a create).
	OldOID ObjectID
}

// UpdateRef changes one ref atomically; see RefUpdate for the meaning of the values.
func (r *Repository) UpdateRef(ctx context.Context, name string, newOID, oldOID ObjectID) error {
	return r.UpdateRefs(ctx, RefUpdate{Name: name, NewOID: newOID, OldOID: oldOID})
}

// UpdateRefs applies updates in one transaction (update-ref --stdin with start, prepare,
// commit): all of them or none. Failures:
//   - ErrStaleRef: a ref's current value is not OldOID (also ErrReferenceExists when it was
//     expected not to exist, ErrReferenceNotFound when it was expected to exist);
//   - ErrReferenceExists: the name clashes with an existing ref (refs/heads/a vs refs/heads/a/b);
//   - ErrObjectNotFound: NewOID does not exist;
//   - ErrInvalidRefName, ErrInvalidObjectID: bad input, refused before git runs.
//
// Deleting a ref that does not exist succeeds unless OldOID is given.
func (r *Repository) UpdateRefs(ctx context.Context, updates ...RefUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	var in strings.Builder
	in.WriteString("start\n")
	for _, u := range updates {
		if err := ValidateRefName(u.Name); err != nil {
			return err
		}
		if err := u.NewOID.Validate(); err != nil {
			return err
		}
		if u.OldOID != "" {
			if err := u.OldOID.Validate(); err != nil {
				return err
			}
		}
		if u.NewOID == ZeroOID {
			if u.OldOID == ZeroOID {
				return fmt.Errorf("%w: delete of %q expects it not to exist", ErrInvalidArgument, u.Name)
			}
			fmt.Fprintf(&in, "delete %s", u.Name)
		} else {
			fmt.Fprintf(&in, "update %s %s", u.Name, u.NewOID)
		}
		if u.OldOID != "" {
			fmt.Fprintf(&in, " %s", u.OldOID)
		}
		in.WriteByte('\n')
	}
	in.WriteString("prepare\ncommit\n")
	err := r.run(ctx, gitcmd.New("update-ref", "--stdin"), gitcmd.Stdin(strings.NewReader(in.String())))
	if err == nil {
		return nil
	}
	switch {
	case stderrHas(err, "but expected"):
		return fmt.Errorf("update refs: %w: %w", ErrStaleRef, err)
	case stderrHas(err, "reference already exists"):
		return fmt.Errorf("update refs: %w: %w: %w", ErrStaleRef, ErrReferenceExists, err)
	case stderrHas(err, "unable to resolve reference"):
		return fmt.Errorf("update refs: %w: %w: %w", ErrStaleRef, ErrReferenceNotFound, err)
	case stderrHas(err, ".lock': File exists") && expectsOld(updates):
		// Another writer holds the ref's lock (git waits core.filesRefLockTimeout for it): the
		// ref is moving under us, so the expected old value is as good as stale.
		return fmt.Errorf("update refs: %w: %w", ErrStaleRef, err)
	case stderrHas(err, "exists; cannot create", "at the same time"):
		return fmt.Errorf("update refs: %w: %w", ErrReferenceExists, err)
	case stderrHas(err, "nonexistent object"):
		return fmt.Errorf("update refs: %w: %w", ErrObjectNotFound, err)
	case stderrHas(err, "non-commit object"):
		return fmt.Errorf("update refs: %w: %w", ErrInvalidArgument, err)
	}
	return fmt.Errorf("update refs: %w", err)
}

// expectsOld reports whether any update names the value it expects the ref to have.
func expectsOld(updates []RefUpdate) bool {
	for _, u := range updates {
		if u.OldOID != "" {
			return true
		}
	}
	return false
}
