package authz

import "anvil/ent"

// canFork is GitLab's fork_project for non-administrators: forking must be available to the
// actor (a disabled feature forbids it, a private one needs membership), the actor must be
// able to read the code, and either be a Reporter or be any signed-in user who may see a
// public or internal project (GitLab's public_user_access).
func canFork(a *Actor, proj *ent.Project, level Level) bool {
	switch proj.ForkingAccessLevel {
	case "disabled":
		return false
	case "private":
		if level < Guest {
			return false
		}
	}
	if !CanProject(a, proj, level, DownloadCode) {
		return false
	}
	return level >= Reporter || (!a.IsAnonymous() && canSeeVisibility(a, string(proj.Visibility)))
}
