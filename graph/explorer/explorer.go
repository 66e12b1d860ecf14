// Package explorer serves the GraphiQL explorer (GitLab's /-/graphql-explorer) from assets
// embedded in the binary: GraphiQL's browser bundle, React and a small start-up script, so
// the page works without reaching any CDN.
package explorer

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

// Path is where the explorer is served; its assets are under Path + "/assets/".
const Path = "/-/graphql-explorer"

//go:embed index.html assets
var files embed.FS

// Handler serves the explorer page at prefix and its assets below prefix + "/assets/". The
// page loads its assets relatively, so prefix + "/" is redirected to prefix.
func Handler(prefix string) http.Handler {
	assets, _ := fs.Sub(files, "assets")
	static := http.StripPrefix(prefix+"/assets/", http.FileServerFS(assets))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch rest := strings.TrimPrefix(r.URL.Path, prefix); {
		case rest == "":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, files, "index.html")
		case rest == "/":
			http.Redirect(w, r, prefix, http.StatusMovedPermanently)
		case strings.HasPrefix(rest, "/assets/") && !strings.HasSuffix(rest, "/"):
			w.Header().Set("Cache-Control", "public, max-age=86400")
			static.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}
