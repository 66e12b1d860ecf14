package versions

import (
	"path"
	"regexp"
	"strings"
)

// Generated files are collapsed by GitLab's diff views and flagged generated_file in the API.
// A file is generated when the root .gitattributes of the version's head sets gitlab-generated
// or linguist-generated on it (a later line wins; "-attr" and "attr=false" unset it), or,
// failing any such line, when its path is one of the well-known generated kinds below.
//
// git 2.39 has no "check-attr --source" (2.40+), and a bare repository has no work tree to
// read attributes from, so the root .gitattributes blob is read at the head commit and
// matched here; nested .gitattributes files are not read (GitLab's attributes-at-ref parser
// reads the root file only as well).

// generatedNames are file names (any directory) of lock files and other tool output.
var generatedNames = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"bun.lockb": true, "composer.lock": true, "Gemfile.lock": true, "Cargo.lock": true, "poetry.lock": true,
	"Pipfile.lock": true, "go.sum": true, "Podfile.lock": true, "pubspec.lock": true, "mix.lock": true,
	"flake.lock": true, "gradle.lockfile": true, "packages.lock.json": true, "uv.lock": true,
}

// generatedSuffixes are name endings of minified, compiled or generated sources.
var generatedSuffixes = []string{
	".min.js", ".min.css", ".js.map", ".css.map", ".pb.go", "_pb2.py", "_pb2_grpc.py", ".pb.cc", ".pb.h",
	"_generated.go", ".generated.go", "_string.go", ".designer.cs", ".g.dart", ".freezed.dart",
}

// generatedDirs are directories whose contents are vendored or generated.
var generatedDirs = []string{"node_modules/", "vendor/bundle/", "__generated__/"}

// knownGenerated reports whether p is a well-known generated path.
func knownGenerated(p string) bool {
	base := path.Base(p)
	if generatedNames[base] {
		return true
	}
	for _, s := range generatedSuffixes {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	for _, d := range generatedDirs {
		if strings.HasPrefix(p, d) || strings.Contains(p, "/"+d) {
			return true
		}
	}
	return false
}

// attrRule is one .gitattributes line that says something about generated files.
type attrRule struct {
	re  *regexp.Regexp
	set bool
}

// generatedAttrs are the attributes that mark generated files.
var generatedAttrs = map[string]bool{"gitlab-generated": true, "linguist-generated": true}

// parseAttributes reads the rules of a .gitattributes file about generated files.
func parseAttributes(data string) []attrRule {
	var rules []attrRule
	for _, line := range strings.Split(data, "\n") {
		fields := strings.Fields(strings.TrimSpace(line))
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || strings.HasPrefix(fields[0], "[attr]") {
			continue
		}
		state := 0 // 1 set, -1 unset
		for _, a := range fields[1:] {
			name, value, hasValue := strings.Cut(a, "=")
			neg := strings.HasPrefix(name, "-")
			name = strings.TrimLeft(name, "-!")
			if !generatedAttrs[name] {
				continue
			}
			switch {
			case neg, hasValue && value == "false":
				state = -1
			case strings.HasPrefix(a, "!"):
				state = 0
			default:
				state = 1
			}
		}
		if state == 0 {
			continue
		}
		if re := globRegexp(fields[0]); re != nil {
			rules = append(rules, attrRule{re: re, set: state > 0})
		}
	}
	return rules
}

// globRegexp compiles a gitattributes pattern: without a slash it matches the name in any
// directory; with one it is anchored at the root; "**" spans directories.
func globRegexp(pat string) *regexp.Regexp {
	anchored := strings.Contains(strings.TrimSuffix(pat, "/"), "/")
	pat = strings.TrimPrefix(pat, "/")
	var b strings.Builder
	b.WriteString("^")
	if !anchored {
		b.WriteString("(?:.*/)?")
	}
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case strings.HasPrefix(pat[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(pat[i:], "/**"):
			b.WriteString("/.*")
			i += 2
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(pat[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := pat[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// isGenerated decides one path: the last matching attribute line, else the known paths.
func isGenerated(rules []attrRule, p string) bool {
	for i := len(rules) - 1; i >= 0; i-- {
		if rules[i].re.MatchString(p) {
			return rules[i].set
		}
	}
	return knownGenerated(p)
}
