// Package service wires the domain services together. Each sub-package owns one domain's
// operations; rest/ and graph/ call them and nothing below them.
package service

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sort"
	"time"

	"anvil/ent"
	"anvil/internal/authban"
	"anvil/internal/authz"
	"anvil/internal/config"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/git/storage"
	"anvil/internal/jobs"
	"anvil/internal/registry"
	"anvil/internal/secretbox"
	"anvil/internal/service/awardemoji"
	"anvil/internal/service/branches"
	"anvil/internal/service/clientauth"
	"anvil/internal/service/commits"
	"anvil/internal/service/containerregistry"
	"anvil/internal/service/epics"
	"anvil/internal/service/events"
	"anvil/internal/service/events/issueevents"
	"anvil/internal/service/events/mrevents"
	"anvil/internal/service/forks"
	"anvil/internal/service/groups"
	"anvil/internal/service/issues"
	"anvil/internal/service/labels"
	"anvil/internal/service/members"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/mergerequests/versions"
	"anvil/internal/service/milestones"
	"anvil/internal/service/namespaces"
	"anvil/internal/service/notes"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/repofiles"
	"anvil/internal/service/repos"
	"anvil/internal/service/resourceevents"
	"anvil/internal/service/resourceevents/mrobserver"
	"anvil/internal/service/settings"
	"anvil/internal/service/snippets"
	"anvil/internal/service/stars"
	"anvil/internal/service/statistics"
	"anvil/internal/service/storagemoves"
	"anvil/internal/service/tags"
	"anvil/internal/service/timetracking"
	"anvil/internal/service/todos"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
	"anvil/internal/service/webhooks"
)

// Services is every domain service of one server.
type Services struct {
	Config   config.Config
	DB       *db.DB
	Log      *slog.Logger
	Policy   *authz.Policy
	Settings *settings.Service
	Users    *users.Service
	Tokens   *tokens.Service
	// ClientAuth authenticates git and container registry clients (tokens, passwords and the
	// failed-authentication ban).
	ClientAuth *clientauth.Service
	Groups     *groups.Service
	Projects   *projects.Service
	Members    *members.Service
	Repos      *repos.Service
	Git        *git.Client
	// ProtectedBranches holds branch protection and the ref update checks.
	ProtectedBranches *protectedbranches.Service
	// Commits lists, reads and writes commits (REST and GraphQL share it).
	Commits *commits.Service
	// Branches, Tags and Forks manage a repository's refs and a project's forks.
	Branches *branches.Service
	Tags     *tags.Service
	Forks    *forks.Service
	// Files reads trees, blobs, archives, comparisons and files, and commits file changes.
	Files *repofiles.Service
	// Registry is the embedded container registry; ContainerRegistry its operations.
	Registry          *registry.Registry
	ContainerRegistry *containerregistry.Service
	// Namespaces lists and finds namespaces (groups and personal namespaces together).
	Namespaces *namespaces.Service
	// Stars stars and unstars projects and lists who starred one.
	Stars *stars.Service
	// Statistics computes projects' and groups' storage statistics from their repositories.
	Statistics *statistics.Service
	// Events lists and prunes the activity feed (every domain records into it with
	// events.Record inside its own transaction).
	Events *events.Service
	// Issues lists, reads and changes issues.
	Issues *issues.Service
	// TimeTracking is the time tracking of issues and merge requests.
	TimeTracking *timetracking.Service
	// MergeRequests lists, reads and changes merge requests.
	MergeRequests *mergerequests.Service
	// ResourceEvents reads the state, label and milestone events of issues and merge requests.
	ResourceEvents *resourceevents.Service
	// Approvals holds merge request approvals: project settings and rules, approving.
	Approvals *mergerequests.Approvals
	// AwardEmoji lists, adds and removes emoji reactions on every registered awardable.
	AwardEmoji *awardemoji.Service
	// Notes holds the notes and discussions of every noteable (issues, ...).
	Notes *notes.Service
	// Labels manages project and group labels.
	Labels *labels.Service
	// Milestones manages project and group milestones.
	Milestones *milestones.Service
	// Todos lists and resolves the users' to-do items (its Recorder creates them).
	Todos *todos.Service
	// Snippets holds personal and project snippets and their repositories.
	Snippets *snippets.Service
	// Epics manages groups' epics and their trees.
	Epics *epics.Service
	// StorageMoves moves projects' repositories between storages (repository_storage).
	StorageMoves *storagemoves.Service
	// Webhooks manages system, group and project hooks and delivers events to them.
	Webhooks *webhooks.Service
	// Jobs is the durable background job queue (started by the server, see jobs.go).
	Jobs *jobs.Queue
	// MergeRequestVersions records and reads merge requests' diff versions.
	MergeRequestVersions *versions.Service
}

// New builds the services over an open database and the git client; hasher hashes and checks
// account passwords.
func New(ctx context.Context, cfg config.Config, d *db.DB, log *slog.Logger, hasher users.Hasher) (*Services, error) {
	policy := authz.New(d.Client)
	storageNames := make([]string, 0, len(cfg.RepositoryStorages))
	for name := range cfg.RepositoryStorages {
		storageNames = append(storageNames, name)
	}
	sort.Strings(storageNames)
	st := settings.New(d.Client, storageNames...)
	home := filepath.Join(cfg.DataDir, "git-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("git home: %w", err)
	}
	gitClient, err := git.New(ctx, git.Config{HomeDir: home})
	if err != nil {
		return nil, fmt.Errorf("git: %w", err)
	}
	weights, err := st.StorageWeights(ctx)
	if err != nil {
		_ = gitClient.Close()
		return nil, err
	}
	for name := range weights {
		if _, ok := cfg.RepositoryStorages[name]; !ok {
			delete(weights, name) // a storage no longer configured gets nothing
		}
	}
	stor, err := storage.New(gitClient, storage.Config{Roots: cfg.RepositoryStorages, Weights: weights})
	if err != nil {
		_ = gitClient.Close()
		return nil, fmt.Errorf("repository storage: %w", err)
	}

	// Every service gets its collaborators when it is built (each constructor panics on a
	// missing one). The one cycle: projects are found through the project service by the
	// domains its lifecycle calls back (repositories, branch protection), so the project
	// service is built first and completed once those exist.
	q := jobs.New(d, cfg.DatabaseURL, jobs.Config{Workers: cfg.Jobs.Workers, PollInterval: cfg.Jobs.PollInterval,
		JobTimeout: cfg.Jobs.Timeout, RescueAfter: cfg.Jobs.RescueAfter}, log)
	p := projects.New(d.Client, policy, st)
	// Webhooks are built early: repositories (pushes), issues and the ent hooks of system
	// events call them; groups and repositories complete them.
	box, err := secretbox.Load(cfg.DataDir)
	if err != nil {
		_ = gitClient.Close()
		return nil, err
	}
	hooks := webhooks.New(webhooks.Deps{Client: d.Client, Policy: policy, Projects: p, Settings: st,
		Jobs: q, Log: log, Secrets: box, ExternalURL: cfg.ExternalURL})
	// Hooks written before their URLs and tokens were encrypted are sealed now, row by row.
	if err := hooks.EncryptAtRest(ctx); err != nil {
		_ = gitClient.Close()
		return nil, err
	}
	pb := protectedbranches.New(d.Client, policy, p, st, cfg.ExternalURL)
	// Observers of pushes, each on its own line.
	pushObservers := repos.PushObservers{
		hooks,                                 // webhooks
		versions.NewPushObserver(d.Client, q), // merge requests' diff versions and merge status
	}
	r := repos.New(repos.Deps{
		Client: d.Client, Policy: policy, Projects: p, Settings: st,
		Git: gitClient, Storage: stor, Log: log, Protected: pb, Jobs: q, Pushes: pushObservers,
	})
	mrVersions := versions.New(versions.Deps{Client: d.Client, Repos: r, Settings: st, Jobs: q, Log: log})
	// A group deletion removes its projects through the repository service, which deletes
	// their repositories only after the deletion commits.
	g := groups.New(d.Client, policy, st, r)
	u := users.New(d.Client, st, p, hasher) // a deleted user's projects go through the project domain
	mem := members.New(d.Client, policy, g, p)
	reg, err := registry.New(ctx, registry.Config{
		Dir: filepath.Join(cfg.DataDir, "registry"), BlobStorageURL: cfg.BlobStorageURL,
		Realm: cfg.ExternalURL + "/jwt/auth", NotifyURL: loopbackURL(cfg.Listen) + registry.EventsPath,
		Auth: true, Log: log,
	})
	if err != nil {
		_ = gitClient.Close()
		return nil, err
	}
	cr := containerregistry.New(d.Client, containerregistry.Deps{
		Policy: policy, Projects: p, Groups: g, Settings: st, Registry: reg, Jobs: q, Log: log,
		RegistryHost: cfg.RegistryHost(), ExternalURL: cfg.ExternalURL,
	})
	// Storage moves are jobs on the queue, scheduled in the transaction that records them.
	moves := storagemoves.New(storagemoves.Deps{
		Client: d.Client, Projects: p, Storage: stor, Scheduler: storagemoves.JobScheduler{Jobs: q}, Log: log,
	})
	r.SetSweepGrace(cfg.Jobs.SweepGrace)
	ev := events.New(d.Client, policy, p, u)
	nt := notes.New(d.Client)
	awards := awardemoji.New(d.Client, awardemoji.NewRegistry())
	sn := snippets.New(snippets.Deps{Client: d.Client, Policy: policy, Projects: p, Settings: st, Storage: stor, Jobs: q, Log: log,
		// a deleted snippet's awards (its notes' too) and notes go with it
		Observer: snippets.Observers{awards, notes.NewSnippetObserver(nt)}})
	hooks.Complete(webhooks.Later{Groups: g, Repos: r, Protected: pb, SnippetContent: func(ctx context.Context, s *ent.Snippet) (string, error) {
		f, err := sn.Raw(ctx, s)
		if err != nil {
			return "", err
		}
		return string(f.Data), nil
	}})
	todoRecorder := todos.NewRecorder(d.Client, policy, q)
	mem.Observe(todoRecorder) // to-dos of those who leave a project or group
	registerJobs(q, r, cr, moves, ev, sn, hooks, mrVersions, todoRecorder)
	p.Complete(projects.Later{Repos: r, OnDelete: []projects.DeleteHook{pb.OnProjectDelete, cr.OnProjectDelete, sn.OnProjectDelete},
		OnChange:     []projects.ChangeHook{hooks.ProjectChanged}, // system hooks
		StorageMoves: moves})
	// Observers of issue changes, each on its own line (events, system notes, to-dos, hooks).
	nt.Observe(todoRecorder.NotesObserver()) // to-dos of comments' mentions
	nt.Observe(hooks.NoteObserver())         // comment hooks
	awards.Observe(hooks.EmojiObserver())    // emoji hooks
	issueObservers := issues.Observers{
		awards,                                  // a destroyed issue's awards and its notes' go with it (before the notes)
		notes.NewIssueObserver(nt),              // system notes
		issueevents.New(d.Client),               // activity events
		todoRecorder,                            // to-dos
		timetracking.NewIssueObserver(d.Client), // a destroyed issue's timelogs go with it
		hooks.IssueObserver(),                   // webhooks
	}
	iss := issues.New(d.Client, policy, p, g, issueObservers)
	// Noteables, each on its own line: their domains find them for the notes domain.
	nt.Register(notes.TypeIssue, notes.NewIssueNoteable(d.Client, iss))
	nt.Register(notes.TypeSnippet, notes.NewSnippetNoteable(sn))
	tt := timetracking.New(d.Client, nt, st)
	tt.Register(timetracking.TypeIssue, timetracking.NewIssueTrackable(iss))
	ep := epics.New(d.Client, policy, g, iss, nt)
	ep.Observe(todoRecorder) // to-dos of epics' mentions
	nt.Register(notes.TypeEpic, ep.Noteable())
	cm := commits.New(d.Client, policy, p, r, pb, cfg.ExternalURL) // commits honour branch protection
	nt.Register(notes.TypeCommit, cm.Noteable())
	nt.RegisterDiffs(notes.TypeCommit, cm.NoteDiffs()) // diff notes on commits
	// Observers of merge request changes, each on its own line (events, system notes, to-dos,
	// diff versions, hooks).
	mrVersions.OnCommitsAdded(mrVersions.CommitsNote(nt)) // "added N commits" system notes
	mrObservers := mergerequests.Observers{
		mrVersions.Observer(),             // the first diff version (first: the others see it)
		awards,                            // a destroyed merge request's awards and its notes' go with it (before the notes)
		mrobserver.New(d.Client),          // resource events (state, labels, milestone)
		notes.NewMergeRequestObserver(nt), // system notes
		mrevents.New(d.Client),            // activity events
		todoRecorder,                      // to-dos
		timetracking.NewMergeRequestObserver(d.Client), // a destroyed merge request's timelogs go with it
		hooks.MergeRequestObserver(),                   // webhooks
	}
	mrs := mergerequests.New(mergerequests.Deps{Client: d.Client, Policy: policy, Projects: p, Groups: g, Issues: iss,
		Repos: r, Protected: pb, Observer: mrObservers})
	nt.Register(notes.TypeMergeRequest, notes.NewMergeRequestNoteable(d.Client, mrs))
	approvals := mergerequests.NewApprovals(mrs, notes.NewMergeRequestSystemNotes(nt))
	mrVersions.OnVersionAdded(approvals.ResetOnPush)        // approvals reset on push (reset_approvals_on_push)
	mrVersions.OnMergedByPush(mrs.MergedByPush)             // merge requests merged by a push to their target
	todoRecorder.UseApprovers(approvals)                    // "approval_required" to-dos
	approvals.OnApproved(todoRecorder.MergeRequestApproved) // an approval marks the approver's to-dos done
	// Issuables with resource events, each on its own line: their domains find them.
	rev := resourceevents.New(d.Client)
	rev.Register(resourceevents.TypeIssue, iss.EventIssuable)
	rev.Register(resourceevents.TypeMergeRequest, mrs.EventIssuable)
	rev.Register(resourceevents.TypeEpic, ep.EventIssuable)
	tt.Register(timetracking.TypeMergeRequest, timetracking.NewMergeRequestTrackable(mrs))
	nt.RegisterDiffs(notes.TypeMergeRequest, cm.NoteDiffs()) // diff notes on merge requests
	// Awardables, each on its own line: their domains find them for the award emoji domain.
	awards.Registry().Register(awardemoji.IssueKind, awardemoji.Issues(iss))
	awards.Registry().Register(awardemoji.IssueNoteKind, awardemoji.IssueNotes(nt))
	awards.Registry().Register(awardemoji.SnippetKind, awardemoji.Noteables(nt, notes.TypeSnippet))
	awards.Registry().Register(awardemoji.SnippetNoteKind, awardemoji.NotesOn(nt, notes.TypeSnippet))
	awards.Registry().Register(awardemoji.EpicKind, awardemoji.Noteables(nt, notes.TypeEpic))
	awards.Registry().Register(awardemoji.EpicNoteKind, awardemoji.NotesOn(nt, notes.TypeEpic))
	awards.Registry().Register(awardemoji.MergeRequestKind, awardemoji.MergeRequests(mrs))
	awards.Registry().Register(awardemoji.MergeRequestNoteKind, awardemoji.MergeRequestNotes(nt))
	tok := tokens.New(d.Client, st, tokens.Deps{
		Users: u, Policy: policy, Projects: p, Groups: g, ExternalURL: cfg.ExternalURL,
	})
	return &Services{
		Config: cfg, DB: d, Log: log, Policy: policy, Settings: st,
		Users:      u,
		Tokens:     tok,
		ClientAuth: clientauth.New(u, tok, authban.New(cfg.GitAuthBan, nil), cfg.ExternalURL),
		Groups:     g,
		Projects:   p,
		Members:    mem,
		Repos:      r,
		Git:        gitClient,

		ProtectedBranches: pb,
		Commits:           cm,
		Branches:          branches.New(d.Client, policy, p, r, pb),
		Tags:              tags.New(policy, p, r),
		Forks:             forks.New(d.Client, policy, p, r, pb),
		Files:             repofiles.New(p, r, pb), // file commits honour branch protection
		Registry:          reg,
		ContainerRegistry: cr,
		Namespaces:        namespaces.New(d.Client, policy, mem),
		Stars:             stars.New(d.Client, p, u),
		Statistics:        statistics.New(d.Client, r),
		Events:            ev,
		Issues:            iss,
		TimeTracking:      tt,
		MergeRequests:     mrs,
		ResourceEvents:    rev,
		Approvals:         approvals,
		AwardEmoji:        awards,
		Notes:             nt,
		Labels:            labels.New(d.Client, policy, p, g, iss),
		Milestones:        milestones.New(d.Client, policy, p, g, iss, mrs),
		Todos:             todos.New(d.Client, todoRecorder, iss, mrs, ep),
		Snippets:          sn,
		Epics:             ep,
		StorageMoves:      moves,
		Webhooks:          hooks,
		Jobs:              q,

		MergeRequestVersions: mrVersions,
	}, nil
}

// Close stops the job queue (running jobs get up to 30 seconds), the git processes and the
// registry's background work.
func (s *Services) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Jobs.Stop(ctx); err != nil {
		s.Log.Warn("stop job queue", "err", err)
	}
	_ = s.Registry.Close()
	return s.Git.Close()
}

// loopbackURL is the base URL at which the server reaches itself: its listen address, with an
// unspecified host (":8080", "0.0.0.0:8080") read as the loopback address.
func loopbackURL(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + listen
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}
