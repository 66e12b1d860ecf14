// Package params reads GitLab-style request parameters: the query string and a JSON,
// form-urlencoded or multipart body, merged into one tree, with Rack's bracket syntax
// (name[], name[key], name[][key]) and Grape's coercions (booleans, integers, dates, None/Any).
package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBodyBytes is the largest request body read for parameters.
const MaxBodyBytes = 40 << 20

// maxDepth bounds bracket nesting, as Rack does, so a hostile key cannot build a deep tree.
const maxDepth = 32

// ErrBodyTooLarge is returned for a body over MaxBodyBytes.
var ErrBodyTooLarge = errors.New("request body too large")

// JSONError is a malformed JSON body.
type JSONError struct{ Err error }

func (e *JSONError) Error() string {
	return "There was a problem in the JSON you submitted: " + e.Err.Error()
}

// Tree holds parameter values: string, bool, nil, []any or map[string]any.
type Tree map[string]any

// Files holds multipart file parts by parameter name.
type Files map[string]*multipart.FileHeader

// ParseRequest merges the query string and the body of r into one tree. Body values win over
// query values of the same name.
func ParseRequest(r *http.Request) (Tree, Files, error) {
	t := Tree{}
	if err := t.addQuery(r.URL.RawQuery); err != nil {
		return nil, nil, err
	}
	if r.Body == nil || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return t, nil, nil
	}
	ct, ctParams, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "multipart/form-data":
		r.Body = http.MaxBytesReader(nil, r.Body, MaxBodyBytes)
		mr := multipart.NewReader(r.Body, ctParams["boundary"])
		form, err := mr.ReadForm(MaxBodyBytes)
		if err != nil {
			if isTooLarge(err) {
				return nil, nil, ErrBodyTooLarge
			}
			return nil, nil, &JSONError{Err: fmt.Errorf("invalid multipart body: %w", err)}
		}
		for k, vs := range form.Value {
			for _, v := range vs {
				if err := t.set(k, v); err != nil {
					return nil, nil, err
				}
			}
		}
		files := Files{}
		for k, fhs := range form.File {
			if len(fhs) > 0 {
				files[k] = fhs[0]
			}
		}
		return t, files, nil
	default:
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil {
			return nil, nil, err
		}
		if len(body) > MaxBodyBytes {
			return nil, nil, ErrBodyTooLarge
		}
		if len(bytes.TrimSpace(body)) == 0 {
			return t, nil, nil
		}
		if ct == "application/x-www-form-urlencoded" {
			return t, nil, t.addQuery(string(body))
		}
		if ct == "application/json" || ct == "" || strings.HasSuffix(ct, "+json") {
			return t, nil, t.addJSON(body)
		}
		// Other content types (raw uploads) are left for the handler.
		return t, nil, nil
	}
}

func isTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe) || errors.Is(err, multipart.ErrMessageTooLarge)
}

// ParseQuery builds a tree from a raw query string (used by tests and the fuzzer).
func ParseQuery(raw string) (Tree, error) {
	t := Tree{}
	return t, t.addQuery(raw)
}

func (t Tree) addQuery(raw string) error {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			continue // Rack skips undecodable pairs
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			continue
		}
		if err := t.set(key, val); err != nil {
			return err
		}
	}
	return nil
}

func (t Tree) addJSON(body []byte) error {
	// encoding/json silently turns invalid UTF-8 into U+FFFD, which would store mangled text;
	// a JSON text must be UTF-8 (RFC 8259), so such a body is malformed.
	if !utf8.Valid(body) {
		return &JSONError{Err: errors.New("invalid UTF-8 in JSON body")}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return &JSONError{Err: err}
	}
	if dec.More() {
		return &JSONError{Err: errors.New("unexpected data after the top-level value")}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		// GitLab accepts a bare JSON value as the body (python-gitlab sends `true` to block a
		// user); it carries no named parameters.
		return nil
	}
	for k, val := range obj {
		t[k] = normalizeJSON(val)
	}
	return nil
}

// normalizeJSON turns json.Number into its string so every scalar is a string, bool or nil.
func normalizeJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		return x.String()
	case []any:
		for i := range x {
			x[i] = normalizeJSON(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = normalizeJSON(x[k])
		}
		return x
	}
	return v
}

// splitKey parses "a[b][][c]" into "a" and the bracket parts ["b", "", "c"].
func splitKey(key string) (string, []string, bool) {
	i := strings.IndexByte(key, '[')
	if i <= 0 {
		return key, nil, true
	}
	name, rest := key[:i], key[i:]
	var parts []string
	for rest != "" {
		if rest[0] != '[' {
			return "", nil, false
		}
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return "", nil, false
		}
		parts = append(parts, rest[1:j])
		rest = rest[j+1:]
		if len(parts) > maxDepth {
			return "", nil, false
		}
	}
	return name, parts, true
}

// set stores value under a bracketed key, as Rack's normalize_params does.
func (t Tree) set(key, value string) error {
	name, parts, ok := splitKey(key)
	if !ok {
		// Not bracket syntax after all: keep the literal key.
		t[key] = value
		return nil
	}
	if len(parts) == 0 {
		t[name] = value
		return nil
	}
	t[name] = assign(t[name], parts, value)
	return nil
}

func assign(cur any, parts []string, value string) any {
	if len(parts) == 0 {
		return value
	}
	head, rest := parts[0], parts[1:]
	if head == "" { // array
		arr, _ := cur.([]any)
		if len(rest) == 0 {
			return append(arr, value)
		}
		// name[][key]=v: a new hash starts when the last one already has key, as in Rack.
		if n := len(arr); n > 0 {
			if last, ok := arr[n-1].(map[string]any); ok && len(rest) > 0 && rest[0] != "" {
				if _, exists := last[rest[0]]; !exists {
					arr[n-1] = assign(last, rest, value)
					return arr
				}
			}
		}
		return append(arr, assign(nil, rest, value))
	}
	m, ok := cur.(map[string]any)
	if !ok {
		m = map[string]any{}
	}
	m[head] = assign(m[head], rest, value)
	return m
}

// scalarString returns a scalar's string form: strings as they are, booleans as "true"/"false".
func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}
