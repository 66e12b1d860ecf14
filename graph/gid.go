package graph

import (
	"regexp"
	"strconv"

	"anvil/ent"
	"anvil/ent/namespace"
)

// Global id model names, spelled as GitLab's model classes.
const (
	gidUser          = "User"
	gidGroup         = "Group"
	gidUserNamespace = "Namespaces::UserNamespace"
	gidProject       = "Project"
	gidGroupMember   = "GroupMember"
	gidProjectMember = "ProjectMember"
	gidIssue         = "Issue"
	gidProjectLabel  = "ProjectLabel"
	gidGroupLabel    = "GroupLabel"
	gidLabel         = "Label"
	gidMilestone     = "Milestone"
	gidMergeRequest  = "MergeRequest"
)

// labelModels are the global id models a label argument accepts: GitLab's labels are project
// or group labels, and LabelID takes either, or the base class.
var labelModels = []string{gidLabel, gidProjectLabel, gidGroupLabel}

// gidRe is the shape of a GitLab global id; the model part may be namespaced with "::".
var gidRe = regexp.MustCompile(`^gid://gitlab/([A-Z][A-Za-z0-9]*(?:::[A-Z][A-Za-z0-9]*)*)/([0-9]+)$`)

// gid is a parsed global id.
type gid struct {
	Model string
	ID    int
}

// formatGID renders a global id, gid://gitlab/<Model>/<id>.
func formatGID(model string, id int) string {
	return "gid://gitlab/" + model + "/" + strconv.Itoa(id)
}

// parseGID parses any global id, with GitLab's message for a malformed one.
func parseGID(s string) (gid, error) {
	m := gidRe.FindStringSubmatch(s)
	if m == nil {
		return gid{}, badInput("%s is not a valid GitLab ID.", s)
	}
	id, err := strconv.Atoi(m[2])
	if err != nil {
		return gid{}, badInput("%s is not a valid GitLab ID.", s)
	}
	return gid{Model: m[1], ID: id}, nil
}

// parseGIDOf parses a global id that must name one of models (the first is the type named in
// the error message).
func parseGIDOf(s string, models ...string) (int, error) {
	g, err := parseGID(s)
	if err != nil {
		return 0, err
	}
	for _, m := range models {
		if g.Model == m {
			return g.ID, nil
		}
	}
	return 0, badInput("%s is not a valid ID for %s.", s, models[0])
}

// parseGIDs parses a list of global ids of one model.
func parseGIDs(ids []string, model string) ([]int, error) {
	out := make([]int, 0, len(ids))
	for _, s := range ids {
		id, err := parseGIDOf(s, model)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

// namespaceGID is a namespace's global id: groups are Group, personal namespaces UserNamespace.
func namespaceGID(ns *ent.Namespace) string {
	if ns.Kind == namespace.KindUser {
		return formatGID(gidUserNamespace, ns.ID)
	}
	return formatGID(gidGroup, ns.ID)
}

// memberGID is a membership's global id: GroupMember or ProjectMember by its source.
func memberGID(m *ent.Member) string {
	if m.ProjectID != nil {
		return formatGID(gidProjectMember, m.ID)
	}
	return formatGID(gidGroupMember, m.ID)
}

// labelGID is a label's global id: ProjectLabel or GroupLabel by its owner, as GitLab's.
func labelGID(l *ent.Label) string {
	if l.GroupID != nil {
		return formatGID(gidGroupLabel, l.ID)
	}
	return formatGID(gidProjectLabel, l.ID)
}
