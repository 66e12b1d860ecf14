package users

import "testing"

func TestWeakPassword(t *testing.T) {
	for _, tc := range []struct {
		pw, name, username, email string
		weak                      bool
	}{
		{"Kw9-tallow-Rz4q", "Alice Smith", "alice", "alice@example.com", false},
		{"PASSWORD123", "A", "a", "a@example.com", true},                                                           // common, any case
		{"my-devops-Q7x", "A", "a", "a@example.com", true},                                                         // predictable word
		{"Q7x-smith-zz", "Alice Smith", "as", "as@example.com", true},                                              // a part of the name
		{"Q7x-alice.sm-zz", "A", "alice.sm", "a@example.com", true},                                                // the whole username
		{"Q7x-alice-zz", "A", "alice.sm", "a@example.com", false},                                                  // username parts are not checked
		{"Q7x-ops-zz", "Ops", "o", "o@example.com", false},                                                         // parts under 4 characters
		{"Q7x-kestrel-zz", "A", "a", "kestrel.w@example.com", true},                                                // a part of the email's local part
		{"alice-0123456789012345678901234567890123456789012345678901234567", "A", "alice", "a@example.com", false}, // 64+ characters are not checked
	} {
		if got := WeakPassword(tc.pw, tc.name, tc.username, tc.email); got != tc.weak {
			t.Errorf("WeakPassword(%q, %q, %q, %q) = %v, want %v", tc.pw, tc.name, tc.username, tc.email, got, tc.weak)
		}
	}
}
