package registryserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"

	"anvil/internal/registry"

	"github.com/opencontainers/go-digest"
	"github.com/opencontainers/image-spec/specs-go"
	v1 "github.com/opencontainers/image-spec/specs-go/v1"
)

// specsVersioned is schemaVersion 2.
var specsVersioned = specs.Versioned{SchemaVersion: 2}

// distribution v3.1.2 predates the OCI distribution spec 1.1's referrers API. Anvil answers it
// in front of the registry, from the registry's storage: GET /v2/<name>/referrers/<digest>,
// and the OCI-Subject header on a manifest PUT that names a subject (which tells clients the
// registry indexes referrers, so they do not fall back to tag schemes).

var (
	referrersPath = regexp.MustCompile(`^/v2/(.+)/referrers/([^/]+)$`)
	manifestPath  = regexp.MustCompile(`^/v2/(.+)/manifests/([^/]+)$`)
)

// maxManifestSize is the registry's own limit on a manifest body.
const maxManifestSize = 4 << 20

// referrers answers the referrers API, authorized like a pull of the repository.
func (s *Server) referrers(w http.ResponseWriter, r *http.Request, name, ref string) {
	if !s.authorizedPull(w, r, name) {
		return
	}
	dgst, err := digest.Parse(ref)
	if err != nil {
		registryError(w, http.StatusBadRequest, "DIGEST_INVALID", "provided digest did not match uploaded content")
		return
	}
	artifactType := r.URL.Query().Get("artifactType")
	descs, err := s.Deps.Registry.Referrers(r.Context(), name, dgst, artifactType)
	if err != nil {
		s.Log.ErrorContext(r.Context(), "registry referrers", "err", err)
		registryError(w, http.StatusInternalServerError, "UNKNOWN", "unknown error")
		return
	}
	if artifactType != "" {
		w.Header().Set("OCI-Filters-Applied", "artifactType")
	}
	body, _ := json.Marshal(v1.Index{
		Versioned: specsVersioned, MediaType: v1.MediaTypeImageIndex, Manifests: descs,
	})
	w.Header().Set("Content-Type", v1.MediaTypeImageIndex)
	w.Header().Set("Docker-Distribution-Api-Version", "registry/2.0")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// authorizedPull checks the request's bearer token for pull on name, answering the registry's
// challenge when it is missing or does not grant it.
func (s *Server) authorizedPull(w http.ResponseWriter, r *http.Request, name string) bool {
	prefix, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && strings.EqualFold(prefix, "bearer") {
		if grants, err := s.Deps.Registry.Keys().Verify(token); err == nil && registry.Allows(grants, name, "pull") {
			return true
		}
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="`+strings.TrimRight(s.ExternalURL, "/")+`/jwt/auth",service="`+
		registry.Service+`",scope="repository:`+name+`:pull"`)
	registryError(w, http.StatusUnauthorized, "UNAUTHORIZED", "authentication required")
	return false
}

// putManifest passes a manifest PUT to the registry and, when the manifest names a subject
// and the registry stored it, answers with the OCI-Subject header.
func (s *Server) putManifest(w http.ResponseWriter, r *http.Request, next http.Handler) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxManifestSize+1))
	if err != nil {
		registryError(w, http.StatusBadRequest, "MANIFEST_INVALID", "manifest invalid")
		return
	}
	var m struct {
		Subject *v1.Descriptor `json:"subject"`
	}
	_ = json.Unmarshal(body, &m)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if m.Subject == nil || m.Subject.Digest == "" {
		next.ServeHTTP(w, r)
		return
	}
	next.ServeHTTP(&subjectWriter{ResponseWriter: w, subject: m.Subject.Digest.String()}, r)
}

// subjectWriter adds OCI-Subject to a successful manifest PUT.
type subjectWriter struct {
	http.ResponseWriter
	subject string
}

func (w *subjectWriter) WriteHeader(status int) {
	if status == http.StatusCreated {
		w.Header().Set("OCI-Subject", w.subject)
	}
	w.ResponseWriter.WriteHeader(status)
}

// registryError writes the registry's error body.
func registryError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Docker-Distribution-Api-Version", "registry/2.0")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{"code": code, "message": msg, "detail": nil}}})
}
