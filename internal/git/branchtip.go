package git

import (
	"context"
	"errors"
)

// BranchTip returns a branch's commit; ok is false when the branch does not exist, or cannot
// (its name is invalid), so write paths can treat "no such branch" as a value rather than an error.
func (r *Repository) BranchTip(ctx context.Context, name string) (ObjectID, bool, error) {
	if ValidateBranchName(name) != nil {
		return "", false, nil
	}
	b, err := r.Branch(ctx, name)
	if err != nil {
		if errors.Is(err, ErrReferenceNotFound) || errors.Is(err, ErrInvalidRefName) {
			return "", false, nil
		}
		return "", false, err
	}
	return b.Commit.ID, true, nil
}
