package httpx

import (
	"sort"
	"strings"
)

// RubyErrors prints model errors as Ruby prints a Hash of them, which some GitLab messages
// embed ("Failed to transfer project {:new_namespace=>[\"...\"]}"): attributes in the given
// order, then the rest alphabetically.
func RubyErrors(fields map[string][]string, order ...string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		for i, o := range order {
			if o == k {
				return i
			}
		}
		return len(order)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if rank(keys[i]) != rank(keys[j]) {
			return rank(keys[i]) < rank(keys[j])
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		msgs := make([]string, len(fields[k]))
		for j, m := range fields[k] {
			msgs[j] = RubyString(m)
		}
		parts[i] = ":" + k + "=>[" + strings.Join(msgs, ", ") + "]"
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// RubyString is Ruby's String#inspect for the messages GitLab produces.
func RubyString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`, "#{", `\#{`)
	return `"` + r.Replace(s) + `"`
}
