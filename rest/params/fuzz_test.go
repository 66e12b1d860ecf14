package params

import (
	"testing"
)

// FuzzParseQuery feeds arbitrary query strings through the parser and every typed reader: none
// may panic, and each either yields a value or records a parameter error.
func FuzzParseQuery(f *testing.F) {
	for _, seed := range []string{
		"page=2&per_page=abc",
		"labels[]=a&labels[]=b",
		"variables[][key]=A&variables[][value]=1&variables[][key]=B",
		"custom_attributes[k]=v&x[0][a]=1&x[1][a]=2",
		"a[b][c][]=1&a[b][d]=%ff",
		"created_after=2020-01-01T00:00:00%2B05:30&active=yes",
		"a[=1&]=2&[]=3&a[]b=4",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tree, err := ParseQuery(raw)
		if err != nil {
			return
		}
		b := NewBinder(tree, nil)
		for name := range tree {
			b.String(name)
			b.Int(name)
			b.Bool(name)
			b.Time(name)
			b.Date(name)
			b.Strings(name)
			b.Ints(name)
			b.Hash(name)
			b.Objects(name)
			b.Filter(name)
		}
		_ = b.Err()
	})
}
