// Package changelog holds the pure parts of GitLab's changelog generation: the configuration
// file, the small template language of release sections, version ordering, and inserting a
// release section into an existing changelog. It reads no repository and no database.
package changelog

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Error is a changelog failure GitLab reports as 422 "Failed to generate the changelog: ...".
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// maxLoops bounds nested each loops, as GitLab's template evaluator does, so a hostile template
// cannot multiply its output without limit.
const maxLoops = 4

// Template is a parsed changelog template.
//
// The language (GitLab's TemplateParser): {{ a.b.0 }} prints a value, {% if x %}..{% else %}..
// {% end %} and {% each x %}..{% end %} control output; a %} tag swallows the newline after
// it; a backslash before a newline removes the newline; inside each, names are read from the
// current element and {{ it }} is the element itself.
type Template struct{ nodes []node }

// node is one element of a parsed template.
type node interface {
	eval(st *evalState, data any) (string, error)
}

type textNode string

type varNode []step

type ifNode struct {
	cond    []step
	yes, no []node
	hasElse bool
}

type eachNode struct {
	coll []step
	body []node
}

// step is one selector step: a name, or an index when isIndex.
type step struct {
	name    string
	index   int
	isIndex bool
}

// ParseTemplate parses src; a syntax error is an *Error "Failed to parse the template: ...".
func ParseTemplate(src string) (*Template, error) {
	p := &parser{src: src}
	nodes, pos := p.exprs(0)
	if pos != len(src) {
		line, col := lineCol(src, pos)
		return nil, errorf("Failed to parse the template: unexpected input at line %d char %d", line, col)
	}
	return &Template{nodes: nodes}, nil
}

func lineCol(src string, pos int) (int, int) {
	line := 1 + strings.Count(src[:pos], "\n")
	col := pos - strings.LastIndex(src[:pos], "\n")
	return line, col
}

// Execute renders the template with data (maps with string keys, slices, strings, numbers,
// booleans and nil).
func (t *Template) Execute(data any) (string, error) {
	return evalNodes(&evalState{}, t.nodes, data)
}

// parser is a backtracking recursive-descent parser of the template grammar; each rule takes
// a position and returns the new position, or -1 when it does not match there.
type parser struct{ src string }

func (p *parser) exprs(pos int) ([]node, int) {
	var nodes []node
	for pos < len(p.src) {
		if n, next := p.variable(pos); next >= 0 {
			nodes, pos = append(nodes, n), next
			continue
		}
		if n, next := p.ifExpr(pos); next >= 0 {
			nodes, pos = append(nodes, n), next
			continue
		}
		if n, next := p.eachExpr(pos); next >= 0 {
			nodes, pos = append(nodes, n), next
			continue
		}
		if p.src[pos] == '\\' {
			if pos+1 < len(p.src) && p.src[pos+1] == '\n' {
				pos += 2 // an escaped newline is dropped
				continue
			}
			if end := p.chars(pos + 1); end >= 0 {
				nodes, pos = append(nodes, textNode(p.src[pos:end])), end
				continue
			}
			break
		}
		if end := p.chars(pos); end >= 0 {
			nodes, pos = append(nodes, textNode(p.src[pos:end])), end
			continue
		}
		if p.src[pos] == '\n' {
			nodes, pos = append(nodes, textNode("\n")), pos+1
			continue
		}
		break
	}
	return nodes, pos
}

// chars matches a run of plain text: no newline, backslash or tag opening ("{{" or "{%").
func (p *parser) chars(pos int) int {
	start := pos
	for pos < len(p.src) {
		c := p.src[pos]
		if c == '\n' || c == '\\' {
			break
		}
		if c == '{' && pos+1 < len(p.src) && (p.src[pos+1] == '{' || p.src[pos+1] == '%') {
			break
		}
		pos++
	}
	if pos == start {
		return -1
	}
	return pos
}

func (p *parser) whitespace(pos int) int {
	for pos < len(p.src) && strings.IndexByte(" \t\r\n\f\v", p.src[pos]) >= 0 {
		pos++
	}
	return pos
}

// selector matches whitespace, step(.step)*, whitespace.
func (p *parser) selector(pos int) ([]step, int) {
	pos = p.whitespace(pos)
	var steps []step
	for {
		s, next := p.step(pos)
		if next < 0 {
			return nil, -1
		}
		steps, pos = append(steps, s), next
		if pos < len(p.src) && p.src[pos] == '.' {
			if _, n := p.step(pos + 1); n >= 0 {
				pos++
				continue
			}
		}
		break
	}
	return steps, p.whitespace(pos)
}

func (p *parser) step(pos int) (step, int) {
	start := pos
	for pos < len(p.src) && (isLetter(p.src[pos]) || p.src[pos] == '_') {
		pos++
	}
	if pos > start {
		return step{name: p.src[start:pos]}, pos
	}
	for pos < len(p.src) && pos-start < 10 && p.src[pos] >= '0' && p.src[pos] <= '9' {
		pos++
	}
	if pos > start {
		n, _ := strconv.Atoi(p.src[start:pos])
		return step{index: n, isIndex: true}, pos
	}
	return step{}, -1
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// variable matches "{{" (or more braces), a selector, and "}}" (or more).
func (p *parser) variable(pos int) (node, int) {
	n := 0
	for pos < len(p.src) && p.src[pos] == '{' {
		pos, n = pos+1, n+1
	}
	if n < 2 {
		return nil, -1
	}
	steps, pos := p.selector(pos)
	if pos < 0 {
		return nil, -1
	}
	n = 0
	for pos < len(p.src) && p.src[pos] == '}' {
		pos, n = pos+1, n+1
	}
	if n < 2 {
		return nil, -1
	}
	return varNode(steps), pos
}

// open matches "{%", whitespace and keyword.
func (p *parser) open(pos int, keyword string) int {
	if !strings.HasPrefix(p.src[pos:], "{%") {
		return -1
	}
	pos = p.whitespace(pos + 2)
	if !strings.HasPrefix(p.src[pos:], keyword) {
		return -1
	}
	return pos + len(keyword)
}

// close matches whitespace, "%}" and one optional newline.
func (p *parser) close(pos int) int {
	pos = p.whitespace(pos)
	if !strings.HasPrefix(p.src[pos:], "%}") {
		return -1
	}
	pos += 2
	if pos < len(p.src) && p.src[pos] == '\n' {
		pos++
	}
	return pos
}

// keywordTag matches a complete "{% keyword %}" tag.
func (p *parser) keywordTag(pos int, keyword string) int {
	if pos = p.open(pos, keyword); pos < 0 {
		return -1
	}
	return p.close(pos)
}

// head matches "{% keyword <selector> %}" with at least one blank after the keyword.
func (p *parser) head(pos int, keyword string) ([]step, int) {
	if pos = p.open(pos, keyword); pos < 0 {
		return nil, -1
	}
	if pos >= len(p.src) || (p.src[pos] != ' ' && p.src[pos] != '\t') {
		return nil, -1
	}
	for pos < len(p.src) && (p.src[pos] == ' ' || p.src[pos] == '\t') {
		pos++
	}
	steps, pos := p.selector(pos)
	if pos < 0 {
		return nil, -1
	}
	if pos = p.close(pos); pos < 0 {
		return nil, -1
	}
	return steps, pos
}

func (p *parser) ifExpr(pos int) (node, int) {
	cond, pos := p.head(pos, "if")
	if pos < 0 {
		return nil, -1
	}
	n := &ifNode{cond: cond}
	n.yes, pos = p.exprs(pos)
	if next := p.keywordTag(pos, "else"); next >= 0 {
		n.hasElse = true
		n.no, pos = p.exprs(next)
	}
	if pos = p.keywordTag(pos, "end"); pos < 0 {
		return nil, -1
	}
	return n, pos
}

func (p *parser) eachExpr(pos int) (node, int) {
	coll, pos := p.head(pos, "each")
	if pos < 0 {
		return nil, -1
	}
	n := &eachNode{coll: coll}
	n.body, pos = p.exprs(pos)
	if pos = p.keywordTag(pos, "end"); pos < 0 {
		return nil, -1
	}
	return n, pos
}

// evalState tracks loop nesting during evaluation.
type evalState struct{ loops int }

func evalNodes(st *evalState, nodes []node, data any) (string, error) {
	var b strings.Builder
	for _, n := range nodes {
		s, err := n.eval(st, data)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

func (t textNode) eval(*evalState, any) (string, error) { return string(t), nil }

func (v varNode) eval(_ *evalState, data any) (string, error) {
	return toString(lookup(v, data)), nil
}

func (n *ifNode) eval(st *evalState, data any) (string, error) {
	if truthy(lookup(n.cond, data)) {
		return evalNodes(st, n.yes, data)
	}
	if n.hasElse {
		return evalNodes(st, n.no, data)
	}
	return "", nil
}

func (n *eachNode) eval(st *evalState, data any) (string, error) {
	var items []any
	switch v := lookup(n.coll, data).(type) {
	case []any:
		items = v
	case []map[string]any:
		for _, m := range v {
			items = append(items, m)
		}
	case map[string]any:
		// Iterating a hash yields [key, value] pairs, as in Ruby.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			items = append(items, []any{k, v[k]})
		}
	default:
		return "", nil
	}
	if st.loops == maxLoops {
		return "", errorf("You can only nest up to %d loops", maxLoops)
	}
	st.loops++
	defer func() { st.loops-- }()
	var b strings.Builder
	for _, item := range items {
		s, err := evalNodes(st, n.body, item)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// lookup follows a selector from data: names read hashes ("it" is the data itself), indexes
// read arrays; anything else gives nil.
func lookup(steps []step, data any) any {
	cur := data
	for _, s := range steps {
		if cur == nil {
			return nil
		}
		if s.isIndex {
			arr, ok := cur.([]any)
			if !ok || s.index >= len(arr) {
				return nil
			}
			cur = arr[s.index]
			continue
		}
		if s.name == "it" {
			continue
		}
		switch m := cur.(type) {
		case map[string]any:
			cur = m[s.name]
		case map[string]string:
			v, ok := m[s.name]
			if !ok {
				return nil
			}
			cur = v
		default:
			return nil
		}
	}
	return cur
}

// truthy treats empty strings and collections as false, like GitLab's evaluator.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case map[string]string:
		return len(x) > 0
	}
	return true
}

func toString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	}
	return fmt.Sprint(v)
}
