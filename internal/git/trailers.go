package git

import "strings"

// Trailer is one "Key: value" line of a message's trailer block.
type Trailer struct {
	Key   string
	Value string
}

// gitGeneratedPrefixes are the trailer lines git writes itself; one of them lets a block with
// only 25% trailer lines count as a trailer block.
var gitGeneratedPrefixes = []string{"Signed-off-by: ", "(cherry picked from commit "}

// ParseTrailers finds the trailers of a commit or tag message the way git does for
// %(trailers:only,unfold) (git's trailer.c with the default configuration: separator ":", no
// configured trailer keys, no "---" divider): the last paragraph after the title is a trailer
// block if all its lines are trailers, or if at least a quarter are and one is git-generated.
// Continuation lines (starting with whitespace) are unfolded into the value with single spaces.
func ParseTrailers(msg string) []Trailer {
	lines := strings.Split(msg, "\n")
	if strings.HasSuffix(msg, "\n") {
		lines = lines[:len(lines)-1]
	}
	end := trailerBlockEnd(lines)
	start := trailerBlockStart(lines[:end])
	if start < 0 {
		return nil
	}
	var out []Trailer
	var cur *Trailer
	for _, l := range lines[start:end] {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if l != "" && isSpace(l[0]) {
			if cur != nil {
				if v := strings.TrimSpace(l); v != "" {
					if cur.Value != "" {
						cur.Value += " "
					}
					cur.Value += v
				}
			}
			continue
		}
		cur = nil
		if pos := findSeparator(l); pos >= 1 {
			out = append(out, Trailer{Key: strings.TrimSpace(l[:pos]), Value: strings.TrimSpace(l[pos+1:])})
			cur = &out[len(out)-1]
		}
	}
	return out
}

// trailerBlockEnd drops the trailing run of blank lines, comment lines and old "Conflicts:"
// blocks (git's ignore_non_trailer).
func trailerBlockEnd(lines []string) int {
	boc := -1
	inConflicts := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "#") || l == "":
			if boc < 0 {
				boc = i
			}
		case l == "Conflicts:":
			inConflicts = true
			if boc < 0 {
				boc = i
			}
		case inConflicts && strings.HasPrefix(l, "\t"):
		default:
			boc = -1
			inConflicts = false
		}
	}
	if boc >= 0 {
		return boc
	}
	return len(lines)
}

// trailerBlockStart returns the index of the first line of the trailer block, or -1 (git's
// find_trailer_start).
func trailerBlockStart(lines []string) int {
	// The first paragraph is the title and cannot be trailers.
	endOfTitle := len(lines)
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if isBlank(l) {
			endOfTitle = i
			break
		}
	}
	onlySpaces := true
	recognized := false
	trailerLines, nonTrailerLines, possibleContinuation := 0, 0, 0
	for i := len(lines) - 1; i >= endOfTitle; i-- {
		l := lines[i]
		if strings.HasPrefix(l, "#") {
			nonTrailerLines += possibleContinuation
			possibleContinuation = 0
			continue
		}
		if isBlank(l) {
			if onlySpaces {
				continue
			}
			nonTrailerLines += possibleContinuation
			if recognized && trailerLines*3 >= nonTrailerLines {
				return i + 1
			}
			if trailerLines > 0 && nonTrailerLines == 0 {
				return i + 1
			}
			return -1
		}
		onlySpaces = false
		generated := false
		for _, p := range gitGeneratedPrefixes {
			if strings.HasPrefix(l, p) {
				generated = true
			}
		}
		switch {
		case generated:
			trailerLines++
			possibleContinuation = 0
			recognized = true
		case findSeparator(l) >= 1 && !isSpace(l[0]):
			trailerLines++
			possibleContinuation = 0
		case isSpace(l[0]):
			possibleContinuation++
		default:
			nonTrailerLines++
			nonTrailerLines += possibleContinuation
			possibleContinuation = 0
		}
	}
	return -1
}

// findSeparator returns the position of the ":" ending a trailer token (letters, digits and
// "-", optionally followed by spaces), or -1 (git's find_separator).
func findSeparator(l string) int {
	whitespace := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == ':' {
			return i
		}
		if !whitespace && (isAlnum(c) || c == '-') {
			continue
		}
		if i != 0 && (c == ' ' || c == '\t') {
			whitespace = true
			continue
		}
		break
	}
	return -1
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isAlnum(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
