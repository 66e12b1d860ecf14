package git

import (
	"context"
	"fmt"
	"strings"
	"time"

	"anvil/internal/git/gitcmd"
)

// CommitTreeOptions describe a commit to write.
type CommitTreeOptions struct {
	Tree    ObjectID
	Parents []ObjectID
	// Message is stored as given (no cleanup, no newline added).
	Message string
	// Author is required; a zero When means now.
	Author Signature
	// Committer defaults to Author; a zero When means now.
	Committer Signature
}

// CommitTree writes a commit object (no ref changes) and returns its id. Identities and dates
// are passed through the environment, never the command line.
func (r *Repository) CommitTree(ctx context.Context, opts CommitTreeOptions) (ObjectID, error) {
	if err := opts.Tree.Validate(); err != nil {
		return "", err
	}
	committer := opts.Committer
	if committer.Name == "" && committer.Email == "" {
		committer = opts.Author
	}
	var env []gitcmd.Option
	for _, id := range []struct {
		sig    Signature
		prefix string
	}{{opts.Author, "GIT_AUTHOR_"}, {committer, "GIT_COMMITTER_"}} {
		if err := ValidateIdentity(id.sig.Name, id.sig.Email); err != nil {
			return "", err
		}
		when := id.sig.When
		if when.IsZero() {
			when = time.Now()
		}
		env = append(env,
			gitcmd.Env(id.prefix+"NAME", id.sig.Name),
			gitcmd.Env(id.prefix+"EMAIL", id.sig.Email),
			gitcmd.Env(id.prefix+"DATE", "@"+formatSignatureTime(when)))
	}
	cmd := gitcmd.New("commit-tree")
	for _, p := range opts.Parents {
		if err := p.Validate(); err != nil {
			return "", err
		}
		cmd.Option("-p", string(p))
	}
	cmd.Arg(string(opts.Tree))
	out, err := r.output(ctx, cmd, append(env, gitcmd.Stdin(strings.NewReader(opts.Message)))...)
	if err != nil {
		if stderrHas(err, "not a valid", "bad object", "is not a valid") {
			return "", fmt.Errorf("commit tree: %w: %w", ErrObjectNotFound, err)
		}
		return "", fmt.Errorf("commit tree: %w", err)
	}
	return ObjectID(strings.TrimSpace(string(out))), nil
}

// ValidateIdentity checks an author or committer: a name that is not blank, and neither name
// nor email containing "<", ">", a newline or NUL (git would strip or refuse them).
func ValidateIdentity(name, email string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%w: empty identity name", ErrInvalidArgument)
	}
	if strings.ContainsAny(name, "<>\n\x00") || strings.ContainsAny(email, "<>\n\x00") {
		return fmt.Errorf("%w: identity %q <%s> has a forbidden character", ErrInvalidArgument, name, email)
	}
	return nil
}

// CreateTagOptions describe a tag to create.
type CreateTagOptions struct {
	// Name is the short tag name ("v1.0").
	Name string
	// Target is the object to tag (usually a commit).
	Target ObjectID
	// Message makes an annotated tag; "" makes a lightweight one. A newline is added when
	// missing, as git tag does.
	Message string
	// Tagger signs an annotated tag; a zero When means now.
	Tagger Signature
}

// CreateTag creates refs/tags/<Name>, failing with ErrReferenceExists (and ErrStaleRef) when the
// tag exists. It returns the ref's value: the tag object for an annotated tag, else Target.
func (r *Repository) CreateTag(ctx context.Context, opts CreateTagOptions) (ObjectID, error) {
	if err := ValidateTagName(opts.Name); err != nil {
		return "", err
	}
	if err := opts.Target.Validate(); err != nil {
		return "", err
	}
	value := opts.Target
	if opts.Message != "" {
		id, err := r.writeTagObject(ctx, opts)
		if err != nil {
			return "", err
		}
		value = id
	}
	if err := r.UpdateRef(ctx, TagRef(opts.Name), value, ZeroOID); err != nil {
		return "", err
	}
	return value, nil
}

// writeTagObject writes an annotated tag object with mktag.
func (r *Repository) writeTagObject(ctx context.Context, opts CreateTagOptions) (ObjectID, error) {
	if err := ValidateIdentity(opts.Tagger.Name, opts.Tagger.Email); err != nil {
		return "", err
	}
	info, err := r.ReadObjectInfo(ctx, string(opts.Target))
	if err != nil {
		return "", err
	}
	when := opts.Tagger.When
	if when.IsZero() {
		when = time.Now()
	}
	msg := opts.Message
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	body := fmt.Sprintf("object %s\ntype %s\ntag %s\ntagger %s <%s> %s\n\n%s",
		info.ID, info.Type, opts.Name, opts.Tagger.Name, opts.Tagger.Email, formatSignatureTime(when), msg)
	out, err := r.output(ctx, gitcmd.New("mktag"), gitcmd.Stdin(strings.NewReader(body)))
	if err != nil {
		return "", fmt.Errorf("write tag: %w", err)
	}
	return ObjectID(strings.TrimSpace(string(out))), nil
}
