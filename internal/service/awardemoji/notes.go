package awardemoji

import "anvil/internal/service/notes"

// IssueNotes is the resolver of the notes on a project's issues (Ref: the project, the issue's
// iid, the note's id): a note the actor reads (internal notes for those who read them), which
// those who may comment on the issue may award; system notes take no awards, as in GitLab.
func IssueNotes(s *notes.Service) Resolver { return NotesOn(s, notes.TypeIssue) }

// MergeRequestNotes is the resolver of the notes on a project's merge requests (Ref: the
// project, the merge request's iid, the note's id), with IssueNotes' rules.
func MergeRequestNotes(s *notes.Service) Resolver { return NotesOn(s, notes.TypeMergeRequest) }
