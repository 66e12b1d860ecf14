package mergerequests

import (
	"regexp"

	"anvil/ent"
	"anvil/ent/mergerequest"
)

// The stored merge_status values (GitLab's merge_status state machine).
const (
	StatusUnchecked             = "unchecked"
	StatusChecking              = "checking"
	StatusCanBeMerged           = "can_be_merged"
	StatusCannotBeMerged        = "cannot_be_merged"
	StatusCannotBeMergedRecheck = "cannot_be_merged_recheck"
)

// draftPrefix is GitLab's draft title prefix: "Draft:", "[Draft]" or "(Draft)", any case,
// after optional spaces.
var draftPrefix = regexp.MustCompile(`(?i)^\s*(\[draft\]|\(draft\)|draft:)\s*`)

// IsDraft reports whether a title marks its merge request as a draft.
func IsDraft(title string) bool { return draftPrefix.MatchString(title) }

// DraftlessTitle is the title without its draft prefix (GitLab's draftless_title).
func DraftlessTitle(title string) string { return draftPrefix.ReplaceAllString(title, "") }

// PublicMergeStatus is GitLab's public_merge_status: the stored value.
func PublicMergeStatus(mr *ent.MergeRequest) string {
	if mr.MergeStatus == "" {
		return StatusUnchecked
	}
	return mr.MergeStatus
}

// CannotBeMerged is GitLab's cannot_be_merged? (has_conflicts).
func CannotBeMerged(mr *ent.MergeRequest) bool {
	return mr.MergeStatus == StatusCannotBeMerged || mr.MergeStatus == StatusCannotBeMergedRecheck
}

// DetailedMergeStatus is GitLab's detailed_merge_status from what is stored: not_open for a
// closed or merged merge request, then the checks this server keeps (draft, discussion lock,
// conflicts, the mergeability check itself); the merge service refines it with the live
// checks (approvals, pipelines) when it has them.
func DetailedMergeStatus(mr *ent.MergeRequest) string {
	switch {
	case mr.State != mergerequest.StateOpened:
		return "not_open"
	case mr.MergeStatus == StatusUnchecked || mr.MergeStatus == StatusCannotBeMergedRecheck:
		return "unchecked"
	case mr.MergeStatus == StatusChecking:
		return "checking"
	case mr.Draft:
		return "draft_status"
	case CannotBeMerged(mr):
		return "conflict"
	}
	return "mergeable"
}
