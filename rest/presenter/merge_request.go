package presenter

import (
	"encoding/json"
	"html"
	"strconv"

	"anvil/ent"
	"anvil/internal/service/mergerequests"
)

// MergeRequestBasic is GitLab's Entities::MergeRequestBasic: the list shape.
type MergeRequestBasic struct {
	ID                          int             `json:"id"`
	IID                         int             `json:"iid"`
	ProjectID                   int             `json:"project_id"`
	Title                       string          `json:"title"`
	Description                 *string         `json:"description"`
	State                       string          `json:"state"`
	CreatedAt                   Time            `json:"created_at"`
	UpdatedAt                   Time            `json:"updated_at"`
	MergedBy                    *UserBasic      `json:"merged_by"`
	MergeUser                   *UserBasic      `json:"merge_user"`
	MergedAt                    *Time           `json:"merged_at"`
	MergeAfter                  *Time           `json:"merge_after"`
	PreparedAt                  *Time           `json:"prepared_at"`
	ClosedBy                    *UserBasic      `json:"closed_by"`
	ClosedAt                    *Time           `json:"closed_at"`
	TitleHTML                   *string         `json:"title_html,omitempty"`
	DescriptionHTML             *string         `json:"description_html,omitempty"`
	TargetBranch                string          `json:"target_branch"`
	SourceBranch                string          `json:"source_branch"`
	UserNotesCount              int             `json:"user_notes_count"`
	Upvotes                     int             `json:"upvotes"`
	Downvotes                   int             `json:"downvotes"`
	Author                      *UserBasic      `json:"author"`
	Assignees                   []*UserBasic    `json:"assignees"`
	Assignee                    *UserBasic      `json:"assignee"`
	Reviewers                   []*UserBasic    `json:"reviewers"`
	SourceProjectID             *int            `json:"source_project_id"`
	TargetProjectID             int             `json:"target_project_id"`
	Labels                      any             `json:"labels"`
	Draft                       bool            `json:"draft"`
	Imported                    bool            `json:"imported"`
	ImportedFrom                string          `json:"imported_from"`
	WorkInProgress              bool            `json:"work_in_progress"`
	Milestone                   *Milestone      `json:"milestone"`
	MergeWhenPipelineSucceeds   bool            `json:"merge_when_pipeline_succeeds"`
	MergeStatus                 string          `json:"merge_status"`
	DetailedMergeStatus         string          `json:"detailed_merge_status"`
	SHA                         *string         `json:"sha"`
	MergeCommitSHA              *string         `json:"merge_commit_sha"`
	SquashCommitSHA             *string         `json:"squash_commit_sha"`
	DiscussionLocked            *bool           `json:"discussion_locked"`
	ShouldRemoveSourceBranch    *bool           `json:"should_remove_source_branch"`
	ForceRemoveSourceBranch     *bool           `json:"force_remove_source_branch"`
	AllowCollaboration          *bool           `json:"allow_collaboration,omitempty"`
	AllowMaintainerToPush       *bool           `json:"allow_maintainer_to_push,omitempty"`
	Reference                   string          `json:"reference"`
	References                  IssueReferences `json:"references"`
	WebURL                      string          `json:"web_url"`
	TimeStats                   TimeStats       `json:"time_stats"`
	Squash                      bool            `json:"squash"`
	SquashOnMerge               bool            `json:"squash_on_merge"`
	TaskCompletionStatus        TaskCompletion  `json:"task_completion_status"`
	HasConflicts                bool            `json:"has_conflicts"`
	BlockingDiscussionsResolved bool            `json:"blocking_discussions_resolved"`
	ApprovalsBeforeMerge        *int            `json:"approvals_before_merge"`
}

// MergeRequest is GitLab's Entities::MergeRequest: the single read, create and update shape.
type MergeRequest struct {
	MergeRequestBasic
	Subscribed                  *bool            `json:"subscribed,omitempty"`
	ChangesCount                *string          `json:"changes_count"`
	LatestBuildStartedAt        *json.RawMessage `json:"latest_build_started_at,omitempty"`
	LatestBuildFinishedAt       *json.RawMessage `json:"latest_build_finished_at,omitempty"`
	FirstDeployedToProductionAt *json.RawMessage `json:"first_deployed_to_production_at,omitempty"`
	Pipeline                    *json.RawMessage `json:"pipeline,omitempty"`
	HeadPipeline                *json.RawMessage `json:"head_pipeline,omitempty"`
	DiffRefs                    *DiffRefs        `json:"diff_refs"`
	MergeError                  *string          `json:"merge_error"`
	RebaseInProgress            *bool            `json:"rebase_in_progress,omitempty"`
	DivergedCommitsCount        *int             `json:"diverged_commits_count,omitempty"`
	FirstContribution           *bool            `json:"first_contribution,omitempty"`
	User                        MergeRequestUser `json:"user"`
}

// DiffRefs are the commits a diff version was taken between.
type DiffRefs struct {
	BaseSHA  *string `json:"base_sha"`
	HeadSHA  *string `json:"head_sha"`
	StartSHA *string `json:"start_sha"`
}

// MergeRequestUser is what the caller may do with the merge request.
type MergeRequestUser struct {
	CanMerge bool `json:"can_merge"`
}

// MergeRequestSimple is view=simple.
type MergeRequestSimple struct {
	ID          int     `json:"id"`
	IID         int     `json:"iid"`
	ProjectID   int     `json:"project_id"`
	Title       string  `json:"title"`
	Description *string `json:"description"`
	State       string  `json:"state"`
	CreatedAt   Time    `json:"created_at"`
	UpdatedAt   Time    `json:"updated_at"`
	WebURL      string  `json:"web_url"`
}

// MergeRequestOptions are the facts beside the merge request that its shapes show.
type MergeRequestOptions struct {
	// LabelDetails renders labels as objects (with_labels_details=true).
	LabelDetails bool
	// RenderHTML adds title_html and description_html (render_html=true on the single read).
	RenderHTML bool
	// UnresolvedBlockingDiscussions: the project requires resolved threads and some are not
	// (blocking_discussions_resolved false).
	UnresolvedBlockingDiscussions bool
	// DetailedMergeStatus overrides the stored-state status when the live checks computed one.
	DetailedMergeStatus string

	// The single read's facts: Subscribed (nil leaves it out), BuildsAvailable (the builds
	// feature for the caller: latest_build_*, pipeline), ReadPipeline (head_pipeline),
	// CanMerge, FirstContribution, and the opt-in DivergedCommitsCount and RebaseInProgress.
	Subscribed           *bool
	BuildsAvailable      bool
	ReadPipeline         bool
	CanMerge             bool
	FirstContribution    *bool
	DivergedCommitsCount *int
	RebaseInProgress     *bool
}

// mergeRequestPaths are a merge request's project path, API URL and reference.
func mergeRequestPaths(p *Presenter, mr *ent.MergeRequest) (projPath, web, ref string) {
	proj := mr.Edges.Project
	projPath = proj.Edges.Namespace.FullPath + "/" + proj.Path
	ref = "!" + strconv.Itoa(mr.Iid)
	return projPath, p.BaseURL + "/" + projPath + "/-/merge_requests/" + strconv.Itoa(mr.Iid), ref
}

// MergeRequestBasic renders a merge request loaded with mergerequests.Load in the list shape.
func (p *Presenter) MergeRequestBasic(mr *ent.MergeRequest, o MergeRequestOptions) *MergeRequestBasic {
	proj := mr.Edges.Project
	projPath, web, ref := mergeRequestPaths(p, mr)
	merged := mr.Edges.MergedBy
	mergeUser := merged
	if mergeUser == nil {
		mergeUser = mr.Edges.MergeUser
	}
	out := &MergeRequestBasic{
		ID: mr.ID, IID: mr.Iid, ProjectID: mr.ProjectID, Title: mr.Title, Description: mr.Description,
		State: string(mr.State), CreatedAt: Time(mr.CreatedAt), UpdatedAt: Time(mr.UpdatedAt),
		MergedBy: p.UserBasic(merged), MergeUser: p.UserBasic(mergeUser), MergedAt: TimePtr(mr.MergedAt),
		PreparedAt: TimePtr(mr.PreparedAt), ClosedBy: p.UserBasic(mr.Edges.ClosedBy), ClosedAt: TimePtr(mr.ClosedAt),
		TargetBranch: mr.TargetBranch, SourceBranch: mr.SourceBranch, UserNotesCount: mr.UserNotesCount,
		Author: p.UserBasic(mr.Edges.Author), Assignees: []*UserBasic{}, Reviewers: []*UserBasic{},
		SourceProjectID: mr.SourceProjectID, TargetProjectID: mr.ProjectID,
		Draft: mr.Draft, Imported: mr.Imported, ImportedFrom: "none", WorkInProgress: mr.Draft,
		MergeWhenPipelineSucceeds: mr.MergeWhenPipelineSucceeds,
		MergeStatus:               mergerequests.PublicMergeStatus(mr),
		DetailedMergeStatus:       mergerequests.DetailedMergeStatus(mr),
		SHA:                       mergeRequestSHA(mr), MergeCommitSHA: mr.MergeCommitSha, SquashCommitSHA: mr.SquashCommitSha,
		DiscussionLocked: mr.DiscussionLocked, ShouldRemoveSourceBranch: mr.ShouldRemoveSourceBranch,
		ForceRemoveSourceBranch: mr.ForceRemoveSourceBranch,
		Reference:               ref, References: IssueReferences{Short: ref, Relative: ref, Full: projPath + ref},
		WebURL: web, TimeStats: p.TimeStats(mr.TimeEstimate, mr.TotalTimeSpent),
		Squash: mr.Squash, SquashOnMerge: squashOnMerge(mr),
		TaskCompletionStatus:        TaskCompletionOf(mr.Description),
		HasConflicts:                mergerequests.CannotBeMerged(mr),
		BlockingDiscussionsResolved: !o.UnresolvedBlockingDiscussions,
		ApprovalsBeforeMerge:        mr.ApprovalsBeforeMerge,
	}
	if o.DetailedMergeStatus != "" {
		out.DetailedMergeStatus = o.DetailedMergeStatus
	}
	if o.RenderHTML {
		// GitLab renders the title on one line (no paragraph) and the description as Markdown.
		title, desc := html.EscapeString(mr.Title), descriptionHTML(deref(mr.Description))
		out.TitleHTML, out.DescriptionHTML = &title, &desc
	}
	if mr.Imported {
		out.ImportedFrom = "gitlab_project"
	}
	out.Upvotes, out.Downvotes = mergerequests.Votes(mr)
	if mr.SourceProjectID == nil || *mr.SourceProjectID != mr.ProjectID {
		// allow_collaboration is shown for merge requests from forks only.
		allow := mr.AllowCollaboration
		out.AllowCollaboration, out.AllowMaintainerToPush = &allow, &allow
	}
	if m := mr.Edges.Milestone; m != nil {
		out.Milestone = p.Milestone(m, milestoneOwnerPath(m, proj))
	}
	if o.LabelDetails {
		ls := make([]LabelDetail, 0, len(mr.Edges.LabelLinks))
		for _, l := range mr.Edges.LabelLinks {
			ls = append(ls, p.LabelDetail(l.Edges.Label))
		}
		out.Labels = ls
	} else {
		ls := make([]string, 0, len(mr.Edges.LabelLinks))
		for _, l := range mr.Edges.LabelLinks {
			ls = append(ls, l.Edges.Label.Title)
		}
		out.Labels = ls
	}
	for _, a := range mr.Edges.AssigneeLinks {
		out.Assignees = append(out.Assignees, p.UserBasic(a.Edges.User))
	}
	if len(out.Assignees) > 0 {
		out.Assignee = out.Assignees[0]
	}
	for _, r := range mr.Edges.ReviewerLinks {
		out.Reviewers = append(out.Reviewers, p.UserBasic(r.Edges.User))
	}
	return out
}

// mergeRequestSHA is GitLab's diff_head_sha: the head of the latest diff version, else the
// stored source branch head.
func mergeRequestSHA(mr *ent.MergeRequest) *string {
	if d := mergerequests.LatestDiff(mr); d != nil && d.HeadCommitSha != nil {
		return d.HeadCommitSha
	}
	return mr.Sha
}

// squashOnMerge is GitLab's squash_on_merge?: the target project's squash option decides
// when it is always or never, the merge request's squash otherwise.
func squashOnMerge(mr *ent.MergeRequest) bool {
	if proj := mr.Edges.Project; proj != nil {
		switch proj.SquashOption {
		case "always":
			return true
		case "never":
			return false
		}
	}
	return mr.Squash
}

var jsonNull = json.RawMessage("null")

// MergeRequest renders a merge request loaded with mergerequests.Load in the single shape.
func (p *Presenter) MergeRequest(mr *ent.MergeRequest, o MergeRequestOptions) *MergeRequest {
	out := &MergeRequest{
		MergeRequestBasic: *p.MergeRequestBasic(mr, o), Subscribed: o.Subscribed, MergeError: mr.MergeError,
		RebaseInProgress: o.RebaseInProgress, DivergedCommitsCount: o.DivergedCommitsCount,
		FirstContribution: o.FirstContribution, User: MergeRequestUser{CanMerge: o.CanMerge},
	}
	if d := mergerequests.LatestDiff(mr); d != nil {
		out.ChangesCount = d.RealSize
		out.DiffRefs = &DiffRefs{BaseSHA: d.BaseCommitSha, HeadSHA: d.HeadCommitSha, StartSHA: d.StartCommitSha}
	}
	if o.BuildsAvailable {
		null := jsonNull
		out.LatestBuildStartedAt, out.LatestBuildFinishedAt = &null, &null
		out.FirstDeployedToProductionAt, out.Pipeline = &null, &null
	}
	if o.ReadPipeline {
		null := jsonNull
		out.HeadPipeline = &null
	}
	return out
}

// MergeRequestSimple renders view=simple.
func (p *Presenter) MergeRequestSimple(mr *ent.MergeRequest) *MergeRequestSimple {
	_, web, _ := mergeRequestPaths(p, mr)
	return &MergeRequestSimple{
		ID: mr.ID, IID: mr.Iid, ProjectID: mr.ProjectID, Title: mr.Title, Description: mr.Description,
		State: string(mr.State), CreatedAt: Time(mr.CreatedAt), UpdatedAt: Time(mr.UpdatedAt), WebURL: web,
	}
}

// MergeRequests renders a list in the list shape (every merge request with the same options).
func (p *Presenter) MergeRequests(list []*ent.MergeRequest, o MergeRequestOptions) []*MergeRequestBasic {
	out := make([]*MergeRequestBasic, 0, len(list))
	for _, mr := range list {
		out = append(out, p.MergeRequestBasic(mr, o))
	}
	return out
}

// MergeRequestsSimple renders a list in view=simple.
func (p *Presenter) MergeRequestsSimple(list []*ent.MergeRequest) []*MergeRequestSimple {
	out := make([]*MergeRequestSimple, 0, len(list))
	for _, mr := range list {
		out = append(out, p.MergeRequestSimple(mr))
	}
	return out
}

// MergeRequestReviewer is GitLab's Entities::MergeRequestReviewer: a review request, the
// reviewer under user beside the review's state.
type MergeRequestReviewer struct {
	User      *UserBasic `json:"user"`
	State     string     `json:"state"`
	CreatedAt Time       `json:"created_at"`
}

// MergeRequestReviewers renders review requests loaded with their users.
func (p *Presenter) MergeRequestReviewers(list []*ent.MergeRequestReviewer) []*MergeRequestReviewer {
	out := make([]*MergeRequestReviewer, 0, len(list))
	for _, r := range list {
		out = append(out, &MergeRequestReviewer{User: p.UserBasic(r.Edges.User), State: r.State, CreatedAt: Time(r.CreatedAt)})
	}
	return out
}
