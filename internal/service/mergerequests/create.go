package mergerequests

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/iids"
	"anvil/internal/service/refs"
)

// CreateInput is POST /projects/:id/merge_requests (the project is the source).
type CreateInput struct {
	SourceBranch string
	TargetBranch string
	Title        string
	Description  *string
	// TargetProjectID is the project to merge into (target_project_id): the source project's
	// upstream for a merge request from a fork; nil is the source project itself.
	TargetProjectID *int
	// AssigneeIDs, ReviewerIDs, Labels and MilestoneID are metadata: set by those who may
	// admin merge requests of the target project, silently dropped for others as in GitLab.
	AssigneeIDs []int
	ReviewerIDs []int
	Labels      []string
	MilestoneID *int
	// RemoveSourceBranch is remove_source_branch (the stored force_remove_source_branch).
	RemoveSourceBranch *bool
	Squash             *bool
	// AllowCollaboration is allow_collaboration (or allow_maintainer_to_push).
	AllowCollaboration   *bool
	ApprovalsBeforeMerge *int
}

// The errors of GitLab's MergeRequest#validate_branches and #validate_fork.
const (
	msgSameBranch   = "You can't use same project/branch for source and target"
	msgNotFork      = "Source project is not a fork of the target project"
	msgAnotherOpen  = "Another open merge request already exists for this source branch: "
	msgDoesNotExist = "does not exist"
)

// Create opens a merge request from in.SourceBranch of project ref into in.TargetBranch of the
// target project, with the next iid there, its metadata, and its observers (the first diff
// version among them) in one transaction, and returns it loaded.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, ref string, in CreateInput) (*ent.MergeRequest, error) {
	src, srcLevel, readable, err := s.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if err := authz.Check(actor, src, srcLevel, readable, authz.CreateMergeRequestFrom); err != nil {
		return nil, err
	}
	target, level := src, srcLevel
	if in.TargetProjectID != nil && *in.TargetProjectID != src.ID {
		if target, level, err = s.targetProject(ctx, actor, src, *in.TargetProjectID); err != nil {
			return nil, err
		}
	}
	if strings.TrimSpace(in.Title) == "" {
		return nil, apperr.FieldError("title", "can't be blank")
	}
	if target.ID == src.ID && in.SourceBranch == in.TargetBranch {
		return nil, apperr.UnprocessableMessages([]string{msgSameBranch})
	}
	head, err := s.checkBranches(ctx, src, in.SourceBranch, target, in.TargetBranch)
	if err != nil {
		return nil, err
	}
	meta := authz.CanProject(actor, target, level, authz.AdminMergeRequest)
	var id int
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := s.checkNoOtherOpen(ctx, c, 0, src.ID, in.SourceBranch, target.ID, in.TargetBranch); err != nil {
			return err
		}
		iid, err := iids.Next(ctx, s.client, iids.MergeRequests, iids.Project(target.ID), func(ctx context.Context, c *ent.Client) (int, error) {
			last, err := c.MergeRequest.Query().Where(mergerequest.ProjectID(target.ID)).Order(ent.Desc(mergerequest.FieldIid)).First(ctx)
			if ent.IsNotFound(err) {
				return 0, nil
			}
			if err != nil {
				return 0, err
			}
			return last.Iid, nil
		})
		if err != nil {
			return err
		}
		create := c.MergeRequest.Create().SetProjectID(target.ID).SetSourceProjectID(src.ID).SetIid(iid).
			SetSourceBranch(in.SourceBranch).SetTargetBranch(in.TargetBranch).
			SetTitle(in.Title).SetDraft(IsDraft(in.Title)).SetNillableDescription(in.Description).
			SetAuthorID(actor.UserID()).SetMergeStatus(StatusUnchecked).SetSha(head).
			SetNillableForceRemoveSourceBranch(in.RemoveSourceBranch).SetNillableSquash(in.Squash).
			SetNillableAllowCollaboration(in.AllowCollaboration).
			SetNillableApprovalsBeforeMerge(in.ApprovalsBeforeMerge)
		if meta && in.MilestoneID != nil && *in.MilestoneID != 0 {
			ms, err := availableMilestone(ctx, c, target, *in.MilestoneID)
			if err != nil {
				return err
			}
			if ms != nil {
				create.SetMilestoneID(ms.ID)
			}
		}
		mr, err := create.Save(ctx)
		if err != nil {
			return err
		}
		id = mr.ID
		if meta {
			if err := setAssignees(ctx, c, mr.ID, in.AssigneeIDs); err != nil {
				return err
			}
			if err := setReviewers(ctx, c, mr.ID, nil, in.ReviewerIDs); err != nil {
				return err
			}
			if err := s.setLabels(ctx, c, target, mr.ID, nil, labelChange{set: in.Labels, given: in.Labels != nil}); err != nil {
				return err
			}
		}
		after, err := s.reload(ctx, mr.ID)
		if err != nil {
			return err
		}
		return s.observer.MergeRequestChanged(ctx, actor, Change{Action: ActionCreated, After: after})
	})
	if err != nil {
		return nil, err
	}
	return s.reload(ctx, id)
}

// targetProject finds target_project_id for a merge request from src: a project the actor
// sees (404 Project Not Found otherwise) and may open merge requests in (403), in src's fork
// network (422, GitLab's validate_fork).
func (s *Service) targetProject(ctx context.Context, actor *authz.Actor, src *ent.Project, id int) (*ent.Project, authz.Level, error) {
	target, level, readable, err := s.projects.LookupLevel(ctx, actor, strconv.Itoa(id))
	if err != nil {
		return nil, 0, err
	}
	if err := authz.Check(actor, target, level, readable, authz.CreateMergeRequestIn); err != nil {
		return nil, 0, err
	}
	same, err := s.sameForkNetwork(ctx, src, target)
	if err != nil {
		return nil, 0, err
	}
	if !same {
		return nil, 0, apperr.UnprocessableMessages([]string{msgNotFork})
	}
	return target, level, nil
}

// sameForkNetwork reports whether a and b descend from the same project through forked_from.
func (s *Service) sameForkNetwork(ctx context.Context, a, b *ent.Project) (bool, error) {
	ra, err := s.networkRoot(ctx, a)
	if err != nil {
		return false, err
	}
	rb, err := s.networkRoot(ctx, b)
	return err == nil && ra == rb, err
}

// networkRoot follows forked_from_id up from p to the project its fork network starts at.
func (s *Service) networkRoot(ctx context.Context, p *ent.Project) (int, error) {
	c := db.ClientFrom(ctx, s.client)
	id, parent := p.ID, p.ForkedFromID
	for hops := 0; parent != nil && hops < 64; hops++ {
		next, err := c.Project.Get(ctx, *parent)
		if ent.IsNotFound(err) {
			break
		}
		if err != nil {
			return 0, err
		}
		id, parent = next.ID, next.ForkedFromID
	}
	return id, nil
}

// checkBranches answers GitLab's {"source_branch":["does not exist"]} (and the same for the
// target branch) for a branch missing from its repository, and returns the source branch's
// head.
func (s *Service) checkBranches(ctx context.Context, src *ent.Project, source string, target *ent.Project, targetBranch string) (string, error) {
	fields := map[string][]string{}
	var head string
	for i, b := range []struct {
		field, name string
		p           *ent.Project
	}{{"source_branch", source, src}, {"target_branch", targetBranch, target}} {
		sha, err := s.branchHead(ctx, b.p, b.name)
		if err != nil {
			return "", err
		}
		if sha == "" {
			fields[b.field] = []string{msgDoesNotExist}
		}
		if i == 0 {
			head = sha
		}
	}
	if len(fields) > 0 {
		return "", apperr.Validation(fields)
	}
	return head, nil
}

// branchHead returns the commit branch name of project p's repository points at, or "" when
// there is no such branch.
func (s *Service) branchHead(ctx context.Context, p *ent.Project, name string) (string, error) {
	if !refs.ValidBranchName(name) {
		return "", nil
	}
	repo, err := s.repos.Repository(p)
	if apperr.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	b, err := repo.Branch(ctx, name)
	if err != nil {
		if errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) ||
			errors.Is(err, git.ErrInvalidRefName) || errors.Is(err, git.ErrInvalidRevision) {
			return "", nil
		}
		return "", err
	}
	return string(b.Commit.ID), nil
}

// checkNoOtherOpen refuses a second open merge request with the same source and target
// branches (409, GitLab's validate_branches); self is the merge request being reopened or
// retargeted (0 when creating).
func (s *Service) checkNoOtherOpen(ctx context.Context, c *ent.Client, self, srcID int, source string, targetID int, target string) error {
	other, err := c.MergeRequest.Query().Where(mergerequest.ProjectID(targetID), mergerequest.SourceProjectID(srcID),
		mergerequest.SourceBranch(source), mergerequest.TargetBranch(target),
		mergerequest.StateEQ(mergerequest.StateOpened), mergerequest.IDNEQ(self)).
		Order(ent.Asc(mergerequest.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return apperr.ConflictMessages([]string{msgAnotherOpen + "!" + strconv.Itoa(other.Iid)})
}
