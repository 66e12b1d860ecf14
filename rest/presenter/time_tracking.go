package presenter

import "anvil/internal/service/timetracking"

// TimeStats renders an issuable's estimate and total spent time (seconds) with their human
// forms, in hours only when the instance limits time tracking units to hours.
func (p *Presenter) TimeStats(estimate, total int) TimeStats {
	hours := false
	if (estimate != 0 || total != 0) && p.HoursOnly != nil {
		hours = p.HoursOnly()
	}
	return TimeStats{
		TimeEstimate: estimate, TotalTimeSpent: total,
		HumanTimeEstimate:   strPtrOrNil(timetracking.Human(estimate, hours)),
		HumanTotalTimeSpent: strPtrOrNil(timetracking.Human(total, hours)),
	}
}
