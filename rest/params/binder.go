package params

import (
	"mime/multipart"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"anvil/internal/apperr"
)

// Binder reads typed parameters from a tree and collects the errors, so a handler can read all
// its parameters and check once. Every reader returns nil when the parameter is absent.
type Binder struct {
	tree    Tree
	files   Files
	errs    []string
	missing []string
	// prefix names a nested binder's hash (Nested): its parameters are prefix[name]; its
	// problems are collected by the binder that made it (children, in order).
	prefix   string
	children []*Binder
}

// NewBinder returns a binder over a parsed tree.
func NewBinder(t Tree, f Files) *Binder { return &Binder{tree: t, files: f} }

// Tree returns the raw tree.
func (b *Binder) Tree() Tree { return b.tree }

// Has reports whether the parameter was given (JSON null counts as not given).
func (b *Binder) Has(name string) bool {
	v, ok := b.tree[name]
	return ok && v != nil
}

// Err returns the first problem as GitLab reports it: missing parameters first, joined by ", ".
func (b *Binder) Err() error {
	missing, errs := b.problems()
	if len(missing) > 0 {
		return apperr.BadParam(strings.Join(missing, ", "))
	}
	if len(errs) > 0 {
		return apperr.BadParam(strings.Join(errs, ", "))
	}
	return nil
}

// problems are the binder's missing parameters and other errors, its nested binders' included.
func (b *Binder) problems() (missing, errs []string) {
	missing, errs = append(missing, b.missing...), append(errs, b.errs...)
	for _, c := range b.children {
		m, e := c.problems()
		missing, errs = append(missing, m...), append(errs, e...)
	}
	return missing, errs
}

// Nested returns a binder over the hash parameter name (name[key]=v, or a JSON object), whose
// problems name their parameters as Grape does (name[key] is missing) and are reported by b's
// Err. Nil when name is absent; a value that is not a hash is invalid.
func (b *Binder) Nested(name string) *Binder {
	v, ok := b.tree[name]
	if !ok || v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		b.invalid(name)
		return nil
	}
	c := &Binder{tree: Tree(m), prefix: b.qualify(name)}
	b.children = append(b.children, c)
	return c
}

// qualify is the name of parameter name as reported: prefix[name] in a nested binder.
func (b *Binder) qualify(name string) string {
	if b.prefix == "" {
		return name
	}
	return b.prefix + "[" + name + "]"
}

func (b *Binder) invalid(name string) { b.errs = append(b.errs, b.qualify(name)+" is invalid") }

// Fail records a custom error message for a parameter.
func (b *Binder) Fail(msg string) { b.errs = append(b.errs, msg) }

// Require records "<name> is missing" for each absent parameter.
func (b *Binder) Require(names ...string) {
	for _, n := range names {
		if !b.Has(n) {
			b.missing = append(b.missing, b.qualify(n)+" is missing")
		}
	}
}

// RequireOne records an error unless at least one of names is given.
func (b *Binder) RequireOne(names ...string) {
	for _, n := range names {
		if b.Has(n) {
			return
		}
	}
	b.missing = append(b.missing, strings.Join(names, ", ")+" are missing, at least one parameter must be provided")
}

// RequireOneKey is RequireOne as Grape's at_least_one_of counts: a key sent with JSON null is
// given (it asks to clear the attribute).
func (b *Binder) RequireOneKey(names ...string) {
	for _, n := range names {
		if _, ok := b.tree[n]; ok {
			return
		}
	}
	b.missing = append(b.missing, strings.Join(names, ", ")+" are missing, at least one parameter must be provided")
}

// ExactlyOneOf records Grape's exactly_one_of errors for the parameters a and c ("a, c are
// mutually exclusive" when both are sent, "a, c are missing, exactly one parameter must be
// provided" when neither is); ok reports exactly one sent, hasA whether it is a. As Grape
// counts them, a key sent with JSON null is sent.
func (b *Binder) ExactlyOneOf(a, c string) (hasA, ok bool) {
	_, hasA = b.tree[a]
	_, hasC := b.tree[c]
	switch {
	case hasA && hasC:
		b.Fail(a + ", " + c + " are mutually exclusive")
	case !hasA && !hasC:
		b.Fail(a + ", " + c + " are missing, exactly one parameter must be provided")
	}
	return hasA, hasA != hasC
}

// String reads a string. Arrays and hashes, and text that is not valid UTF-8, are invalid.
func (b *Binder) String(name string) *string {
	v, ok := b.tree[name]
	if !ok || v == nil {
		return nil
	}
	s, ok := scalarString(v)
	if !ok || !validText(s) {
		b.invalid(name)
		return nil
	}
	return &s
}

// validText reports whether s can be stored and compared as text: valid UTF-8 without NUL
// bytes (PostgreSQL rejects both, so they must fail here as a parameter error, not later as a
// database error).
func validText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// StringDefault reads a string or returns def.
func (b *Binder) StringDefault(name, def string) string {
	if s := b.String(name); s != nil {
		return *s
	}
	return def
}

// Enum reads a string that must be one of values: "<name> does not have a valid value".
func (b *Binder) Enum(name string, values ...string) *string {
	s := b.String(name)
	if s == nil {
		return nil
	}
	for _, v := range values {
		if *s == v {
			return s
		}
	}
	b.errs = append(b.errs, b.qualify(name)+" does not have a valid value")
	return nil
}

// Int reads a base-10 integer.
func (b *Binder) Int(name string) *int {
	s := b.String(name)
	if s == nil {
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(*s))
	if err != nil {
		b.invalid(name)
		return nil
	}
	return &n
}

// Bool reads a boolean with Grape's coercion (1/0, true/false, yes/no, on/off, t/f, y/n in any
// common case).
func (b *Binder) Bool(name string) *bool {
	v, ok := b.tree[name]
	if !ok || v == nil {
		return nil
	}
	if x, ok := v.(bool); ok {
		return &x
	}
	s, ok := v.(string)
	if !ok {
		b.invalid(name)
		return nil
	}
	switch s {
	case "1", "on", "On", "ON", "t", "true", "True", "TRUE", "T", "y", "yes", "Yes", "YES", "Y":
		t := true
		return &t
	case "0", "off", "Off", "OFF", "f", "false", "False", "FALSE", "F", "n", "no", "No", "NO", "N":
		f := false
		return &f
	}
	b.invalid(name)
	return nil
}

// BoolDefault reads a boolean or returns def.
func (b *Binder) BoolDefault(name string, def bool) bool {
	if v := b.Bool(name); v != nil {
		return *v
	}
	return def
}

var dateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Time reads an ISO 8601 datetime (with Z or an offset) or a date (midnight UTC).
func (b *Binder) Time(name string) *time.Time {
	s := b.String(name)
	if s == nil {
		return nil
	}
	t, ok := ParseTime(*s)
	if !ok {
		b.invalid(name)
		return nil
	}
	return &t
}

// ParseTime parses GitLab's datetime forms.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	// ISO 8601 with a "T" or, as Python's str(datetime) writes it (python-gitlab sends datetime
	// parameters that way), a space; without a zone the time is UTC, as Ruby's DateTime.parse
	// reads it.
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04:05 MST", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	if dateRe.MatchString(s) {
		if t, err := time.Parse("2006-01-02", s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// Date reads a YYYY-MM-DD date (a full datetime is accepted and cut to its date).
func (b *Binder) Date(name string) *time.Time {
	s := b.String(name)
	if s == nil {
		return nil
	}
	if *s == "" {
		return nil
	}
	if t, err := time.Parse("2006-01-02", strings.TrimSpace(*s)); err == nil {
		return &t
	}
	if t, ok := ParseTime(*s); ok {
		d := t.Truncate(24 * time.Hour)
		return &d
	}
	b.invalid(name)
	return nil
}

// Strings reads an array of strings: name[]=a&name[]=b, a JSON array, or a comma-separated
// string ("a,b"), as GitLab's comma-splitting array types accept.
func (b *Binder) Strings(name string) []string {
	v, ok := b.tree[name]
	if !ok || v == nil {
		return nil
	}
	var out []string
	switch x := v.(type) {
	case []any:
		out = make([]string, 0, len(x))
		for _, e := range x {
			s, ok := scalarString(e)
			if !ok || !validText(s) {
				b.invalid(name)
				return nil
			}
			out = append(out, s)
		}
	case string:
		if !validText(x) {
			b.invalid(name)
			return nil
		}
		if x == "" {
			return []string{}
		}
		for _, part := range strings.Split(x, ",") {
			out = append(out, strings.TrimSpace(part))
		}
	default:
		b.invalid(name)
		return nil
	}
	return out
}

// Ints reads an array of integers in any of the array forms.
func (b *Binder) Ints(name string) []int {
	ss := b.Strings(name)
	if ss == nil {
		return nil
	}
	out := make([]int, 0, len(ss))
	for _, s := range ss {
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			b.invalid(name)
			return nil
		}
		out = append(out, n)
	}
	return out
}

// Hash reads name[key]=value pairs (or a JSON object of scalars).
func (b *Binder) Hash(name string) map[string]string {
	v, ok := b.tree[name]
	if !ok || v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		b.invalid(name)
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := scalarString(e)
		if !ok || !validText(s) || !validText(k) {
			b.invalid(name)
			return nil
		}
		out[k] = s
	}
	return out
}

// Objects reads an array of hashes: name[][key]=v groups, name[0][key]=v, or a JSON array of
// objects. Indexed form-encoded groups are returned in index order.
func (b *Binder) Objects(name string) []map[string]any {
	v, ok := b.tree[name]
	if !ok || v == nil {
		return nil
	}
	switch x := v.(type) {
	case []any:
		out := make([]map[string]any, 0, len(x))
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				b.invalid(name)
				return nil
			}
			out = append(out, m)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if _, err := strconv.Atoi(k); err != nil {
				b.invalid(name)
				return nil
			}
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			a, _ := strconv.Atoi(keys[i])
			c, _ := strconv.Atoi(keys[j])
			return a < c
		})
		out := make([]map[string]any, 0, len(keys))
		for _, k := range keys {
			m, ok := x[k].(map[string]any)
			if !ok {
				b.invalid(name)
				return nil
			}
			out = append(out, m)
		}
		return out
	}
	b.invalid(name)
	return nil
}

// File returns an uploaded multipart file.
func (b *Binder) File(name string) *multipart.FileHeader {
	if b.files == nil {
		return nil
	}
	return b.files[name]
}

// Wildcard is a filter value that may be the literal None or Any.
type Wildcard struct {
	None, Any bool
	Value     string
}

// Filter reads a filter parameter that accepts the literal values None and Any.
func (b *Binder) Filter(name string) *Wildcard {
	s := b.String(name)
	if s == nil {
		return nil
	}
	switch strings.ToLower(*s) {
	case "none":
		return &Wildcard{None: true}
	case "any":
		return &Wildcard{Any: true}
	}
	return &Wildcard{Value: *s}
}
