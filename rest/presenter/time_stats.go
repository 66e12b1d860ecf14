package presenter

import (
	"regexp"

	"anvil/internal/service/timetracking"
)

// HumanDuration is GitLab's time tracking format of seconds ("1w 2d 3h 30m", "45s"); nil for
// zero, as time_stats shows null then (timetracking.Human, without the hours-only setting:
// presenters use Presenter.TimeStats, which honours it).
func HumanDuration(seconds int) *string { return strPtrOrNil(timetracking.Human(seconds, false)) }

// TimeStatsOf renders an estimate and a total spent in seconds, without the hours-only
// setting (Presenter.TimeStats honours it).
func TimeStatsOf(estimate, spent int) TimeStats {
	return TimeStats{TimeEstimate: estimate, TotalTimeSpent: spent,
		HumanTimeEstimate: HumanDuration(estimate), HumanTotalTimeSpent: HumanDuration(spent)}
}

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
