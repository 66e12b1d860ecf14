// Package rest is the REST API v4 adapter: the route table and the per-resource handler
// packages, which parse input, call one operation in internal/ and present the result.
package rest

import (
	"anvil/internal/service"
	"anvil/rest/approvalapi"
	"anvil/rest/awardemojiapi"
	"anvil/rest/branchapi"
	"anvil/rest/commitapi"
	"anvil/rest/epicapi"
	"anvil/rest/eventapi"
	"anvil/rest/forkapi"
	"anvil/rest/groupapi"
	"anvil/rest/httpx"
	"anvil/rest/issueapi"
	"anvil/rest/labelapi"
	"anvil/rest/memberapi"
	"anvil/rest/mergerequestapi"
	"anvil/rest/metaapi"
	"anvil/rest/milestoneapi"
	"anvil/rest/namespaceapi"
	"anvil/rest/noteapi"
	"anvil/rest/projectapi"
	"anvil/rest/protectedbranchapi"
	"anvil/rest/registryapi"
	"anvil/rest/repositoryapi"
	"anvil/rest/resourceeventapi"
	"anvil/rest/route"
	"anvil/rest/settingsapi"
	"anvil/rest/sidekiqapi"
	"anvil/rest/snippetapi"
	"anvil/rest/storagemoveapi"
	"anvil/rest/tagapi"
	"anvil/rest/timetrackingapi"
	"anvil/rest/todoapi"
	"anvil/rest/tokenapi"
	"anvil/rest/userapi"
	"anvil/rest/webhookapi"

	"github.com/gin-gonic/gin"
)

// Register adds every /api/v4 route to g. Each resource package owns its part of the table.
func Register(g *gin.RouterGroup, s *service.Services) {
	g.Use(httpx.WithMovedProjects(s.Projects.Moved))
	t := &route.Table{G: g, S: s}
	metaapi.Register(t)
	userapi.Register(t)
	tokenapi.Register(t)
	groupapi.Register(t)
	memberapi.Register(t)
	projectapi.Register(t)
	protectedbranchapi.Register(t)
	repositoryapi.Register(t)
	commitapi.Register(t)
	branchapi.Register(t)
	tagapi.Register(t)
	forkapi.Register(t)
	registryapi.Register(t)
	namespaceapi.Register(t)
	eventapi.Register(t)
	sidekiqapi.Register(t)
	issueapi.Register(t)
	mergerequestapi.Register(t)
	awardemojiapi.Register(t)
	noteapi.Register(t)
	resourceeventapi.Register(t)
	milestoneapi.Register(t)
	epicapi.Register(t)
	labelapi.Register(t)
	storagemoveapi.Register(t)
	snippetapi.Register(t)
	settingsapi.Register(t)
	webhookapi.Register(t)
	todoapi.Register(t)
	timetrackingapi.Register(t)
	approvalapi.Register(t)
}
