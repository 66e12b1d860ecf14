package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"anvil/internal/apperr"
	"anvil/internal/authz"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// maxQuerySize is GitLab's limit on a query's text, in characters.
const maxQuerySize = 10000

// maxBodySize bounds a request body (a batch of queries with their variables).
const maxBodySize = 10 << 20

// transport speaks GitLab's /api/graphql protocol (app/controllers/graphql_controller.rb):
// GET and POST; a JSON body, or form or query-string fields; a JSON array runs a batch. Errors
// in the query itself are answered 200 in the GraphQL body; failures before execution are
// answered with their status and {"errors":[{"message":...}]}.
type transport struct {
	auth Authenticate
}

var _ graphql.Transport = transport{}

// refusal is a request refused before execution, with its status.
type refusal struct {
	status int
	msg    string
}

func (r *refusal) Error() string { return r.msg }

// Supports accepts every request routed here; the router only routes GET, HEAD and POST.
func (transport) Supports(*http.Request) bool { return true }

// Do authenticates, reads and runs the request.
func (t transport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	w.Header().Set("Content-Type", "application/json")
	actor, err := t.authenticate(r)
	if err != nil {
		refuse(w, err)
		return
	}
	reqs, batch, err := readRequests(r)
	if err == nil {
		err = checkRequests(r, reqs)
	}
	if err != nil {
		refuse(w, err)
		return
	}
	ctx := authz.WithActor(r.Context(), actor)
	out := make([]*response, len(reqs))
	for i, p := range reqs {
		out[i] = run(ctx, exec, p)
	}
	if batch {
		writeJSON(w, http.StatusOK, out)
		return
	}
	writeJSON(w, http.StatusOK, out[0])
}

// authenticate resolves the actor. A token that is present but invalid, or whose scopes do not
// cover the API, is "Invalid token"; a user whose state forbids API use is refused 403. Sudo is
// a REST feature: GitLab's GraphQL endpoint ignores it, so it is removed before resolving.
func (t transport) authenticate(r *http.Request) (*authz.Actor, error) {
	actor, err := t.auth(withoutSudo(r))
	if err != nil {
		e, ok := apperr.As(err)
		switch {
		case !ok:
			return nil, err
		case e.Kind == apperr.KindForbidden && strings.HasPrefix(e.Reason, "Your account"):
			return nil, &refusal{http.StatusForbidden, "API not accessible for user"}
		}
		return nil, &refusal{http.StatusUnauthorized, "Invalid token"}
	}
	if actor.Token != nil && !canRead(actor) {
		return nil, &refusal{http.StatusUnauthorized, "Invalid token"}
	}
	return actor, nil
}

// withoutSudo returns r without the Sudo header and sudo parameter.
func withoutSudo(r *http.Request) *http.Request {
	q := r.URL.Query()
	if r.Header.Get("Sudo") == "" && !q.Has("sudo") {
		return r
	}
	r = r.Clone(r.Context())
	r.Header.Del("Sudo")
	q.Del("sudo")
	r.URL.RawQuery = q.Encode()
	return r
}

// wireRequest is one query as a client sends it; variables may be an object or a JSON string.
type wireRequest struct {
	Query         string          `json:"query"`
	Variables     json.RawMessage `json:"variables"`
	OperationName string          `json:"operationName"`
	Extensions    map[string]any  `json:"extensions"`
}

// readRequests reads the query or the batch of queries of a request.
func readRequests(r *http.Request) ([]*graphql.RawParams, bool, error) {
	if r.Method != http.MethodPost {
		p, err := fromValues(r.URL.Query())
		return []*graphql.RawParams{p}, false, err
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodySize))
	if err != nil {
		return nil, false, &refusal{http.StatusBadRequest, "could not read request body"}
	}
	body = bytes.TrimSpace(body)
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if !isJSON(mediaType) || len(body) == 0 {
		vals := r.URL.Query()
		if mediaType == "application/x-www-form-urlencoded" {
			form, err := url.ParseQuery(string(body))
			if err != nil {
				return nil, false, &refusal{http.StatusBadRequest, "could not read request body"}
			}
			for k, v := range form {
				vals[k] = append(v, vals[k]...) // the body wins over the query string
			}
		}
		p, err := fromValues(vals)
		return []*graphql.RawParams{p}, false, err
	}
	if body[0] == '[' {
		var wires []wireRequest
		if err := decode(body, &wires); err != nil || len(wires) == 0 {
			return nil, false, &refusal{http.StatusBadRequest, "Invalid JSON body"}
		}
		reqs := make([]*graphql.RawParams, len(wires))
		for i := range wires {
			if reqs[i], err = wires[i].params(); err != nil {
				return nil, false, err
			}
		}
		return reqs, true, nil
	}
	var wr wireRequest
	if err := decode(body, &wr); err != nil {
		return nil, false, &refusal{http.StatusBadRequest, "Invalid JSON body"}
	}
	p, err := wr.params()
	return []*graphql.RawParams{p}, false, err
}

func isJSON(mediaType string) bool {
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}

// fromValues reads a query from URL or form fields.
func fromValues(v map[string][]string) (*graphql.RawParams, error) {
	get := func(k string) string {
		if len(v[k]) > 0 {
			return v[k][0]
		}
		return ""
	}
	wr := wireRequest{Query: get("query"), OperationName: get("operationName")}
	if s := get("variables"); s != "" {
		b, _ := json.Marshal(s)
		wr.Variables = b
	}
	return wr.params()
}

// params turns a wire request into gqlgen's parameters. Variables that are neither an object
// nor a JSON string holding one are refused 422, as GitLab's Variables class does.
func (wr *wireRequest) params() (*graphql.RawParams, error) {
	p := &graphql.RawParams{Query: wr.Query, OperationName: wr.OperationName, Extensions: wr.Extensions}
	raw := bytes.TrimSpace(wr.Variables)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, &refusal{http.StatusUnprocessableEntity, err.Error()}
		}
		raw = bytes.TrimSpace([]byte(s))
	}
	if len(raw) == 0 || string(raw) == "null" {
		return p, nil
	}
	if err := decode(raw, &p.Variables); err != nil {
		return nil, &refusal{http.StatusUnprocessableEntity, "Unexpected variables: " + err.Error()}
	}
	return p, nil
}

// decode reads JSON keeping numbers as json.Number, which gqlgen coerces exactly.
func decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// checkRequests applies GitLab's controller checks: query size, and no mutations over GET.
// The size limit is on the whole request, as GitLab's limit_query_size sums the query texts of
// a batch: a batch holds at most 10,000 characters of queries, so at most some 800 of the
// shortest valid operations ("{__typename}"), never thousands.
func checkRequests(r *http.Request, reqs []*graphql.RawParams) error {
	total := 0
	for _, p := range reqs {
		total += utf8.RuneCountInString(p.Query)
	}
	if total > maxQuerySize {
		return &refusal{http.StatusUnprocessableEntity, "Query too large"}
	}
	for _, p := range reqs {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && isMutation(p) {
			return &refusal{http.StatusUnprocessableEntity, "Mutations are forbidden in " + r.Method + " requests"}
		}
	}
	return nil
}

// isMutation reports whether the operation a request selects is a mutation.
func isMutation(p *graphql.RawParams) bool {
	doc, err := parser.ParseQuery(&ast.Source{Input: p.Query})
	if err != nil {
		return false
	}
	op := doc.Operations.ForName(p.OperationName)
	return op != nil && op.Operation == ast.Mutation
}

// response is a GraphQL response; data is left out when the operation never ran.
type response struct {
	Errors     gqlerror.List   `json:"errors,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
	Extensions map[string]any  `json:"extensions,omitempty"`
}

// run executes one operation.
func run(ctx context.Context, exec graphql.GraphExecutor, p *graphql.RawParams) *response {
	ctx = graphql.StartOperationTrace(ctx)
	p.ReadTime = graphql.TraceTiming{Start: graphql.Now(), End: graphql.Now()}
	oc, errs := exec.CreateOperationContext(ctx, p)
	if errs != nil {
		r := exec.DispatchError(graphql.WithOperationContext(ctx, oc), errs)
		return &response{Errors: r.Errors, Extensions: r.Extensions}
	}
	handler, ctx := exec.DispatchOperation(ctx, oc)
	r := handler(ctx)
	if r == nil {
		return &response{}
	}
	return &response{Errors: r.Errors, Data: r.Data, Extensions: r.Extensions}
}

// refuse answers a request refused before execution.
func refuse(w http.ResponseWriter, err error) {
	var ref *refusal
	if !errors.As(err, &ref) {
		ref = &refusal{http.StatusInternalServerError, "Internal server error"}
	}
	writeJSON(w, ref.status, map[string]any{"errors": []map[string]string{{"message": ref.msg}}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"errors":[{"message":"Internal server error"}]}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
