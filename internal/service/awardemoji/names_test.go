package awardemoji

import "testing"

// TestNames: GitLab's award names are accepted, unknown ones refused, and the voting aliases
// stored under their names.
func TestNames(t *testing.T) {
	for name, want := range map[string]bool{
		"thumbsup": true, "thumbsdown": true, "8ball": true, "blowfish": true, "rocket": true,
		"tada": true, "thumbsdown_tone1": true, "": false, "no_such_emoji": false, ":smile:": false,
		"THUMBSUP": false,
	} {
		if got := Valid(name); got != want {
			t.Errorf("Valid(%q) = %v, want %v", name, got, want)
		}
	}
	for in, want := range map[string]string{"+1": ThumbsUp, "-1": ThumbsDown, "thumbs_up": ThumbsUp, "smile": "smile"} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
