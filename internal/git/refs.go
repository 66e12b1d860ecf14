package git

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"anvil/internal/git/catfile"
	"anvil/internal/git/gitcmd"
)

// ResolveRevision returns the id of the object rev names, without peeling (a tag name gives the
// tag object), with "git rev-parse --verify". Prefer ResolveCommit for commits: it needs no new
// process.
func (r *Repository) ResolveRevision(ctx context.Context, rev string) (ObjectID, error) {
	if err := ValidateRevision(rev); err != nil {
		return "", err
	}
	out, err := r.output(ctx, gitcmd.New("rev-parse", "--verify", "--quiet").Arg(rev))
	if gitcmd.ExitCode(err) == 1 || stderrHas(err, "Needed a single revision", "unknown revision") {
		return "", fmt.Errorf("resolve %q: %w", rev, notFound(rev))
	}
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", rev, err)
	}
	id := ObjectID(strings.TrimSpace(string(out)))
	if IsFullObjectID(rev) {
		// --verify accepts any well-formed full id without looking it up.
		ok, err := r.HasObject(ctx, id)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("resolve %q: %w", rev, ErrObjectNotFound)
		}
	}
	return id, nil
}

// Ref is one ref with what it points at.
type Ref struct {
	// Name is the full name ("refs/heads/main").
	Name string
	// Target is the object the ref points at, of type TargetType.
	Target     ObjectID
	TargetType ObjectType
	// Peeled is, for a ref to a tag object, the object that tag points at; else "".
	Peeled ObjectID
}

// ShortName strips "refs/heads/" or "refs/tags/" (or "refs/").
func (r Ref) ShortName() string {
	for _, p := range []string{BranchPrefix, TagPrefix, "refs/"} {
		if strings.HasPrefix(r.Name, p) {
			return r.Name[len(p):]
		}
	}
	return r.Name
}

// ListRefsOptions filter ListRefs. Zero fields do not filter.
type ListRefsOptions struct {
	// Patterns are ref prefixes ("refs/heads/") or for-each-ref globs ("refs/tags/v1.*"); none
	// means every ref.
	Patterns []string
	// Contains keeps refs whose commit contains this commit.
	Contains ObjectID
	// Merged keeps refs whose commit is reachable from this commit.
	Merged ObjectID
	// PointsAt keeps refs pointing at this object (directly or through a tag).
	PointsAt ObjectID
}

// ListRefs lists refs sorted by name.
func (r *Repository) ListRefs(ctx context.Context, opts ListRefsOptions) ([]Ref, error) {
	cmd := gitcmd.New("for-each-ref", "--format=%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)")
	for _, oid := range []struct {
		id   ObjectID
		name string
	}{{opts.Contains, "contains"}, {opts.Merged, "merged"}, {opts.PointsAt, "points-at"}} {
		if oid.id == "" {
			continue
		}
		if err := oid.id.Validate(); err != nil {
			return nil, err
		}
		switch oid.name {
		case "contains":
			cmd.Option("--contains", string(oid.id))
		case "merged":
			cmd.Option("--merged", string(oid.id))
		case "points-at":
			cmd.Option("--points-at", string(oid.id))
		}
	}
	for _, p := range opts.Patterns {
		if err := validateRefPattern(p); err != nil {
			return nil, err
		}
	}
	out, err := r.output(ctx, cmd.Arg(opts.Patterns...))
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	var refs []Ref
	for _, line := range bytes.Split(out, []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		f := strings.Split(string(line), "\x00")
		if len(f) != 4 {
			return nil, fmt.Errorf("list refs: malformed line %q", line)
		}
		refs = append(refs, Ref{Name: f[0], Target: ObjectID(f[1]), TargetType: ObjectType(f[2]), Peeled: ObjectID(f[3])})
	}
	return refs, nil
}

// validateRefPattern accepts "refs/..." prefixes and globs without control characters.
func validateRefPattern(p string) error {
	if !strings.HasPrefix(p, "refs/") || strings.Contains(p, "..") {
		return fmt.Errorf("%w: ref pattern %q", ErrInvalidRefName, p)
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == ' ' || c == ':' || c == '\\' {
			return fmt.Errorf("%w: ref pattern %q", ErrInvalidRefName, p)
		}
	}
	return nil
}

// Branch is a branch with its tip commit.
type Branch struct {
	// Name is the short name ("main").
	Name   string
	Commit *Commit
}

// Branches lists branches sorted by name, with their commits read in one round trip. Filter
// with opts (Patterns default to every branch).
func (r *Repository) Branches(ctx context.Context, opts ListRefsOptions) ([]Branch, error) {
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{BranchPrefix}
	}
	refs, err := r.ListRefs(ctx, opts)
	if err != nil {
		return nil, err
	}
	ids := make([]ObjectID, 0, len(refs))
	var kept []Ref
	for _, ref := range refs {
		if strings.HasPrefix(ref.Name, BranchPrefix) && ref.TargetType == TypeCommit {
			ids = append(ids, ref.Target)
			kept = append(kept, ref)
		}
	}
	commits, err := r.ReadCommits(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Branch, len(kept))
	for i, ref := range kept {
		out[i] = Branch{Name: ref.ShortName(), Commit: commits[i]}
	}
	return out, nil
}

// Branch returns one branch by short name; a missing branch fails with ErrReferenceNotFound.
func (r *Repository) Branch(ctx context.Context, name string) (*Branch, error) {
	if err := ValidateBranchName(name); err != nil {
		return nil, err
	}
	c, err := r.ReadCommit(ctx, BranchRef(name))
	if err != nil {
		return nil, err
	}
	return &Branch{Name: name, Commit: c}, nil
}

// Tags lists tags sorted by name, with tag objects and target commits read in a few round
// trips. Filter with opts (Patterns default to every tag).
func (r *Repository) Tags(ctx context.Context, opts ListRefsOptions) ([]Tag, error) {
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{TagPrefix}
	}
	refs, err := r.ListRefs(ctx, opts)
	if err != nil {
		return nil, err
	}
	var tags []Tag
	for _, ref := range refs {
		if strings.HasPrefix(ref.Name, TagPrefix) {
			tags = append(tags, Tag{Name: ref.ShortName(), ID: ref.Target, TargetID: ref.Target, TargetType: ref.TargetType})
		}
	}
	if err := r.resolveTags(ctx, tags); err != nil {
		return nil, err
	}
	return tags, nil
}

// Tag returns one tag by short name; a missing tag fails with ErrReferenceNotFound.
func (r *Repository) Tag(ctx context.Context, name string) (*Tag, error) {
	if err := ValidateTagName(name); err != nil {
		return nil, err
	}
	info, err := r.ReadObjectInfo(ctx, TagRef(name))
	if err != nil {
		return nil, err
	}
	tags := []Tag{{Name: name, ID: info.ID, TargetID: info.ID, TargetType: info.Type}}
	if err := r.resolveTags(ctx, tags); err != nil {
		return nil, err
	}
	return &tags[0], nil
}

// resolveTags reads the tag objects of annotated tags (peeling tags of tags) and the commits
// tags finally point at.
func (r *Repository) resolveTags(ctx context.Context, tags []Tag) error {
	return r.batch(ctx, func(b *catfile.Batch) error {
		// Peel level by level: each round reads every tag object still unpeeled.
		for depth := 0; ; depth++ {
			var names []string
			var idx []int
			for i, t := range tags {
				if t.TargetType == TypeTag {
					names = append(names, string(t.TargetID))
					idx = append(idx, i)
				}
			}
			if len(names) == 0 {
				break
			}
			if depth > 10 {
				return fmt.Errorf("read tags: tag chain too deep")
			}
			objs, err := b.ReadMany(ctx, names, -1)
			if err != nil {
				return catErr(err, "read tags")
			}
			for j, o := range objs {
				t := &tags[idx[j]]
				if o.Missing {
					return fmt.Errorf("read tag %s: %w", names[j], ErrObjectNotFound)
				}
				obj, err := ParseTagObject(ObjectID(o.OID), o.Data)
				if err != nil {
					return err
				}
				if depth == 0 {
					t.Annotated = true
					t.Message, t.Signature, t.Tagger = obj.Message, obj.Signature, obj.Tagger
				}
				t.TargetID, t.TargetType = obj.Object, obj.Type
			}
		}
		var names []string
		var idx []int
		for i, t := range tags {
			if t.TargetType == TypeCommit {
				names = append(names, string(t.TargetID))
				idx = append(idx, i)
			}
		}
		objs, err := b.ReadMany(ctx, names, -1)
		if err != nil {
			return catErr(err, "read tag commits")
		}
		for j, o := range objs {
			if o.Missing {
				return fmt.Errorf("read commit %s: %w", names[j], ErrObjectNotFound)
			}
			c, err := ParseCommit(ObjectID(o.OID), o.Data)
			if err != nil {
				return err
			}
			tags[idx[j]].Commit = c
		}
		return nil
	})
}

// Head returns the branch HEAD names (the default branch), even when that branch does not exist
// yet (an empty repository).
func (r *Repository) Head(ctx context.Context) (string, error) {
	if branch, ok := r.headFromFile(); ok {
		return branch, nil
	}
	out, err := r.output(ctx, gitcmd.New("symbolic-ref", "--quiet").Arg("HEAD"))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	ref := strings.TrimSpace(string(out))
	return strings.TrimPrefix(ref, BranchPrefix), nil
}

// SetHead makes HEAD name branch (the default branch). The branch need not exist.
func (r *Repository) SetHead(ctx context.Context, branch string) error {
	if err := ValidateBranchName(branch); err != nil {
		return err
	}
	if err := r.run(ctx, gitcmd.New("symbolic-ref").Arg("HEAD", BranchRef(branch))); err != nil {
		return fmt.Errorf("set HEAD: %w", err)
	}
	return nil
}

// HasBranches reports whether the repository has at least one branch (GitLab's empty_repo is
// its negation).
func (r *Repository) HasBranches(ctx context.Context) (bool, error) {
	out, err := r.output(ctx, gitcmd.New("for-each-ref", "--count=1", "--format=%(refname)").Arg(BranchPrefix))
	if err != nil {
		return false, fmt.Errorf("list branches: %w", err)
	}
	return len(bytes.TrimSpace(out)) > 0, nil
}
