package gitcmd

import "time"

// configPair is one "-c key=value" given to git before the subcommand. Command-line config wins
// over the repository's own config file, so these values hold whatever a repository says.
type configPair struct{ key, value string }

// description is what Anvil knows about one allowed subcommand.
type description struct {
	// endOfOptions: the subcommand understands --end-of-options, which is then written before
	// the positional arguments. Positionals never start with "-" in any case (Cmd.Arg).
	endOfOptions bool
	// noRepo: the subcommand runs without --git-dir (it creates the repository or takes its
	// directory as an argument).
	noRepo bool
	// writes: the subcommand writes objects or refs and gets writeConfig.
	writes bool
	// pathsAsArgs: the subcommand has no "--" separator and reads paths as plain arguments
	// (archive). They are written after --end-of-options, so none can be read as an option.
	pathsAsArgs bool
	// timeout overrides the runner's default time limit; negative means none (long-lived
	// processes bounded only by their context).
	timeout time.Duration
	// actions are the action words the subcommand must be given one of (Cmd.Action); none
	// means it takes no action word.
	actions []string
	// config is the hardening specific to this subcommand.
	config []configPair
}

// globalConfig applies to every command.
var globalConfig = []configPair{
	// Repository hooks never run: a hook is arbitrary code, and Anvil enforces its own rules.
	{"core.hooksPath", "/dev/null"},
	// No command Anvil runs should act as a transport client; if one ever tried (a promisor
	// remote, a submodule), refuse instead of reaching the network.
	{"protocol.allow", "never"},
	// Housekeeping is Anvil's job: an automatic gc inside a request would add seconds of latency
	// and race with concurrent readers.
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
}

// writeConfig applies to commands that write objects or refs.
var writeConfig = []configPair{
	// An acknowledged write must survive a crash: fsync objects, packs, the commit-graph and refs.
	{"core.fsync", "objects,derived-metadata,reference"},
	{"core.fsyncMethod", "fsync"},
}

// descriptions is the subcommand allowlist. A subcommand missing here cannot run.
var descriptions = map[string]description{
	"archive": {
		endOfOptions: true,
		pathsAsArgs:  true,
		// Archives of big trees stream for a long time; the caller's context still applies.
		timeout: 10 * time.Minute,
	},
	"blame": {
		// blame does not accept --end-of-options (it prints its usage); its arguments are a
		// validated revision and a path after "--".
		config: []configPair{
			// A repository-level ignore-revs file that does not exist would fail every blame.
			{"blame.ignoreRevsFile", ""},
		},
	},
	"cat-file": {
		endOfOptions: true,
		// --batch-command processes live in the catfile cache for minutes, bounded by its context.
		timeout: -1,
	},
	"commit-graph": {
		// Housekeeping: the commit-graph with changed-path Bloom filters.
		actions: []string{"write"},
		writes:  true,
		timeout: time.Hour,
	},
	"commit-tree": {endOfOptions: true, writes: true},
	"diff-tree": {
		// Plumbing: it ignores the porcelain diff.* settings (external diff drivers, textconv,
		// prefixes), so its output format is stable.
		endOfOptions: true,
	},
	"fast-import": {
		// Only used to generate test and benchmark repositories.
		writes:  true,
		timeout: 10 * time.Minute,
	},
	"for-each-ref": {endOfOptions: true},
	"hash-object":  {endOfOptions: true, writes: true},
	"init": {
		endOfOptions: true,
		noRepo:       true,
		writes:       true,
		config: []configPair{
			// No template directory: a new repository gets no sample hooks or files from the
			// host's git installation, so every repository starts identical.
			{"init.templateDir", ""},
		},
	},
	"log": {
		endOfOptions: true,
		config: []configPair{
			// A signature check would print gpg output between our formatted lines.
			{"log.showSignature", "false"},
			// Listings show identities as stored in commits, as GitLab does, not as a .mailmap
			// in the repository rewrites them.
			{"log.mailmap", "false"},
		},
	},
	"ls-tree":    {endOfOptions: true},
	"merge-base": {endOfOptions: true},
	"merge-tree": {
		// merge-tree --write-tree writes the merged trees and blobs.
		endOfOptions: true,
		writes:       true,
	},
	"mktag":     {writes: true},
	"pack-refs": {writes: true, timeout: 10 * time.Minute},
	// patch-id reads a diff on standard input and takes no positional arguments.
	"patch-id": {},
	"prune":    {writes: true, timeout: time.Hour},
	"receive-pack": {
		// Takes the repository directory as its argument.
		endOfOptions: true,
		noRepo:       true,
		writes:       true,
		timeout:      time.Hour,
		config: []configPair{
			// Reject malformed objects before they enter a repository other clients fetch from.
			{"receive.fsckObjects", "true"},
			// Housekeeping is not done inside a push.
			{"receive.autogc", "false"},
			// Push options (git push -o ci.skip) are part of GitLab's protocol surface.
			{"receive.advertisePushOptions", "true"},
		},
	},
	"repack": {
		// Housekeeping repacks (geometric, full with a cruft pack, incremental).
		writes:  true,
		timeout: 2 * time.Hour,
		config: []configPair{
			// Anvil serves smart HTTP only: the files of the dumb protocol are not needed.
			{"repack.updateServerInfo", "false"},
			// Bitmaps with the name-hash cache (better deltas for fetches) and the lookup
			// table (faster bitmap loading for every fetch and clone).
			{"pack.writeBitmapHashCache", "true"},
			{"pack.writeBitmapLookupTable", "true"},
		},
	},
	"rev-list":     {endOfOptions: true},
	"rev-parse":    {endOfOptions: true},
	"symbolic-ref": {endOfOptions: true, writes: true},
	"update-ref":   {endOfOptions: true, writes: true},
	"upload-pack": {
		// Takes the repository directory as its argument.
		endOfOptions: true,
		noRepo:       true,
		timeout:      time.Hour,
		config: []configPair{
			// Partial clone (--filter) as GitLab offers it.
			{"uploadpack.allowFilter", "true"},
			// CI fetches commits by id that may not be a ref tip; GitLab allows that.
			{"uploadpack.allowAnySHA1InWant", "true"},
		},
	},
	"version": {noRepo: true},
}
