package presenter

import (
	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/service/mergerequests/versions"
)

// MergeRequestDiff is GitLab's MergeRequestDiff entity: one diff version (GET .../versions).
type MergeRequestDiff struct {
	ID             int     `json:"id"`
	HeadCommitSha  *string `json:"head_commit_sha"`
	BaseCommitSha  *string `json:"base_commit_sha"`
	StartCommitSha *string `json:"start_commit_sha"`
	CreatedAt      Time    `json:"created_at"`
	MergeRequestID int     `json:"merge_request_id"`
	State          string  `json:"state"`
	RealSize       *string `json:"real_size"`
	PatchIDSha     *string `json:"patch_id_sha"`
}

// MergeRequestDiffFull is GitLab's MergeRequestDiffFull entity: a version with its commits
// and diffs (GET .../versions/:version_id).
type MergeRequestDiffFull struct {
	MergeRequestDiff
	Commits []Commit    `json:"commits"`
	Diffs   []DiffEntry `json:"diffs"`
}

// MergeRequestDiffOf renders one version.
func MergeRequestDiffOf(v *ent.MergeRequestDiff) MergeRequestDiff {
	return MergeRequestDiff{
		ID: v.ID, HeadCommitSha: v.HeadCommitSha, BaseCommitSha: v.BaseCommitSha, StartCommitSha: v.StartCommitSha,
		CreatedAt: Time(v.CreatedAt), MergeRequestID: v.MergeRequestID, State: v.State, RealSize: v.RealSize,
		PatchIDSha: v.PatchIDSha,
	}
}

// MergeRequestDiffs renders a list of versions.
func MergeRequestDiffs(vs []*ent.MergeRequestDiff) []MergeRequestDiff {
	out := make([]MergeRequestDiff, len(vs))
	for i, v := range vs {
		out[i] = MergeRequestDiffOf(v)
	}
	return out
}

// MergeRequestDiffFull renders a version with its commits (listed with their trailers, as
// GitLab stores them) and diffs; target is the merge request's project.
func (p *Presenter) MergeRequestDiffFull(target *ent.Project, d *versions.Detail, unidiff bool) MergeRequestDiffFull {
	out := MergeRequestDiffFull{MergeRequestDiff: MergeRequestDiffOf(d.Version), Commits: make([]Commit, len(d.Commits))}
	for i, c := range d.Commits {
		out.Commits[i] = p.Commit(target, c, true)
	}
	out.Diffs = MergeRequestDiffFiles(d.Files, unidiff)
	return out
}

// MergeRequestDiffFiles renders stored diff files as GitLab's Diff entity.
func MergeRequestDiffFiles(files []*ent.MergeRequestDiffFile, unidiff bool) []DiffEntry {
	out := make([]DiffEntry, len(files))
	for i, f := range files {
		out[i] = MergeRequestDiffFile(f, unidiff)
	}
	return out
}

// MergeRequestDiffFile renders one stored diff file; unidiff adds the "---"/"+++" headers.
func MergeRequestDiffFile(f *ent.MergeRequestDiffFile, unidiff bool) DiffEntry {
	status := byte('M')
	switch {
	case f.NewFile:
		status = 'A'
	case f.DeletedFile:
		status = 'D'
	case f.RenamedFile:
		status = 'R'
	}
	e := DiffEntryOf(git.DiffFile{OldPath: f.OldPath, NewPath: f.NewPath, OldMode: f.AMode, NewMode: f.BMode,
		Status: status, Patch: f.Diff, TooLarge: f.TooLarge, Binary: f.Binary}, f.Collapsed, unidiff)
	e.GeneratedFile = f.GeneratedFile
	return e
}
