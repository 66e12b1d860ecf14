package repofiles

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"anvil/internal/git"
)

// sumCache remembers the SHA-256 of blobs (GitLab's content_sha256, which it caches by blob id
// too). A blob id names immutable content, so entries never go stale; the oldest are dropped
// when the cache is full.
type sumCache struct {
	mu    sync.Mutex
	max   int
	sums  map[git.ObjectID]string
	order []git.ObjectID
	next  int
}

func newSumCache(max int) *sumCache {
	return &sumCache{max: max, sums: make(map[git.ObjectID]string, max)}
}

func (c *sumCache) get(id git.ObjectID) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sums[id]
	return s, ok
}

func (c *sumCache) put(id git.ObjectID, sum string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.sums[id]; ok {
		return
	}
	if len(c.order) < c.max {
		c.order = append(c.order, id)
	} else {
		delete(c.sums, c.order[c.next])
		c.order[c.next] = id
		c.next = (c.next + 1) % c.max
	}
	c.sums[id] = sum
}

// sumOf returns the SHA-256 of data, the content of blob id, and remembers it.
func (c *sumCache) sumOf(id git.ObjectID, data []byte) string {
	if s, ok := c.get(id); ok {
		return s
	}
	h := sha256.Sum256(data)
	s := hex.EncodeToString(h[:])
	c.put(id, s)
	return s
}

// sumBlob returns the SHA-256 of blob id, streaming it through the hash on a cache miss.
func (c *sumCache) sumBlob(ctx context.Context, repo *git.Repository, id git.ObjectID) (string, error) {
	if s, ok := c.get(id); ok {
		return s, nil
	}
	h := sha256.New()
	if _, err := repo.ReadBlobTo(ctx, id, h); err != nil {
		return "", err
	}
	s := hex.EncodeToString(h.Sum(nil))
	c.put(id, s)
	return s, nil
}
