package notes

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/issues"
)

// IssueObserver writes the system notes of issue changes in the change's transaction, in
// GitLab's words (SystemNotes::IssuablesService): assignees, title, description,
// confidentiality, discussion lock and due date, and "mentioned in issue #M" on the issues its
// description references. State, label and milestone changes are resource events, not notes.
// When an issue is destroyed its notes go with it.
type IssueObserver struct{ notes *Service }

// NewIssueObserver returns the observer that writes issues' system notes.
func NewIssueObserver(s *Service) IssueObserver { return IssueObserver{notes: s} }

// IssueChanged writes the system notes of one issue change.
func (o IssueObserver) IssueChanged(ctx context.Context, actor *authz.Actor, ch issues.Change) error {
	if ch.Action == "destroyed" {
		return o.notes.DeleteFor(ctx, &Target{Type: TypeIssue, ID: ch.Before.ID})
	}
	if ch.After == nil {
		return nil
	}
	if !ch.After.Confidential && (ch.Before == nil || str(ch.Before.Description) != str(ch.After.Description)) {
		src := refSource{typ: TypeIssue, iid: ch.After.Iid, projectID: ch.After.ProjectID}
		if err := o.notes.crossReference(ctx, actor, src, str(ch.After.Description)); err != nil {
			return err
		}
	}
	if ch.Before == nil {
		return nil // created: GitLab writes no system note for the issue's own creation
	}
	t := IssueTarget(actor, authz.NoAccess, ch.After)
	var author *int
	if !actor.IsAnonymous() {
		id := actor.UserID()
		author = &id
	}
	for _, body := range issueChanges(ch.Before, ch.After) {
		if err := o.notes.AddSystem(ctx, t, author, body); err != nil {
			return err
		}
	}
	return nil
}

// issueChanges are the system note bodies of the change from before to after, in GitLab's order.
func issueChanges(before, after *ent.Issue) []string {
	var out []string
	if before.Title != after.Title {
		out = append(out, TitleChange(before.Title, after.Title))
	}
	if str(before.Description) != str(after.Description) {
		out = append(out, "changed the description")
	}
	if before.Confidential != after.Confidential {
		if after.Confidential {
			out = append(out, "made the issue confidential")
		} else {
			out = append(out, "made the issue visible to everyone")
		}
	}
	if locked(before) != locked(after) {
		if locked(after) {
			out = append(out, "locked the discussion in this issue")
		} else {
			out = append(out, "unlocked the discussion in this issue")
		}
	}
	if body := assigneeChange(before, after); body != "" {
		out = append(out, body)
	}
	if body := dueDateChange(before, after); body != "" {
		out = append(out, body)
	}
	return out
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func locked(is *ent.Issue) bool { return is.DiscussionLocked != nil && *is.DiscussionLocked }

// assigneeChange is "assigned to @a and @b and unassigned @c" (either part alone), or "".
func assigneeChange(before, after *ent.Issue) string {
	old, cur := assignees(before), assignees(after)
	var added, removed []string
	for _, u := range cur {
		if !contains(old, u) {
			added = append(added, "@"+u)
		}
	}
	for _, u := range old {
		if !contains(cur, u) {
			removed = append(removed, "@"+u)
		}
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "assigned to "+sentence(added))
	}
	if len(removed) > 0 {
		parts = append(parts, "unassigned "+sentence(removed))
	}
	return strings.Join(parts, " and ")
}

// assignees are the usernames of the issue's assignees, in order.
func assignees(is *ent.Issue) []string {
	var out []string
	for _, a := range is.Edges.AssigneeLinks {
		if u := a.Edges.User; u != nil {
			out = append(out, u.Username)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// sentence joins words as Rails' to_sentence: "a", "a and b", "a, b and c".
func sentence(words []string) string {
	if len(words) <= 2 {
		return strings.Join(words, " and ")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// dueDateChange is "changed due date to November 27, 2026" or "removed due date <old date>".
func dueDateChange(before, after *ent.Issue) string {
	const long = "January 2, 2006"
	switch {
	case after.DueDate != nil && (before.DueDate == nil || !before.DueDate.Equal(*after.DueDate)):
		return "changed due date to " + after.DueDate.UTC().Format(long)
	case after.DueDate == nil && before.DueDate != nil:
		return "removed due date " + before.DueDate.UTC().Format(long)
	}
	return ""
}

// TitleChange is GitLab's title system note: the changed middle of each title marked as an
// inline diff ({-removed-}, {+added+}) between the parts both titles share.
func TitleChange(old, cur string) string {
	o, n := []rune(old), []rune(cur)
	pre := 0
	for pre < len(o) && pre < len(n) && o[pre] == n[pre] {
		pre++
	}
	suf := 0
	for suf < len(o)-pre && suf < len(n)-pre && o[len(o)-1-suf] == n[len(n)-1-suf] {
		suf++
	}
	mark := func(r []rune, open, close string) string {
		mid := string(r[pre : len(r)-suf])
		if mid == "" {
			return string(r)
		}
		return string(r[:pre]) + open + mid + close + string(r[len(r)-suf:])
	}
	return "changed title from **" + mark(o, "{-", "-}") + "** to **" + mark(n, "{+", "+}") + "**"
}
