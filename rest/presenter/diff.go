package presenter

import "anvil/internal/git"

// CommitDiff renders the changed files of a commit (GET .../commits/:sha/diff). Commit diffs
// are never collapsed; a file over the patch size limit has an empty diff and too_large.
func CommitDiff(files []git.DiffFile, unidiff bool) []DiffEntry {
	out := make([]DiffEntry, len(files))
	for i, f := range files {
		out[i] = DiffEntryOf(f, false, unidiff)
	}
	return out
}
