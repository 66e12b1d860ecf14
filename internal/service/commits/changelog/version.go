package changelog

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// DefaultTagRegex extracts a version from a tag name: semantic versioning with an optional
// leading "v" (GitLab's default tag_regex, RE2 syntax).
const DefaultTagRegex = `^v?(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)` +
	`(?:-(?P<pre>(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))` +
	`?(?:\+(?P<meta>[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`

// semverPattern is GitLab's unbounded semantic version: it matches a version anywhere in a
// string (the version parameter and changelog release headers).
const semverPattern = `(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:\d*[a-zA-Z-][0-9a-zA-Z-]*|[1-9]\d*|0)(?:\.(?:\d*[a-zA-Z-][0-9a-zA-Z-]*|[1-9]\d*|0))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?`

var (
	defaultTagRe = regexp.MustCompile(DefaultTagRegex)
	semverRe     = regexp.MustCompile(semverPattern)
	// releaseHeaderRe finds a release section header in a changelog ("## 1.2.3 (date)").
	releaseHeaderRe = regexp.MustCompile(`^##\s+(` + semverPattern + `)`)
)

// ValidVersion reports whether s contains a semantic version, as GitLab's version parameter
// requires ("1.0.0", "v1.0.0").
func ValidVersion(s string) bool { return semverRe.MatchString(s) }

// versionMatcher extracts comparable versions from strings with a regular expression that
// has the named groups major, minor and patch (and optionally pre and meta).
type versionMatcher struct{ re *regexp.Regexp }

func newVersionMatcher(expr string) (*versionMatcher, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, errorf("The regular expression to use for finding the previous tag for a version is invalid: %s", err.Error())
	}
	return &versionMatcher{re: re}, nil
}

// match returns the version "major.minor.patch[+meta]" of s, whether it is a pre-release, and
// ok false when s does not match or lacks a required group.
func (m *versionMatcher) match(s string) (version string, pre bool, ok bool) {
	sub := m.re.FindStringSubmatchIndex(s)
	if sub == nil {
		return "", false, false
	}
	group := func(name string) (string, bool) {
		i := m.re.SubexpIndex(name)
		if i < 0 || sub[2*i] < 0 {
			return "", false
		}
		return s[sub[2*i]:sub[2*i+1]], true
	}
	major, ok1 := group("major")
	minor, ok2 := group("minor")
	patch, ok3 := group("patch")
	if !ok1 || !ok2 || !ok3 {
		return "", false, false
	}
	version = major + "." + minor + "." + patch
	if meta, ok := group("meta"); ok {
		version += "+" + meta
	}
	_, pre = group("pre")
	return version, pre, true
}

// Tag is a tag name with the commit it points at.
type Tag struct {
	Name   string
	Commit string
}

// PreviousTag returns the tag of the newest stable version older than version (GitLab's
// ChangelogTagFinder): tags are read with tagRegex, pre-releases are skipped. ok is false when
// there is none.
func PreviousTag(version, tagRegex string, tags []Tag) (Tag, bool, error) {
	if strings.TrimSpace(version) == "" {
		return Tag{}, false, errorf("The `version` attribute is required.")
	}
	custom, err := newVersionMatcher(tagRegex)
	if err != nil {
		return Tag{}, false, err
	}
	requested, _, ok := (&versionMatcher{re: defaultTagRe}).match(version)
	if !ok {
		return Tag{}, false, errorf("The requested `version` attribute format is not correct. Use formats such as `1.0.0` or `v1.0.0`.")
	}
	byVersion := map[string]Tag{}
	versions := []string{requested}
	for _, t := range tags {
		v, pre, ok := custom.match(t.Name)
		if !ok || pre {
			continue
		}
		byVersion[v] = t
		versions = append(versions, v)
	}
	sort.SliceStable(versions, func(i, j int) bool { return CompareVersions(versions[i], versions[j]) < 0 })
	for i, v := range versions {
		if v == requested {
			if i == 0 {
				return Tag{}, false, nil
			}
			return byVersion[versions[i-1]], true, nil
		}
	}
	return Tag{}, false, nil
}

// versionToken is one comparable part of a version: a number or a word.
type versionToken struct {
	num    int
	word   string
	isWord bool
}

func tokenize(v string) []versionToken {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V")
	var out []versionToken
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			j := i
			for j < len(v) && v[j] >= '0' && v[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(v[i:j])
			out = append(out, versionToken{num: n})
			i = j
		case isLetter(c):
			j := i
			for j < len(v) && isLetter(v[j]) {
				j++
			}
			out = append(out, versionToken{word: v[i:j], isWord: true})
			i = j
		default:
			i++
		}
	}
	return out
}

// CompareVersions orders version strings as GitLab's VersionSorter does: numbers numerically,
// words (pre-release tags) below numbers and below the end of a version, so "1.0.0-rc1" comes
// before "1.0.0", which comes before "1.0.1".
func CompareVersions(a, b string) int {
	ta, tb := tokenize(a), tokenize(b)
	for i := 0; i < len(ta) || i < len(tb); i++ {
		switch {
		case i >= len(ta):
			if tb[i].isWord {
				return 1
			}
			return -1
		case i >= len(tb):
			if ta[i].isWord {
				return -1
			}
			return 1
		}
		x, y := ta[i], tb[i]
		switch {
		case x.isWord && y.isWord:
			if c := strings.Compare(x.word, y.word); c != 0 {
				return c
			}
		case x.isWord:
			return -1
		case y.isWord:
			return 1
		case x.num != y.num:
			if x.num < y.num {
				return -1
			}
			return 1
		}
	}
	return 0
}
