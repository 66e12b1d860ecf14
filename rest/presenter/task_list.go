package presenter

import "regexp"

// taskItem matches a Markdown task list item: a bullet or number, then [ ], [x] or [~]
// (inapplicable, counted but never complete) followed by a space or the line's end.
var taskItem = regexp.MustCompile(`(?m)^[ \t]*(?:[-+*]|\d+[.)])[ \t]+\[([ xX~])\](?:[ \t]|$)`)

// TaskCompletionOf counts the task list items of a description, as GitLab's
// task_completion_status does.
func TaskCompletionOf(description *string) TaskCompletion {
	if description == nil {
		return TaskCompletion{}
	}
	var out TaskCompletion
	for _, m := range taskItem.FindAllStringSubmatch(*description, -1) {
		if m[1] == "~" {
			continue
		}
		out.Count++
		if m[1] == "x" || m[1] == "X" {
			out.CompletedCount++
		}
	}
	return out
}
