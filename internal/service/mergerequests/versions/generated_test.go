package versions

import "testing"

func TestIsGenerated(t *testing.T) {
	rules := parseAttributes("# comment\n*.gen.txt linguist-generated\ndocs/api/** gitlab-generated=true\ngo.sum -linguist-generated\n/top.txt linguist-generated=true\n")
	for p, want := range map[string]bool{
		"a.gen.txt":           true,
		"dir/b.gen.txt":       true,
		"docs/api/x/y.md":     true,
		"docs/other.md":       false,
		"go.sum":              false, // attributes win over the known paths
		"sub/go.sum":          false,
		"top.txt":             true,
		"sub/top.txt":         false,
		"web/app.min.js":      true,
		"package-lock.json":   true,
		"node_modules/x/y.js": true,
		"main.go":             false,
	} {
		if got := isGenerated(rules, p); got != want {
			t.Errorf("%s: got %v, want %v", p, got, want)
		}
	}
}
