// Package metaapi serves GET /version and GET /metadata.
package metaapi

import (
	"anvil/internal/version"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

// Register adds the routes.
func Register(t *route.Table) {
	t.GET("/version", getVersion, route.SignedIn, route.UserScope) // read_user tokens too, as in GitLab
	t.GET("/metadata", getMetadata, route.SignedIn, route.UserScope)
}

// getVersion handles GET /version.
func getVersion(c *gin.Context) error {
	return httpx.OK(c, gin.H{"version": version.GitLab, "revision": version.Revision})
}

// getMetadata handles GET /metadata.
func getMetadata(c *gin.Context) error {
	return httpx.OK(c, gin.H{
		"version":  version.GitLab,
		"revision": version.Revision,
		"kas": gin.H{
			"enabled": false, "externalUrl": nil, "externalK8sProxyUrl": nil, "version": nil,
		},
		"enterprise": true,
	})
}
