package epics

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/notes"
)

// The system notes of tree and issue changes, in GitLab's words (SystemNotes::EpicsService and
// IssuablesService), written in the change's transaction.

// epicTarget is an epic as the notes domain addresses it.
func epicTarget(e *ent.Epic) *notes.Target {
	iid, gid := e.Iid, e.GroupID
	return &notes.Target{Type: notes.TypeEpic, ID: e.ID, IID: &iid, GroupID: &gid, Title: e.Title, Object: e}
}

// epicRef is e's reference as seen from group groupID: &iid in its own group, else with the
// group's full path (e's group edge must be loaded for that).
func epicRef(e *ent.Epic, groupID int) string {
	ref := "&" + strconv.Itoa(e.Iid)
	if e.GroupID == groupID || e.Edges.Group == nil {
		return ref
	}
	return e.Edges.Group.FullPath + ref
}

// author is the actor as a note's author (nil for none).
func author(actor *authz.Actor) *int {
	if actor.IsAnonymous() {
		return nil
	}
	id := actor.UserID()
	return &id
}

// noteRelation writes "added/removed ... epic" on the parent and the child.
func (s *Service) noteRelation(ctx context.Context, actor *authz.Actor, parent, child *ent.Epic, added bool) error {
	parentBody, childBody := "added epic "+epicRef(child, parent.GroupID)+" as child epic",
		"added epic "+epicRef(parent, child.GroupID)+" as parent epic"
	if !added {
		parentBody, childBody = "removed child epic "+epicRef(child, parent.GroupID),
			"removed parent epic "+epicRef(parent, child.GroupID)
	}
	if err := s.notes.AddSystem(ctx, epicTarget(parent), author(actor), parentBody); err != nil {
		return err
	}
	return s.notes.AddSystem(ctx, epicTarget(child), author(actor), childBody)
}

// noteIssue writes "added/removed issue" on the epic and "added to/removed from epic" on the
// issue (loaded with issues.Load).
func (s *Service) noteIssue(ctx context.Context, actor *authz.Actor, e *ent.Epic, is *ent.Issue, added bool) error {
	proj := is.Edges.Project
	issueRef := proj.Edges.Namespace.FullPath + "/" + proj.Path + "#" + strconv.Itoa(is.Iid)
	epicBody, issueBody := "added issue "+issueRef, "added to epic "+epicRef(e, proj.NamespaceID)
	if !added {
		epicBody, issueBody = "removed issue "+issueRef, "removed from epic "+epicRef(e, proj.NamespaceID)
	}
	if err := s.notes.AddSystem(ctx, epicTarget(e), author(actor), epicBody); err != nil {
		return err
	}
	return s.notes.AddSystem(ctx, notes.IssueTarget(actor, authz.NoAccess, is), author(actor), issueBody)
}
