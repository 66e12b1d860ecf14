package repofiles

import (
	"container/list"
	"sync"

	"anvil/internal/git"
)

// treeKey names one listing: a commit's tree is immutable, so a listing never goes stale.
type treeKey struct {
	repo      string
	commit    git.ObjectID
	path      string
	recursive bool
}

// treeCache keeps recent listings in GitLab's order, so that paging through a large tree (the
// next page, or the total of an offset page) does not list it again. It is bounded by the
// number of entries held; the least recently used listings go first. Cached listings are
// shared: callers must not modify them.
type treeCache struct {
	mu      sync.Mutex
	max     int // entries
	size    int
	order   *list.List // of *treeItem, most recent first
	byKey   map[treeKey]*list.Element
	minSize int // listings smaller than this are cheap to redo and not kept
}

type treeItem struct {
	key     treeKey
	listing listing
}

func newTreeCache(maxEntries, minSize int) *treeCache {
	return &treeCache{max: maxEntries, minSize: minSize, order: list.New(), byKey: map[treeKey]*list.Element{}}
}

func (c *treeCache) get(k treeKey) (listing, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return listing{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*treeItem).listing, true
}

func (c *treeCache) put(k treeKey, l listing) {
	if l.len() < c.minSize || l.len() > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; ok {
		return
	}
	c.byKey[k] = c.order.PushFront(&treeItem{key: k, listing: l})
	c.size += l.len()
	for c.size > c.max {
		last := c.order.Back()
		item := last.Value.(*treeItem)
		c.order.Remove(last)
		delete(c.byKey, item.key)
		c.size -= item.listing.len()
	}
}
