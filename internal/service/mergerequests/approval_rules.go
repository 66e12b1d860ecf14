package mergerequests

import (
	"context"
	"sort"
	"strconv"

	"anvil/ent"
	"anvil/ent/approvalrule"
	"anvil/ent/namespace"
	"anvil/ent/protectedbranch"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// The approval rule limits and names of GitLab's ApprovalRuleLike.
const (
	// ApprovalsRequiredMax is the most approvals a rule may require.
	ApprovalsRequiredMax = 100
	// AllMembersRuleName is the name GitLab gives the any_approver rule.
	AllMembersRuleName = "All Members"
)

// ApprovalRuleInput is the body of creating or updating a project or merge request approval
// rule; nil fields are not given (and left alone by an update).
type ApprovalRuleInput struct {
	Name              *string
	ApprovalsRequired *int
	// RuleType (rule_type) is regular, any_approver or report_approver (project rules);
	// without approvers a new rule is any_approver, as GitLab's CreateService makes it.
	RuleType   *string
	ReportType *string // report_type of a report_approver rule
	// UserIDs (user_ids, users), Usernames and GroupIDs (group_ids, groups) name the approvers:
	// users who are not members of the project and groups the actor cannot see are dropped
	// silently, as GitLab does.
	UserIDs   *[]int
	Usernames *[]string
	GroupIDs  *[]int
	// ProtectedBranchIDs scope a project rule to protected branches of the project (others
	// are dropped); AppliesToAllProtectedBranches scopes it to every protected branch.
	ProtectedBranchIDs            *[]int
	AppliesToAllProtectedBranches *bool
	// ApprovalProjectRuleID (merge request rules) is the project rule the rule is made from:
	// its name, and its users and groups unless approvers are given, are copied.
	ApprovalProjectRuleID *int
	// RemoveHiddenGroups drops, on update, the groups the actor cannot see (kept otherwise).
	RemoveHiddenGroups bool
}

// RuleView is an approval rule as the rules API shows it to an actor: its eligible approvers
// (its users and its groups' active members), the groups the actor may see, whether others
// are hidden, and the protected branches it applies to.
type RuleView struct {
	Rule *ent.ApprovalRule // users, groups, protected branches and source rule loaded
	// Eligible are the rule's approvers (GitLab's ApprovalRuleLike#approvers).
	Eligible []*ent.User
	// Groups are the rule's groups the actor may see; HiddenGroups tells whether it has others.
	Groups       []*ent.Namespace
	HiddenGroups bool
	// ProtectedBranches are the branches a project rule applies to: every protected branch of
	// the project when it applies to all of them; described for the presenter.
	ProtectedBranches []*ent.ProtectedBranch
	// SourceRule is the project rule a merge request rule was made from, with its users and
	// groups (overridden compares them).
	SourceRule *ent.ApprovalRule
}

// Overridden reports whether a merge request rule differs from its source rule in name,
// approvals required, users or groups (GitLab's ApprovalRuleLike#overridden?).
func (v *RuleView) Overridden() bool {
	src := v.SourceRule
	if src == nil {
		return false
	}
	r := v.Rule
	return src.Name != r.Name || src.ApprovalsRequired != r.ApprovalsRequired ||
		!sameIDs(userIDs(src.Edges.Users), userIDs(r.Edges.Users)) ||
		!sameIDs(groupIDs(src.Edges.Groups), groupIDs(r.Edges.Groups))
}

// ---- project rules ----

// projectForRules returns the project the actor reads the approval rules of: admin_project,
// or create_merge_request_in (GitLab's authorize_read_project_approval_rule!). write asks for
// admin_project. An invisible project is 404; a visible one without the ability 403.
func (a *Approvals) projectForRules(ctx context.Context, actor *authz.Actor, ref string, write bool) (*ent.Project, error) {
	proj, level, readable, err := a.mrs.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if err := authz.Check(actor, proj, level, readable, authz.ReadProject); err != nil {
		return nil, err
	}
	if authz.CanProject(actor, proj, level, authz.AdminProject) ||
		(!write && authz.CanProject(actor, proj, level, authz.CreateMergeRequestIn)) {
		return proj, nil
	}
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	return nil, apperr.Forbidden("")
}

// ProjectRules lists a project's approval rules, oldest first (GET /projects/:id/approval_rules).
func (a *Approvals) ProjectRules(ctx context.Context, actor *authz.Actor, ref string, page pagination.Offset) (pagination.Result[*RuleView], error) {
	proj, err := a.projectForRules(ctx, actor, ref, false)
	if err != nil {
		return pagination.Result[*RuleView]{}, err
	}
	c := db.ClientFrom(ctx, a.mrs.client)
	q := c.ApprovalRule.Query().Where(approvalrule.ProjectID(proj.ID), approvalrule.MergeRequestIDIsNil())
	return a.listRules(ctx, actor, proj, q, page)
}

// ProjectRule returns one project approval rule (GET /projects/:id/approval_rules/:id).
func (a *Approvals) ProjectRule(ctx context.Context, actor *authz.Actor, ref, id string) (*RuleView, error) {
	proj, err := a.projectForRules(ctx, actor, ref, false)
	if err != nil {
		return nil, err
	}
	r, err := a.projectRule(ctx, proj, id)
	if err != nil {
		return nil, err
	}
	return a.ruleView(ctx, actor, proj, r)
}

func (a *Approvals) projectRule(ctx context.Context, proj *ent.Project, idText string) (*ent.ApprovalRule, error) {
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, apperr.RecordNotFound()
	}
	r, err := loadRules(db.ClientFrom(ctx, a.mrs.client).ApprovalRule.Query().Where(approvalrule.ID(id),
		approvalrule.ProjectID(proj.ID), approvalrule.MergeRequestIDIsNil())).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return r, err
}

// CreateProjectRule adds a project approval rule (POST /projects/:id/approval_rules):
// Maintainer+ (admin_project).
func (a *Approvals) CreateProjectRule(ctx context.Context, actor *authz.Actor, ref string, in ApprovalRuleInput) (*RuleView, error) {
	proj, err := a.projectForRules(ctx, actor, ref, true)
	if err != nil {
		return nil, err
	}
	var id int
	err = db.WithTx(ctx, a.mrs.client, func(ctx context.Context, c *ent.Client) error {
		r, err := a.saveRule(ctx, c, actor, proj, nil, nil, in)
		if err == nil {
			id = r.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return a.ProjectRule(ctx, actor, ref, strconv.Itoa(id))
}

// UpdateProjectRule changes a project approval rule (PUT /projects/:id/approval_rules/:id).
func (a *Approvals) UpdateProjectRule(ctx context.Context, actor *authz.Actor, ref, id string, in ApprovalRuleInput) (*RuleView, error) {
	proj, err := a.projectForRules(ctx, actor, ref, true)
	if err != nil {
		return nil, err
	}
	r, err := a.projectRule(ctx, proj, id)
	if err != nil {
		return nil, err
	}
	err = db.WithTx(ctx, a.mrs.client, func(ctx context.Context, c *ent.Client) error {
		_, err := a.saveRule(ctx, c, actor, proj, nil, r, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a.ProjectRule(ctx, actor, ref, id)
}

// DeleteProjectRule removes a project approval rule (DELETE /projects/:id/approval_rules/:id);
// the merge request rules made from it lose their source rule.
func (a *Approvals) DeleteProjectRule(ctx context.Context, actor *authz.Actor, ref, id string) error {
	proj, err := a.projectForRules(ctx, actor, ref, true)
	if err != nil {
		return err
	}
	r, err := a.projectRule(ctx, proj, id)
	if err != nil {
		return err
	}
	return db.WithTx(ctx, a.mrs.client, func(ctx context.Context, c *ent.Client) error {
		if err := c.ApprovalRule.Update().Where(approvalrule.ApprovalProjectRuleID(r.ID)).
			ClearApprovalProjectRuleID().Exec(ctx); err != nil {
			return err
		}
		return c.ApprovalRule.DeleteOneID(r.ID).Exec(ctx)
	})
}

// ---- merge request rules ----

// MergeRequestRules lists a merge request's own approval rules (GET
// .../merge_requests/:iid/approval_rules): readers of the merge request. A merge request without
// rules of its own follows its project's (GitLab lists none here then).
func (a *Approvals) MergeRequestRules(ctx context.Context, actor *authz.Actor, ref, iid string, page pagination.Offset) (pagination.Result[*RuleView], error) {
	mr, _, err := a.mrs.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return pagination.Result[*RuleView]{}, err
	}
	c := db.ClientFrom(ctx, a.mrs.client)
	q := c.ApprovalRule.Query().Where(approvalrule.MergeRequestID(mr.ID))
	return a.listRules(ctx, actor, mr.Edges.Project, q, page)
}

// listRules is one page of the rules q selects, oldest first, as actor sees them in proj.
func (a *Approvals) listRules(ctx context.Context, actor *authz.Actor, proj *ent.Project, q *ent.ApprovalRuleQuery, page pagination.Offset) (pagination.Result[*RuleView], error) {
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return pagination.Result[*RuleView]{}, err
	}
	rules, err := loadRules(q).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return pagination.Result[*RuleView]{}, err
	}
	views, err := a.ruleViews(ctx, actor, proj, rules)
	if err != nil {
		return pagination.Result[*RuleView]{}, err
	}
	return pagination.OffsetResult(views, total, page), nil
}

// MergeRequestRule returns one of a merge request's approval rules.
func (a *Approvals) MergeRequestRule(ctx context.Context, actor *authz.Actor, ref, iid, id string) (*RuleView, error) {
	mr, _, err := a.mrs.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	r, err := a.mergeRequestRule(ctx, mr, id)
	if err != nil {
		return nil, err
	}
	return a.ruleView(ctx, actor, mr.Edges.Project, r)
}

func (a *Approvals) mergeRequestRule(ctx context.Context, mr *ent.MergeRequest, idText string) (*ent.ApprovalRule, error) {
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, apperr.RecordNotFound()
	}
	r, err := loadRules(db.ClientFrom(ctx, a.mrs.client).ApprovalRule.Query().Where(approvalrule.ID(id),
		approvalrule.MergeRequestID(mr.ID))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return r, err
}

// mergeRequestForRules finds the merge request whose rules the actor changes: GitLab's
// update_approvers, that is update_merge_request (Developer+, the author, an assignee) while
// the project lets merge requests override their approvers; 403 otherwise.
func (a *Approvals) mergeRequestForRules(ctx context.Context, actor *authz.Actor, ref, iid string) (*ent.MergeRequest, error) {
	mr, _, err := a.mrs.Find(ctx, actor, ref, iid, authz.UpdateMergeRequest)
	if err != nil {
		return nil, err
	}
	if mr.Edges.Project.DisableOverridingApproversPerMergeRequest {
		return nil, apperr.Forbidden("")
	}
	return mr, nil
}

// CreateMergeRequestRule adds an approval rule to a merge request (POST
// .../merge_requests/:iid/approval_rules); from then on its own rules replace the project's.
func (a *Approvals) CreateMergeRequestRule(ctx context.Context, actor *authz.Actor, ref, iid string, in ApprovalRuleInput) (*RuleView, error) {
	mr, err := a.mergeRequestForRules(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	in.RuleType, in.ReportType, in.ProtectedBranchIDs, in.AppliesToAllProtectedBranches = nil, nil, nil, nil
	var id int
	err = db.WithTx(ctx, a.mrs.client, func(ctx context.Context, c *ent.Client) error {
		r, err := a.saveRule(ctx, c, actor, mr.Edges.Project, mr, nil, in)
		if err == nil {
			id = r.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return a.MergeRequestRule(ctx, actor, ref, iid, strconv.Itoa(id))
}

// UpdateMergeRequestRule changes one of a merge request's approval rules.
func (a *Approvals) UpdateMergeRequestRule(ctx context.Context, actor *authz.Actor, ref, iid, id string, in ApprovalRuleInput) (*RuleView, error) {
	mr, err := a.mergeRequestForRules(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	r, err := a.mergeRequestRule(ctx, mr, id)
	if err != nil {
		return nil, err
	}
	in.RuleType, in.ReportType, in.ProtectedBranchIDs, in.AppliesToAllProtectedBranches, in.ApprovalProjectRuleID = nil, nil, nil, nil, nil
	err = db.WithTx(ctx, a.mrs.client, func(ctx context.Context, c *ent.Client) error {
		_, err := a.saveRule(ctx, c, actor, mr.Edges.Project, mr, r, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a.MergeRequestRule(ctx, actor, ref, iid, id)
}

// DeleteMergeRequestRule removes one of a merge request's approval rules; only regular and
// any_approver rules may be removed (400 otherwise, as GitLab's MergeRequestRuleDestroyService).
func (a *Approvals) DeleteMergeRequestRule(ctx context.Context, actor *authz.Actor, ref, iid, id string) error {
	mr, err := a.mergeRequestForRules(ctx, actor, ref, iid)
	if err != nil {
		return err
	}
	r, err := a.mergeRequestRule(ctx, mr, id)
	if err != nil {
		return err
	}
	if r.RuleType != approvalrule.RuleTypeRegular && r.RuleType != approvalrule.RuleTypeAnyApprover {
		return apperr.Refused("Only user-defined rules can be deleted")
	}
	return db.ClientFrom(ctx, a.mrs.client).ApprovalRule.DeleteOneID(r.ID).Exec(ctx)
}

// ---- saving ----

// saveRule validates in and creates (old nil) or updates a rule of proj, or of mr when given,
// in the transaction of c. Errors are GitLab's: 400 with the messages by attribute.
func (a *Approvals) saveRule(ctx context.Context, c *ent.Client, actor *authz.Actor, proj *ent.Project, mr *ent.MergeRequest, old *ent.ApprovalRule, in ApprovalRuleInput) (*ent.ApprovalRule, error) {
	creating := old == nil
	// The attributes as they will be.
	name, required, ruleType, reportType := "", 0, approvalrule.RuleTypeRegular, (*string)(nil)
	var sourceID *int
	if !creating {
		name, required, ruleType, reportType, sourceID = old.Name, old.ApprovalsRequired, old.RuleType, old.ReportType, old.ApprovalProjectRuleID
	}
	var users, groups, branches []int
	usersSet := in.UserIDs != nil || in.Usernames != nil
	if creating && mr != nil && in.ApprovalProjectRuleID != nil {
		// The project rule to copy: the name, and the approvers unless given.
		src, err := loadRules(c.ApprovalRule.Query().Where(approvalrule.ID(*in.ApprovalProjectRuleID),
			approvalrule.MergeRequestIDIsNil())).Only(ctx)
		switch {
		case ent.IsNotFound(err):
		case err != nil:
			return nil, err
		case src.ProjectID != proj.ID:
			return nil, apperr.FieldError("approval_project_rule", "must be for the same project")
		default:
			id := src.ID
			sourceID = &id
			in.Name = &src.Name
			if !usersSet && in.GroupIDs == nil {
				u, g := userIDs(src.Edges.Users), groupIDs(src.Edges.Groups)
				in.UserIDs, in.GroupIDs = &u, &g
				usersSet = true
			}
		}
	}
	if in.Name != nil {
		name = *in.Name
	}
	if in.ApprovalsRequired != nil {
		required = *in.ApprovalsRequired
	}
	if in.ReportType != nil {
		rt := *in.ReportType
		reportType = &rt
	}
	// Approvers: users who are members of the project, groups the actor sees.
	if usersSet {
		ids, err := a.projectMembersAmong(ctx, c, proj, in.UserIDs, in.Usernames)
		if err != nil {
			return nil, err
		}
		users = ids
	} else if !creating {
		users = userIDs(old.Edges.Users)
	}
	if in.GroupIDs != nil {
		ids, err := a.visibleGroupsAmong(ctx, c, actor, *in.GroupIDs)
		if err != nil {
			return nil, err
		}
		if !creating && !in.RemoveHiddenGroups {
			// Hidden groups are never sent back by clients: keep them.
			_, hidden, err := a.splitGroups(ctx, actor, old.Edges.Groups)
			if err != nil {
				return nil, err
			}
			ids = append(ids, groupIDs(hidden)...)
		}
		groups = ids
	} else if !creating {
		groups = groupIDs(old.Edges.Groups)
	}
	if in.RuleType != nil {
		switch *in.RuleType {
		case "regular", "any_approver", "report_approver":
			ruleType = approvalrule.RuleType(*in.RuleType)
		default:
			return nil, apperr.NotAllowedValue("rule_type")
		}
	} else if creating && len(users) == 0 && len(groups) == 0 {
		// GitLab's handle_any_approver_rule_creation: a rule without approvers is any_approver.
		ruleType = approvalrule.RuleTypeAnyApprover
	}
	if mr == nil && in.ProtectedBranchIDs != nil {
		ids, err := c.ProtectedBranch.Query().Where(protectedbranch.IDIn(*in.ProtectedBranchIDs...),
			protectedbranch.ProjectID(proj.ID)).Order(protectedbranch.ByID()).IDs(ctx)
		if err != nil {
			return nil, err
		}
		branches = ids
	}
	// Validation, GitLab's ApprovalRuleLike, ApprovalProjectRule and ApprovalMergeRequestRule.
	fields := map[string][]string{}
	add := func(f, msg string) { fields[f] = append(fields[f], msg) }
	if name == "" {
		add("name", "can't be blank")
	}
	if required < 0 {
		add("approvals_required", "must be greater than or equal to 0")
	} else if required > ApprovalsRequiredMax {
		add("approvals_required", "must be less than or equal to "+strconv.Itoa(ApprovalsRequiredMax))
	}
	if ruleType == approvalrule.RuleTypeReportApprover && (reportType == nil || *reportType == "") {
		add("report_type", "can't be blank")
	}
	if reportType != nil && *reportType != "" {
		switch *reportType {
		case "license_scanning", "code_coverage":
		default:
			add("report_type", "is not included in the list")
		}
	}
	scope := func() *ent.ApprovalRuleQuery {
		q := c.ApprovalRule.Query().Where(approvalrule.ProjectID(proj.ID))
		if mr != nil {
			q.Where(approvalrule.MergeRequestID(mr.ID), approvalrule.SectionIsNil())
		} else {
			q.Where(approvalrule.MergeRequestIDIsNil())
		}
		if !creating {
			q.Where(approvalrule.IDNEQ(old.ID))
		}
		return q
	}
	if name != "" {
		taken, err := scope().Where(approvalrule.Name(name), approvalrule.RuleTypeEQ(ruleType)).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if taken {
			add("name", "has already been taken")
		}
	}
	if ruleType == approvalrule.RuleTypeAnyApprover {
		taken, err := scope().Where(approvalrule.RuleTypeEQ(approvalrule.RuleTypeAnyApprover)).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if taken {
			what := "project"
			if mr != nil {
				what = "merge request"
			}
			add("rule_type", "any-approver for the "+what+" already exists")
		}
	}
	if len(fields) > 0 {
		return nil, apperr.Validation(fields)
	}
	if creating {
		create := c.ApprovalRule.Create().SetProjectID(proj.ID).SetName(name).SetRuleType(ruleType).
			SetApprovalsRequired(required).SetNillableReportType(reportType).
			AddUserIDs(users...).AddGroupIDs(groups...).AddProtectedBranchIDs(branches...)
		if mr != nil {
			create.SetMergeRequestID(mr.ID).SetNillableApprovalProjectRuleID(sourceID)
		} else if in.AppliesToAllProtectedBranches != nil {
			create.SetAppliesToAllProtectedBranches(*in.AppliesToAllProtectedBranches)
		}
		return create.Save(ctx)
	}
	update := c.ApprovalRule.UpdateOneID(old.ID).SetName(name).SetRuleType(ruleType).SetApprovalsRequired(required).
		SetNillableReportType(reportType).ClearUsers().AddUserIDs(users...).ClearGroups().AddGroupIDs(groups...)
	if mr == nil {
		if in.ProtectedBranchIDs != nil {
			update.ClearProtectedBranches().AddProtectedBranchIDs(branches...)
		}
		if in.AppliesToAllProtectedBranches != nil {
			update.SetAppliesToAllProtectedBranches(*in.AppliesToAllProtectedBranches)
		}
	}
	return update.Save(ctx)
}

// projectMembersAmong returns, by id, the users named by ids or usernames who are members of
// the project (GitLab's members_among): the others are dropped.
func (a *Approvals) projectMembersAmong(ctx context.Context, c *ent.Client, proj *ent.Project, ids *[]int, names *[]string) ([]int, error) {
	var ps []*ent.User
	var err error
	switch {
	case ids != nil && len(*ids) > 0 && names != nil && len(*names) > 0:
		ps, err = c.User.Query().Where(user.Or(user.IDIn(*ids...), user.UsernameIn(*names...))).All(ctx)
	case ids != nil && len(*ids) > 0:
		ps, err = c.User.Query().Where(user.IDIn(*ids...)).All(ctx)
	case names != nil && len(*names) > 0:
		ps, err = c.User.Query().Where(user.UsernameIn(*names...)).All(ctx)
	}
	if err != nil {
		return nil, err
	}
	out := []int{}
	for _, u := range ps {
		level, err := a.mrs.policy.ProjectAccess(ctx, &authz.Actor{User: u}, proj)
		if err != nil {
			return nil, err
		}
		if level >= authz.Guest {
			out = append(out, u.ID)
		}
	}
	sort.Ints(out)
	return out, nil
}

// visibleGroupsAmong returns the ids of the groups the actor may see among ids.
func (a *Approvals) visibleGroupsAmong(ctx context.Context, c *ent.Client, actor *authz.Actor, ids []int) ([]int, error) {
	if len(ids) == 0 {
		return []int{}, nil
	}
	visible, err := a.mrs.policy.VisibleGroups(ctx, actor)
	if err != nil {
		return nil, err
	}
	return c.Namespace.Query().Where(namespace.IDIn(ids...), namespace.KindEQ(namespace.KindGroup), visible).
		Order(namespace.ByID()).IDs(ctx)
}

// splitGroups separates the groups the actor may see from the hidden ones.
func (a *Approvals) splitGroups(ctx context.Context, actor *authz.Actor, gs []*ent.Namespace) (shown, hidden []*ent.Namespace, err error) {
	if len(gs) == 0 {
		return nil, nil, nil
	}
	ids, err := a.visibleGroupsAmong(ctx, db.ClientFrom(ctx, a.mrs.client), actor, groupIDs(gs))
	if err != nil {
		return nil, nil, err
	}
	ok := map[int]bool{}
	for _, id := range ids {
		ok[id] = true
	}
	for _, g := range gs {
		if ok[g.ID] {
			shown = append(shown, g)
		} else {
			hidden = append(hidden, g)
		}
	}
	return shown, hidden, nil
}

// ---- views ----

func (a *Approvals) ruleViews(ctx context.Context, actor *authz.Actor, proj *ent.Project, rules []*ent.ApprovalRule) ([]*RuleView, error) {
	out := make([]*RuleView, 0, len(rules))
	for _, r := range rules {
		v, err := a.ruleView(ctx, actor, proj, r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// ruleView builds the RuleView of r (loaded with loadRules).
func (a *Approvals) ruleView(ctx context.Context, actor *authz.Actor, proj *ent.Project, r *ent.ApprovalRule) (*RuleView, error) {
	c := db.ClientFrom(ctx, a.mrs.client)
	v := &RuleView{Rule: r}
	var err error
	if v.Eligible, err = eligibleApprovers(ctx, c, r); err != nil {
		return nil, err
	}
	var hidden []*ent.Namespace
	if v.Groups, hidden, err = a.splitGroups(ctx, actor, r.Edges.Groups); err != nil {
		return nil, err
	}
	v.HiddenGroups = len(hidden) > 0
	if v.HiddenGroups {
		show, err := a.showsApprovers(ctx, actor, proj)
		if err != nil {
			return nil, err
		}
		if !show {
			v.Eligible = nil
		}
	}
	if r.MergeRequestID == nil {
		v.ProtectedBranches = r.Edges.ProtectedBranches
		if r.AppliesToAllProtectedBranches {
			if v.ProtectedBranches, err = c.ProtectedBranch.Query().Where(protectedbranch.ProjectID(proj.ID)).
				Order(protectedbranch.ByID()).All(ctx); err != nil {
				return nil, err
			}
		}
		if err := a.mrs.protected.Describe(ctx, v.ProtectedBranches...); err != nil {
			return nil, err
		}
	}
	v.SourceRule = r.Edges.SourceRule
	return v, nil
}

// showsApprovers reports whether the actor sees the eligible approvers of a rule with groups
// hidden from it: only members of the project do, who see its members anyway (GitLab's
// ApprovalRulePresenter); others would learn the hidden groups' members.
func (a *Approvals) showsApprovers(ctx context.Context, actor *authz.Actor, proj *ent.Project) (bool, error) {
	level, err := a.mrs.policy.ProjectAccess(ctx, actor, proj)
	return level >= authz.Guest, err
}

func userIDs(us []*ent.User) []int {
	out := make([]int, 0, len(us))
	for _, u := range us {
		out = append(out, u.ID)
	}
	return out
}

func groupIDs(gs []*ent.Namespace) []int {
	out := make([]int, 0, len(gs))
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func sameIDs(a, b []int) bool {
	set := map[int]bool{}
	for _, x := range a {
		set[x] = true
	}
	other := map[int]bool{}
	for _, x := range b {
		if !set[x] {
			return false
		}
		other[x] = true
	}
	return len(other) == len(set)
}
