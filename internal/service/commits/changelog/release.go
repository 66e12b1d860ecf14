package changelog

import (
	"regexp"
	"sort"
	"strings"
	"time"
)

// Author is the commit author of an entry when they are a known user.
type Author struct {
	// Reference is "@username".
	Reference string
	// Contributor: the author is not a member of the project.
	Contributor bool
	// Credit: the author is credited (a contributor, or a member of an included group).
	Credit bool
}

// Entry is one commit of a release.
type Entry struct {
	// Title is the commit title.
	Title string
	// Category is the trailer's value, before mapping through the configuration.
	Category string
	// CommitReference is "group/project@sha"; CommitWebURL the commit's page.
	CommitReference, CommitWebURL string
	// Trailers are the commit's trailers (last value per key).
	Trailers map[string]string
	// Author is nil when no user has the commit author's email.
	Author *Author
}

// Release is the changelog section of one version.
type Release struct {
	Version string
	Date    time.Time
	config  *Config
	order   []string
	entries map[string][]map[string]any
}

// NewRelease starts an empty release section; categories of cfg come first, in its order.
func NewRelease(version string, date time.Time, cfg *Config) *Release {
	r := &Release{Version: version, Date: date, config: cfg, entries: map[string][]map[string]any{}}
	for _, c := range cfg.Categories {
		r.category(c.Title)
	}
	return r
}

func (r *Release) category(title string) {
	if _, ok := r.entries[title]; !ok {
		r.entries[title] = []map[string]any{}
		r.order = append(r.order, title)
	}
}

// Add appends an entry to its category (entries are added newest first).
func (r *Release) Add(e Entry) {
	trailers := map[string]any{}
	for k, v := range e.Trailers {
		trailers[k] = v
	}
	entry := map[string]any{
		"title": e.Title,
		"commit": map[string]any{
			"reference": e.CommitReference,
			"web_url":   e.CommitWebURL,
			"trailers":  trailers,
		},
	}
	if e.Author != nil {
		entry["author"] = map[string]any{
			"reference":   e.Author.Reference,
			"contributor": e.Author.Contributor,
			"credit":      e.Author.Credit,
		}
	}
	title := r.config.CategoryTitle(e.Category)
	r.category(title)
	r.entries[title] = append(r.entries[title], entry)
}

// Markdown renders the section: a "## version (date)" header GitLab can find again, then the
// template's output, separated and followed by a blank line.
func (r *Release) Markdown() (string, error) {
	var cats []any
	for _, title := range r.order {
		es := r.entries[title]
		if len(es) == 0 {
			continue
		}
		items := make([]any, len(es))
		for i, e := range es {
			items[i] = e
		}
		cats = append(cats, map[string]any{
			"title": title, "count": len(es), "single_change": len(es) == 1, "entries": items,
		})
	}
	data := map[string]any{"categories": cats}
	if cats == nil {
		data["categories"] = []any{}
	}
	body, err := r.config.Template.Execute(data)
	if err != nil {
		return "", err
	}
	date := Strftime(r.Date, r.config.DateFormat)
	return "## " + r.Version + " (" + date + ")\n\n" + strings.TrimSpace(body) + "\n\n", nil
}

// In reports whether content already has this release's header (a concurrent or repeated
// request added it), so it must not be added twice.
func (r *Release) In(content string) bool {
	return regexp.MustCompile(`(?m)^##\s*` + regexp.QuoteMeta(r.Version)).MatchString(content)
}

// Insert adds the release section to an existing changelog: before the section of the newest
// older version (headers "## X.Y.Z..." are ordered by version, not date), or at the end.
func Insert(existing string, r *Release) (string, error) {
	markdown, err := r.Markdown()
	if err != nil {
		return "", err
	}
	lines := splitLines(existing)
	locations := map[string]int{}
	var found []string
	for i, line := range lines {
		m := releaseHeaderRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if _, seen := locations[m[1]]; !seen {
			found = append(found, m[1])
		}
		locations[m[1]] = i
	}
	versions := append([]string{r.Version}, found...)
	sort.SliceStable(versions, func(i, j int) bool { return CompareVersions(versions[i], versions[j]) > 0 })
	idx := 0
	for i, v := range versions {
		if v == r.Version {
			idx = i
			break
		}
	}
	if idx+1 < len(versions) {
		at := locations[versions[idx+1]]
		out := append([]string{}, lines[:at]...)
		out = append(out, markdown)
		out = append(out, lines[at:]...)
		return strings.Join(out, ""), nil
	}
	if len(versions) > 1 {
		lines = append(lines, "\n")
	}
	lines = append(lines, strings.TrimRight(markdown, " \t\r\n\f\v\x00"), "\n")
	return strings.Join(lines, ""), nil
}

// splitLines splits text into lines that keep their "\n", as Ruby's String#lines does.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
