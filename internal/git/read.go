package git

import (
	"context"
	"errors"
	"fmt"
	"io"

	"anvil/internal/git/catfile"
)

// revErr maps a cat-file error for revision rev.
func revErr(err error, rev, what string) error {
	if errors.Is(err, catfile.ErrNotFound) || errors.Is(err, catfile.ErrAmbiguous) {
		return fmt.Errorf("%s %q: %w", what, rev, notFound(rev))
	}
	return catErr(err, what)
}

// ObjectInfo is an object's id, type and size.
type ObjectInfo struct {
	ID   ObjectID
	Type ObjectType
	Size int64
}

// Blob is a blob's content, possibly cut at a limit.
type Blob struct {
	ID   ObjectID
	Size int64
	// Data is the content, or its first bytes when Truncated.
	Data      []byte
	Truncated bool
}

// notFound picks the error for a revision that does not resolve: an object id names an object,
// anything else a reference.
func notFound(rev string) error {
	if IsFullObjectID(rev) {
		return ErrObjectNotFound
	}
	return ErrReferenceNotFound
}

// ReadObjectInfo returns the id, type and size of the object rev resolves to.
func (r *Repository) ReadObjectInfo(ctx context.Context, rev string) (ObjectInfo, error) {
	if err := ValidateRevision(rev); err != nil {
		return ObjectInfo{}, err
	}
	var info catfile.Info
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		info, err = b.Info(ctx, rev)
		return err
	})
	if err != nil {
		return ObjectInfo{}, revErr(err, rev, "object info")
	}
	return ObjectInfo{ID: ObjectID(info.OID), Type: ObjectType(info.Type), Size: info.Size}, nil
}

// ResolveCommit returns the id of the commit rev names (a branch, tag, id or any revision
// expression), peeling tags. It answers through the cat-file process, without a new process.
func (r *Repository) ResolveCommit(ctx context.Context, rev string) (ObjectID, error) {
	if err := ValidateRevision(rev); err != nil {
		return "", err
	}
	var info catfile.Info
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		info, err = b.Info(ctx, rev+"^{commit}")
		return err
	})
	if err != nil {
		return "", revErr(err, rev, "resolve")
	}
	return ObjectID(info.OID), nil
}

// ReadCommit reads the commit rev names, peeling tags.
func (r *Repository) ReadCommit(ctx context.Context, rev string) (*Commit, error) {
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	var obj catfile.Object
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		obj, err = b.Read(ctx, rev+"^{commit}", -1)
		return err
	})
	if err != nil {
		return nil, revErr(err, rev, "read commit")
	}
	return ParseCommit(ObjectID(obj.OID), obj.Data)
}

// ReadCommits reads commits by id with one round trip, in order. A missing id fails with
// ErrObjectNotFound.
func (r *Repository) ReadCommits(ctx context.Context, ids []ObjectID) ([]*Commit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		if err := id.Validate(); err != nil {
			return nil, err
		}
		names[i] = string(id)
	}
	var objs []catfile.Object
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		objs, err = b.ReadMany(ctx, names, -1)
		return err
	})
	if err != nil {
		return nil, catErr(err, "read commits")
	}
	out := make([]*Commit, len(objs))
	for i, o := range objs {
		if o.Missing || o.Type != string(TypeCommit) {
			return nil, fmt.Errorf("read commit %s: %w", ids[i], ErrObjectNotFound)
		}
		c, err := ParseCommit(ObjectID(o.OID), o.Data)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// ReadBlob reads the blob rev names (an id, "main~1^{blob}"...), keeping at most limit bytes
// (everything when limit is negative). A non-blob fails with ErrObjectNotFound.
func (r *Repository) ReadBlob(ctx context.Context, rev string, limit int64) (*Blob, error) {
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	return r.readBlob(ctx, rev, limit)
}

// ReadBlobAt reads the blob at path in the tree of rev, as ReadBlob.
func (r *Repository) ReadBlobAt(ctx context.Context, rev, path string, limit int64) (*Blob, error) {
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	if err := ValidatePath(path); err != nil {
		return nil, err
	}
	return r.readBlob(ctx, rev+":"+path, limit)
}

func (r *Repository) readBlob(ctx context.Context, rev string, limit int64) (*Blob, error) {
	var obj catfile.Object
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		obj, err = b.Read(ctx, rev, limit)
		return err
	})
	if err != nil {
		return nil, revErr(err, rev, "read blob")
	}
	if obj.Type != string(TypeBlob) {
		return nil, fmt.Errorf("read blob %q: is a %s: %w", rev, obj.Type, ErrObjectNotFound)
	}
	return &Blob{ID: ObjectID(obj.OID), Size: obj.Size, Data: obj.Data, Truncated: obj.Truncated}, nil
}

// ReadBlobTo streams the blob with id into w without holding it in memory. A non-blob fails
// with ErrObjectNotFound before anything is written.
func (r *Repository) ReadBlobTo(ctx context.Context, id ObjectID, w io.Writer) (ObjectInfo, error) {
	if err := id.Validate(); err != nil {
		return ObjectInfo{}, err
	}
	var info catfile.Info
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		if info, err = b.Info(ctx, string(id)); err != nil {
			return err
		}
		if info.Type != string(TypeBlob) {
			return fmt.Errorf("read blob %s: is a %s: %w", id, info.Type, ErrObjectNotFound)
		}
		_, err = b.ReadTo(ctx, string(id), w)
		return err
	})
	if err != nil {
		return ObjectInfo{}, revErr(err, string(id), "read blob")
	}
	return ObjectInfo{ID: id, Type: TypeBlob, Size: info.Size}, nil
}

// ReadTagObject reads the annotated tag object with id.
func (r *Repository) ReadTagObject(ctx context.Context, id ObjectID) (*TagObject, error) {
	if err := id.Validate(); err != nil {
		return nil, err
	}
	var obj catfile.Object
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		obj, err = b.Read(ctx, string(id), -1)
		return err
	})
	if err != nil {
		return nil, catErr(err, "read tag")
	}
	if obj.Type != string(TypeTag) {
		return nil, fmt.Errorf("read tag %s: is a %s: %w", id, obj.Type, ErrObjectNotFound)
	}
	return ParseTagObject(id, obj.Data)
}

// readTree reads the tree with id; entries get paths under dir.
func readTree(ctx context.Context, b *catfile.Batch, id ObjectID, dir string) ([]TreeEntry, error) {
	obj, err := b.Read(ctx, string(id), -1)
	if err != nil {
		return nil, catErr(err, "read tree")
	}
	if obj.Type != string(TypeTree) {
		return nil, fmt.Errorf("read tree %s: is a %s: %w", id, obj.Type, ErrObjectNotFound)
	}
	return ParseTree(dir, obj.Data)
}

// HasObject reports whether the object with id exists.
func (r *Repository) HasObject(ctx context.Context, id ObjectID) (bool, error) {
	if err := id.Validate(); err != nil {
		return false, err
	}
	_, err := r.ReadObjectInfo(ctx, string(id))
	if errors.Is(err, ErrObjectNotFound) {
		return false, nil
	}
	return err == nil, err
}
