package servertest

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
)

// Logs records the server's log lines at WARN and above, so that tests can assert what a
// request logged (a client's mistake below ERROR, say).
type Logs struct {
	mu      sync.Mutex
	records []string
}

// Errors returns the messages logged at ERROR or above since the last Reset.
func (l *Logs) Errors() []string { return l.withPrefix("ERROR ") }

// Warnings returns the messages logged at WARN (not ERROR) since the last Reset.
func (l *Logs) Warnings() []string { return l.withPrefix("WARN ") }

func (l *Logs) withPrefix(level string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.records {
		if msg, ok := strings.CutPrefix(r, level); ok {
			out = append(out, msg)
		}
	}
	return out
}

// Reset forgets what was recorded.
func (l *Logs) Reset() {
	l.mu.Lock()
	l.records = nil
	l.mu.Unlock()
}

// recordingHandler passes records on to next and keeps those at WARN and above in logs.
type recordingHandler struct {
	next  slog.Handler
	logs  *Logs
	attrs string
}

func (h recordingHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn || h.next.Enabled(ctx, level)
}

func (h recordingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		line := r.Message + h.attrs
		r.Attrs(func(a slog.Attr) bool { line += fmt.Sprintf(" %s=%v", a.Key, a.Value); return true })
		h.logs.mu.Lock()
		h.logs.records = append(h.logs.records, r.Level.String()+" "+line)
		h.logs.mu.Unlock()
	}
	if h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h recordingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	s := h.attrs
	for _, a := range attrs {
		s += fmt.Sprintf(" %s=%v", a.Key, a.Value)
	}
	return recordingHandler{next: h.next.WithAttrs(attrs), logs: h.logs, attrs: s}
}

func (h recordingHandler) WithGroup(name string) slog.Handler {
	return recordingHandler{next: h.next.WithGroup(name), logs: h.logs, attrs: h.attrs}
}
