package epics

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/epic"
	"anvil/ent/issue"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// GitLab's refusals of a parent epic (Epic#validate_parent_epic and the confidentiality rules).
const (
	msgSelf                 = "This epic cannot be added. An epic cannot be added to itself."
	msgAlreadyChild         = "This epic cannot be added. It is already assigned to the parent epic."
	msgAncestor             = "This epic cannot be added. It is already an ancestor of the parent epic."
	msgDepth                = "This epic cannot be added. One or more epics would exceed the maximum depth (7) from its most distant ancestor."
	msgOtherHierarchy       = "This epic cannot be added. An epic must belong to the same group or subgroup as its parent epic."
	msgConfidentialParent   = "A non-confidential epic cannot be assigned to a confidential parent epic"
	msgConfidentialIssues   = "Cannot make the epic confidential if it contains non-confidential issues"
	msgConfidentialChildren = "Cannot make the epic confidential if it contains non-confidential child epics"
	msgNoEpic               = "No matching epic found. Make sure that you are adding a valid epic URL."
	msgNoChild              = "No Epic found for given params"
)

// parentError is a refusal of a parent: the attribute GitLab files it under and the sentence.
type parentError struct{ field, msg string }

// checkParent returns why parent cannot be the parent of child (nil: a new epic of group g),
// or nil; confidential is the child's confidentiality after the change.
func checkParent(ctx context.Context, c *ent.Client, g *ent.Namespace, child *ent.Epic, confidential bool, parent *ent.Epic) (*parentError, error) {
	pg, err := c.Namespace.Get(ctx, parent.GroupID)
	if err != nil {
		return nil, err
	}
	if g.ID != pg.ID && !isDescendant(g.FullPath, pg.FullPath) {
		return &parentError{"parent", msgOtherHierarchy}, nil
	}
	ancestors, err := ancestorIDs(ctx, c, parent)
	if err != nil {
		return nil, err
	}
	if child != nil {
		switch {
		case child.ID == parent.ID:
			return &parentError{"parent", msgSelf}, nil
		case child.ParentID != nil && *child.ParentID == parent.ID:
			return &parentError{"parent", msgAlreadyChild}, nil
		}
		for _, id := range ancestors {
			if id == child.ID {
				return &parentError{"parent", msgAncestor}, nil
			}
		}
	}
	height := 1
	if child != nil {
		if height, err = subtreeHeight(ctx, c, child.ID); err != nil {
			return nil, err
		}
	}
	if height+len(ancestors) >= MaxDepth {
		return &parentError{"parent", msgDepth}, nil
	}
	if !confidential && parent.Confidential {
		return &parentError{"confidential", msgConfidentialParent}, nil
	}
	return nil, nil
}

// parentErrors is checkParent's refusal as the model's validation error (400).
func parentErrors(ctx context.Context, c *ent.Client, g *ent.Namespace, child *ent.Epic, confidential bool, parent *ent.Epic) error {
	pe, err := checkParent(ctx, c, g, child, confidential, parent)
	if err != nil || pe == nil {
		return err
	}
	return apperr.FieldError(pe.field, pe.msg)
}

// isDescendant reports whether the group at path lies under the group at ancestor.
func isDescendant(path, ancestor string) bool {
	return len(path) > len(ancestor) && path[:len(ancestor)+1] == ancestor+"/"
}

// ancestorIDs returns the ids of e's ancestors, nearest first (bounded: a tree is at most
// MaxDepth deep, and a corrupt cycle stops the walk).
func ancestorIDs(ctx context.Context, c *ent.Client, e *ent.Epic) ([]int, error) {
	var out []int
	seen := map[int]bool{e.ID: true}
	next := e.ParentID
	for next != nil && !seen[*next] && len(out) <= MaxDepth {
		seen[*next] = true
		out = append(out, *next)
		p, err := c.Epic.Query().Where(epic.ID(*next)).Select(epic.FieldParentID).Only(ctx)
		if err != nil {
			return nil, err
		}
		next = p.ParentID
	}
	return out, nil
}

// subtreeHeight is the number of levels of the tree rooted at id (1 for a leaf).
func subtreeHeight(ctx context.Context, c *ent.Client, id int) (int, error) {
	level := []int{id}
	height := 0
	for len(level) > 0 && height <= MaxDepth {
		height++
		next, err := c.Epic.Query().Where(epic.ParentIDIn(level...)).IDs(ctx)
		if err != nil {
			return 0, err
		}
		level = next
	}
	return height, nil
}

// confidentialityErrors refuses making e confidential while it holds public issues or child
// epics (GitLab's validate_confidential_issues_and_subepics).
func confidentialityErrors(ctx context.Context, c *ent.Client, e *ent.Epic, confidential bool) error {
	if !confidential {
		return nil
	}
	var msgs []string
	publicIssues, err := e.QueryIssueLinks().QueryIssue().Where(issue.Confidential(false)).Exist(ctx)
	if err != nil {
		return err
	}
	if publicIssues {
		msgs = append(msgs, msgConfidentialIssues)
	}
	publicChildren, err := c.Epic.Query().Where(epic.ParentID(e.ID), epic.Confidential(false)).Exist(ctx)
	if err != nil {
		return err
	}
	if publicChildren {
		msgs = append(msgs, msgConfidentialChildren)
	}
	if len(msgs) == 0 {
		return nil
	}
	return apperr.Validation(map[string][]string{"confidential": msgs})
}

// linkableParent returns the epic id if the actor may make it a parent (reads it, and is at
// least a Guest of its group: admin_epic_tree_relation); otherwise nil, and the parent is
// ignored as GitLab ignores it.
func (s *Service) linkableParent(ctx context.Context, actor *authz.Actor, id *int) (*ent.Epic, error) {
	if id == nil {
		return nil, nil
	}
	e, g, err := s.byID(ctx, actor, *id)
	if err != nil || e == nil || !g.Can(actor, authz.AdminEpicTreeRelation) {
		return nil, err
	}
	return e, nil
}

// byID returns the epic with global id and its group if the actor may read it, else nil.
func (s *Service) byID(ctx context.Context, actor *authz.Actor, id int) (*ent.Epic, Group, error) {
	e, err := Load(db.ClientFrom(ctx, s.client).Epic.Query().Where(epic.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, Group{}, nil
	}
	if err != nil {
		return nil, Group{}, err
	}
	level, readable, err := s.policy.GroupLevel(ctx, actor, e.Edges.Group)
	if err != nil || !readable {
		return nil, Group{}, err
	}
	g := Group{Namespace: e.Edges.Group, Level: level}
	if e.Confidential && !g.Can(actor, authz.ReadConfidentialEpic) {
		return nil, Group{}, nil
	}
	return e, g, nil
}

// Children lists the child epics of the epic iid of group ref that the actor may read, in
// creation order (GitLab's manual reordering is not kept).
func (s *Service) Children(ctx context.Context, actor *authz.Actor, ref, iid string) (Result, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return Result{}, err
	}
	parent, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return Result{}, err
	}
	q, err := s.query(ctx, actor, g, ListParams{Parent: &parent.ID})
	if err != nil {
		return Result{}, err
	}
	rows, err := Load(q.Order(ent.Asc(epic.FieldID))).All(ctx)
	if err != nil {
		return Result{}, err
	}
	res := Result{Group: g.Namespace}
	res.Items, res.Total = rows, len(rows)
	res.Dates, err = s.dates(ctx, rows)
	return res, err
}

// AssignChild makes the epic with global id childID a child of the epic iid of group ref
// (admin_epic_tree_relation on both): 404 for a child the actor cannot reach, 409 with
// GitLab's sentence for a cycle, a repeat, too deep a tree or a confidentiality clash.
func (s *Service) AssignChild(ctx context.Context, actor *authz.Actor, ref, iid, childID string) (View, error) {
	g, parent, err := s.treeParent(ctx, actor, ref, iid)
	if err != nil {
		return View{}, err
	}
	id, err := strconv.Atoi(childID)
	if err != nil {
		return View{}, apperr.Invalid("child_epic_id")
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		child, cg, err := s.byID(ctx, actor, id)
		if err != nil {
			return err
		}
		if child == nil || !cg.Can(actor, authz.AdminEpicTreeRelation) {
			return apperr.NotFoundMessage(msgNoEpic)
		}
		pe, err := checkParent(ctx, c, cg.Namespace, child, child.Confidential, parent)
		if err != nil {
			return err
		}
		if pe != nil {
			return apperr.Conflict(pe.msg)
		}
		return c.Epic.UpdateOneID(child.ID).SetParentID(parent.ID).Exec(ctx)
	})
	if err != nil {
		return View{}, err
	}
	return s.reload(ctx, g.Namespace, id)
}

// CreateChild creates an epic titled title in group ref as a child of the epic iid
// (create_epic and admin_epic_tree_relation); confidential defaults to the parent's.
func (s *Service) CreateChild(ctx context.Context, actor *authz.Actor, ref, iid, title string, confidential *bool) (View, error) {
	g, parent, err := s.treeParent(ctx, actor, ref, iid)
	if err != nil {
		return View{}, err
	}
	if !g.Can(actor, authz.CreateEpic) {
		return View{}, apperr.Forbidden("")
	}
	if confidential == nil {
		confidential = &parent.Confidential
	}
	return s.create(ctx, actor, g, Input{Title: &title, Confidential: confidential, ParentID: &parent.ID})
}

// RemoveChild detaches the child epic with global id childID from the epic iid of group ref;
// 404 "No Epic found for given params" when it is not a child the actor may see.
func (s *Service) RemoveChild(ctx context.Context, actor *authz.Actor, ref, iid, childID string) (View, error) {
	g, parent, err := s.treeParent(ctx, actor, ref, iid)
	if err != nil {
		return View{}, err
	}
	id, err := strconv.Atoi(childID)
	if err != nil {
		return View{}, apperr.Invalid("child_epic_id")
	}
	child, _, err := s.byID(ctx, actor, id)
	if err != nil {
		return View{}, err
	}
	if child == nil || child.ParentID == nil || *child.ParentID != parent.ID {
		return View{}, apperr.NotFoundMessage(msgNoChild)
	}
	if err := db.ClientFrom(ctx, s.client).Epic.UpdateOneID(child.ID).ClearParentID().Exec(ctx); err != nil {
		return View{}, err
	}
	return s.reload(ctx, g.Namespace, child.ID)
}

// treeParent finds the epic iid of group ref whose tree the actor changes
// (admin_epic_tree_relation: at least a Guest who reads it).
func (s *Service) treeParent(ctx context.Context, actor *authz.Actor, ref, iid string) (Group, *ent.Epic, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return g, nil, err
	}
	e, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return g, nil, err
	}
	if !g.Can(actor, authz.AdminEpicTreeRelation) {
		return g, nil, apperr.Forbidden("")
	}
	return g, e, nil
}
