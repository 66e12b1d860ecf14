package protectedbranches

import (
	"context"
	"regexp"
	"strings"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// Command is one ref update of a push: Old is the zero id for a creation, New for a deletion.
type Command struct {
	Old, New git.ObjectID
	Ref      string
}

// RepoState is what the push checks need to know about the repository before the push.
type RepoState struct {
	// Empty: the repository has no branch yet.
	Empty bool
	// DefaultBranch is the branch HEAD names.
	DefaultBranch string
}

// Verdict is the decision on one ref update that the pre-receive hook carries out.
type Verdict struct {
	Ref string
	// FastForward: the update must be a fast-forward (a protected branch without
	// allow_force_push). Only the hook can tell, as only it sees the pushed commits; it refuses
	// with MsgForcePushProtected otherwise, before looking at Deny (GitLab's order).
	FastForward bool
	// Deny refuses the update with this message ("" lets it through).
	Deny string
}

// hexBranch matches branch names GitLab refuses to create: 40 hexadecimal digits (they would
// read as commit ids), alone or as the first path component.
var hexBranch = regexp.MustCompile(`^[0-9a-fA-F]{40}(-/|/|$)`)

// CheckPush decides the ref updates of a push by actor into p, in order, with the rules of
// GitLab's branch checks: the default branch cannot be deleted; protected branches refuse
// force pushes unless a matching rule allows them, refuse pushes by users no push rule admits,
// and are only created or deleted through the web interface and API; in an empty repository
// (default branch protection on) only Maintainers, or Developers when allowed, push the first
// branch. The caller has checked that actor may push code to p at all.
//
// Only the verdicts the hook must act on are returned, up to the first refusal: what follows
// it cannot matter, since one refused update refuses the whole push.
func (s *Service) CheckPush(ctx context.Context, actor *authz.Actor, p *ent.Project, st RepoState, cmds []Command) ([]Verdict, error) {
	rules, err := s.rules(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	def, err := s.DefaultBranchProtection(ctx)
	if err != nil {
		return nil, err
	}
	a, err := s.newAccessor(ctx, actor, p)
	if err != nil {
		return nil, err
	}
	var out []Verdict
	for _, c := range cmds {
		branch, ok := strings.CutPrefix(c.Ref, git.BranchPrefix)
		if !ok {
			continue
		}
		v, err := s.checkBranch(ctx, a, rules, def, st, c, branch)
		if err != nil {
			return nil, err
		}
		if v.FastForward || v.Deny != "" {
			out = append(out, v)
		}
		if v.Deny != "" {
			break
		}
	}
	return out, nil
}

// checkBranch decides one branch update.
func (s *Service) checkBranch(ctx context.Context, a *accessor, rules []*ent.ProtectedBranch, def Protection,
	st RepoState, c Command, branch string) (Verdict, error) {
	v := Verdict{Ref: c.Ref}
	creation, deletion := c.Old.IsZero(), c.New.IsZero()
	if deletion && !st.Empty && branch == st.DefaultBranch {
		v.Deny = MsgDeleteDefault
		return v, nil
	}
	if !deletion && hexBranch.MatchString(branch) {
		v.Deny = MsgHexBranchName
		return v, nil
	}
	acc, err := a.branch(ctx, rules, branch, st.Empty, def)
	if err != nil || !acc.protected {
		return v, err
	}
	v.FastForward = !creation && !deletion && !acc.forcePush
	switch {
	case st.Empty:
		if !acc.push {
			v.Deny = s.emptyProjectMessage(a.project)
		}
	case creation:
		switch {
		case acc.push:
		case !acc.merge:
			v.Deny = MsgCreateProtected
		default:
			v.Deny = MsgCreateProtectedWeb
		}
	case deletion:
		if acc.deleteByUI {
			v.Deny = MsgDeleteProtectedWeb
		} else {
			v.Deny = MsgDeleteProtected
		}
	case !acc.push:
		v.Deny = MsgPushProtected
	}
	return v, nil
}

// emptyProjectMessage is GitLab's refusal of a first push by someone who may not create the
// default branch.
func (s *Service) emptyProjectMessage(p *ent.Project) string {
	path := p.Path
	if ns := p.Edges.Namespace; ns != nil {
		path = ns.FullPath + "/" + p.Path
	}
	return "\nA default branch (e.g. main) does not yet exist for " + path + "\n" +
		"Ask a project Owner or Maintainer to create a default branch:\n\n" +
		"  " + strings.TrimRight(s.externalURL, "/") + "/" + path + "/-/project_members\n\n"
}
