package presenter

import (
	"regexp"
	"strconv"
	"strings"
)

// The units of GitLab's human durations (ChronicDuration with weeks, as time tracking
// configures it): a week is 5 days, a day 8 hours.
const (
	secondsPerMinute = 60
	secondsPerHour   = 60 * secondsPerMinute
	secondsPerDay    = 8 * secondsPerHour
	secondsPerWeek   = 5 * secondsPerDay
)

// HumanDuration is GitLab's time tracking format of seconds ("1w 2d 3h 30m", "45s"); nil for
// zero, as time_stats shows null then. A negative duration is shown with a leading "-".
func HumanDuration(seconds int) *string {
	if seconds == 0 {
		return nil
	}
	sign := ""
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	var parts []string
	for _, u := range []struct {
		size   int
		suffix string
	}{{secondsPerWeek, "w"}, {secondsPerDay, "d"}, {secondsPerHour, "h"}, {secondsPerMinute, "m"}, {1, "s"}} {
		if n := seconds / u.size; n > 0 {
			parts = append(parts, strconv.Itoa(n)+u.suffix)
			seconds -= n * u.size
		}
	}
	s := sign + strings.Join(parts, " ")
	return &s
}

// TimeStatsOf renders an estimate and a total spent in seconds.
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
