package git

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
)

// ObjectID is a full hexadecimal object id. Anvil's repositories use SHA-1 (40 digits).
type ObjectID string

// Well-known object ids.
const (
	// ZeroOID is the all-zero id: "no object", as in "the ref must not exist yet".
	ZeroOID ObjectID = "0000000000000000000000000000000000000000"
	// EmptyTreeOID is the id of the tree with no entries.
	EmptyTreeOID ObjectID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
)

// String returns the id.
func (id ObjectID) String() string { return string(id) }

// Short returns the first 8 digits, as GitLab's short_id.
func (id ObjectID) Short() string {
	if len(id) < 8 {
		return string(id)
	}
	return string(id[:8])
}

// IsZero reports whether id is empty or ZeroOID.
func (id ObjectID) IsZero() bool { return id == "" || id == ZeroOID }

// Validate reports whether id is a full lower-case SHA-1 id.
func (id ObjectID) Validate() error {
	if !isHexID(string(id)) {
		return fmt.Errorf("%w: %q", ErrInvalidObjectID, string(id))
	}
	return nil
}

// ParseObjectID validates s as a full object id.
func ParseObjectID(s string) (ObjectID, error) {
	id := ObjectID(s)
	return id, id.Validate()
}

// IsFullObjectID reports whether s is a full 40-digit lower-case hexadecimal id.
func IsFullObjectID(s string) bool { return isHexID(s) }

func isHexID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ObjectType is an object's type.
type ObjectType string

// Object types.
const (
	TypeBlob   ObjectType = "blob"
	TypeTree   ObjectType = "tree"
	TypeCommit ObjectType = "commit"
	TypeTag    ObjectType = "tag"
)

// hashObject computes the id git gives an object of type t with content data.
func hashObject(t ObjectType, data []byte) ObjectID {
	h := sha1.New()
	h.Write([]byte(string(t) + " " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return ObjectID(hex.EncodeToString(h.Sum(nil)))
}
