package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"anvil/ent"
	"anvil/internal/db"
	"anvil/internal/outbound"
	"anvil/internal/version"
)

// deliveryTimeout bounds one delivery, as GitLab's webhook timeout does.
const deliveryTimeout = 10 * time.Second

// responseBodyLimit is how much of a response body the log keeps (GitLab's 8 KiB).
const responseBodyLimit = 8 * 1024

// redacted replaces secrets in logged headers.
const redacted = "[REDACTED]"

// RunDelivery works a DeliveryJob: a hook deleted or disabled since the event was queued gets
// nothing; a failed delivery is logged and counted, never retried (the log's resend is).
func (s *Service) RunDelivery(ctx context.Context, j DeliveryJob) error {
	h, err := s.Client.WebHook.Get(ctx, j.HookID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if AlertStatus(h, s.now()) != Executable {
		return nil
	}
	_, err = s.execute(ctx, h, j)
	return err
}

// Result is the outcome of one delivery.
type Result struct {
	// Status is the receiver's HTTP status, 0 when none came (Error says why).
	Status int
	Error  string
}

// Success reports a 2xx answer.
func (r Result) Success() bool { return r.Status >= 200 && r.Status < 300 }

// execute POSTs one delivery to h, logs it and records its outcome.
func (s *Service) execute(ctx context.Context, h *ent.WebHook, j DeliveryJob) (Result, error) {
	kind := Kind(h.Type)
	pol, err := s.policy(ctx, kind)
	if err != nil {
		return Result{}, err
	}
	body := []byte(j.Payload)
	if h.CustomWebhookTemplate != nil && *h.CustomWebhookTemplate != "" {
		body = renderTemplate(*h.CustomWebhookTemplate, j.Payload)
	}
	headers := map[string]string{
		"Content-Type":          "application/json",
		"User-Agent":            "GitLab/" + version.GitLab,
		"Idempotency-Key":       j.IdempotencyKey,
		"X-Gitlab-Event":        j.Header,
		"X-Gitlab-Webhook-UUID": NewUUID(),
		"X-Gitlab-Instance":     s.ExternalURL,
		"X-Gitlab-Event-UUID":   j.EventUUID,
	}
	if h.Token != "" {
		headers["X-Gitlab-Token"] = h.Token
	}
	// The spec's spelling of every X-Gitlab- header, alongside.
	for k, v := range headers {
		if rest, ok := strings.CutPrefix(k, "X-Gitlab-"); ok {
			headers["X-Service-"+rest] = v
		}
	}
	logged := make(map[string]string, len(headers)+len(h.CustomHeaders))
	for k, v := range headers {
		logged[k] = v
	}
	for k, v := range h.CustomHeaders {
		headers[k] = v
		logged[k] = redacted
	}
	if h.Token != "" {
		logged["X-Gitlab-Token"], logged["X-Service-Token"] = redacted, redacted
	}

	url := interpolate(h.URL, h.URLVariables)
	start := time.Now()
	res, respHeaders, respBody := s.post(ctx, pol, h.EnableSslVerification, url, headers, body, h.URLVariables)
	elapsed := time.Since(start).Seconds()

	status := strconv.Itoa(res.Status)
	if res.Status == 0 {
		status = "internal error"
	}
	// The log shows the URL as configured (URL variables may be secrets) with its credentials
	// masked, and the request data without email addresses (redact.go).
	err = db.WithTx(ctx, s.Client, func(ctx context.Context, tx *ent.Client) error {
		if err := tx.WebHookLog.Create().SetCreatedAt(s.now().UTC().Truncate(time.Millisecond)).SetWebHookID(h.ID).SetTrigger(j.Trigger).SetURL(MaskURL(h.URL)).
			SetRequestHeaders(logged).SetRequestData(string(redactEmails(j.Payload))).SetResponseHeaders(respHeaders).
			SetResponseBody(respBody).SetExecutionDuration(elapsed).SetResponseStatus(status).
			SetInternalErrorMessage(res.Error).Exec(ctx); err != nil {
			return err
		}
		return s.recordOutcome(ctx, h, res.Success())
	})
	return res, err
}

// post sends one request through the outbound policy and reads the answer (its body cut to
// the log's limit). An error's message names neither the URL nor a URL variable's value.
func (s *Service) post(ctx context.Context, pol outbound.Policy, verifyTLS bool, url string, headers map[string]string, body []byte, vars map[string]string) (Result, map[string]string, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Result{Error: safeError(err, vars)}, map[string]string{}, ""
	}
	for k, v := range headers {
		req.Header[http.CanonicalHeaderKey(k)] = []string{v}
	}
	// Keep GitLab's spellings of the headers it names in mixed case.
	for _, k := range []string{"X-Gitlab-Webhook-UUID", "X-Gitlab-Event-UUID", "X-Service-Webhook-UUID", "X-Service-Event-UUID"} {
		if v, ok := headers[k]; ok {
			delete(req.Header, http.CanonicalHeaderKey(k))
			req.Header[k] = []string{v}
		}
	}
	resp, err := s.client(pol, verifyTLS).Do(req)
	if err != nil {
		return Result{Error: safeError(err, vars)}, map[string]string{}, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, responseBodyLimit+1))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if len(b) > responseBodyLimit {
		b = b[:responseBodyLimit]
	}
	rh := make(map[string]string, len(resp.Header))
	for k, v := range resp.Header {
		rh[k] = strings.Join(v, ", ")
	}
	return Result{Status: resp.StatusCode}, rh, string(b)
}

// clients caches one HTTP client per outbound policy, so deliveries reuse connections.
var clients = struct {
	sync.Mutex
	m map[string]*http.Client
}{m: map[string]*http.Client{}}

func (s *Service) client(pol outbound.Policy, verifyTLS bool) *http.Client {
	list := append([]string{}, pol.Allowlist...)
	sort.Strings(list)
	key := fmt.Sprint(pol.AllowLocal, verifyTLS, list)
	clients.Lock()
	defer clients.Unlock()
	c, ok := clients.m[key]
	if !ok {
		c = pol.Client(deliveryTimeout, verifyTLS)
		clients.m[key] = c
	}
	return c
}

// renderTemplate fills a custom webhook template: {{path.to.field}} becomes the payload's
// value there, JSON-escaped inside the template's strings (GitLab's custom templates).
func renderTemplate(tmpl string, payload json.RawMessage) []byte {
	var data any
	_ = json.Unmarshal(payload, &data)
	var out strings.Builder
	for {
		i := strings.Index(tmpl, "{{")
		if i < 0 {
			out.WriteString(tmpl)
			break
		}
		j := strings.Index(tmpl[i:], "}}")
		if j < 0 {
			out.WriteString(tmpl)
			break
		}
		out.WriteString(tmpl[:i])
		path := strings.TrimSpace(tmpl[i+2 : i+j])
		v := lookup(data, path)
		switch v := v.(type) {
		case string:
			b, _ := json.Marshal(v)
			out.Write(b[1 : len(b)-1])
		case nil:
		default:
			b, _ := json.Marshal(v)
			out.Write(b)
		}
		tmpl = tmpl[i+j+2:]
	}
	return []byte(out.String())
}

// lookup follows a dotted path (object keys, array indexes) through decoded JSON.
func lookup(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch t := v.(type) {
		case map[string]any:
			v = t[part]
		case []any:
			n, err := strconv.Atoi(part)
			if err != nil || n < 0 || n >= len(t) {
				return nil
			}
			v = t[n]
		default:
			return nil
		}
	}
	return v
}
