package git

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// repoStats is what housekeeping decides from, read from the repository's files without
// starting git.
type repoStats struct {
	looseObjects      int // loose object files
	staleLooseObjects int // of those, older than the grace period
	packs             int // packfiles
	cruftPacks        int // packfiles holding unreachable objects (with an .mtimes file)
	packBytes         int64
	midx              bool // a multi-pack-index exists
	midxPacks         int  // packfiles the multi-pack-index covers
	bitmap            bool // a reachability bitmap exists (for a pack or the multi-pack-index)
	lastFullRepack    time.Time
	looseRefs         int
	packedRefsBytes   int64
	refsChanged       time.Time // newest change of a ref (loose ref file or packed-refs)
	commitGraph       bool      // a commit-graph exists
	commitGraphBloom  bool      // every commit-graph file has changed-path Bloom filters and generation data
	commitGraphTime   time.Time // when the commit-graph was last written
}

// gatherStats reads the state of the repository at path. now dates stale objects.
func gatherStats(path string, now time.Time) (repoStats, error) {
	var s repoStats
	objects := filepath.Join(path, "objects")
	staleBefore := now.Add(-staleObjectsGracePeriod)
	for i := range 256 {
		dir := filepath.Join(objects, hexByte(i))
		entries, err := os.ReadDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return s, err
		}
		for _, e := range entries {
			if len(e.Name()) != 38 || e.IsDir() {
				continue
			}
			s.looseObjects++
			if info, err := e.Info(); err == nil && info.ModTime().Before(staleBefore) {
				s.staleLooseObjects++
			}
		}
	}
	packDir := filepath.Join(objects, "pack")
	entries, err := os.ReadDir(packDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasSuffix(name, ".pack") && strings.HasPrefix(name, "pack-"):
			s.packs++
			if info, err := e.Info(); err == nil {
				s.packBytes += info.Size()
			}
			if names[strings.TrimSuffix(name, ".pack")+".mtimes"] {
				s.cruftPacks++
			}
		case strings.HasSuffix(name, ".bitmap"):
			s.bitmap = true
		case name == "multi-pack-index":
			s.midx = true
			if n, err := midxPackCount(filepath.Join(packDir, name)); err == nil {
				s.midxPacks = n
			}
		}
	}
	if info, err := os.Stat(filepath.Join(path, fullRepackMarker)); err == nil {
		s.lastFullRepack = info.ModTime()
	}
	if info, err := os.Stat(filepath.Join(path, "packed-refs")); err == nil {
		s.packedRefsBytes = info.Size()
		s.refsChanged = info.ModTime()
	}
	err = filepath.WalkDir(filepath.Join(path, "refs"), func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasSuffix(d.Name(), ".lock") {
			return nil
		}
		s.looseRefs++
		if info, err := d.Info(); err == nil && info.ModTime().After(s.refsChanged) {
			s.refsChanged = info.ModTime()
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	s.commitGraph, s.commitGraphBloom, s.commitGraphTime = commitGraphState(filepath.Join(objects, "info"))
	return s, nil
}

func hexByte(i int) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[i>>4], digits[i&0xf]})
}

// midxPackCount reads the number of packfiles a multi-pack-index covers from its header
// (gitformat-pack(5): signature "MIDX", version, hash version, chunk count, base count, then
// the pack count as a 4-byte big-endian number).
func midxPackCount(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var hdr [12]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return 0, err
	}
	if string(hdr[:4]) != "MIDX" {
		return 0, errors.New("not a multi-pack-index")
	}
	return int(binary.BigEndian.Uint32(hdr[8:12])), nil
}

// commitGraphState reports whether a commit-graph exists (a split chain or a single file),
// whether all of its files carry changed-path Bloom filters and generation data, and when it
// was written.
func commitGraphState(info string) (exists, complete bool, written time.Time) {
	var files []string
	chain := filepath.Join(info, "commit-graphs", "commit-graph-chain")
	if data, err := os.ReadFile(chain); err == nil {
		for _, line := range strings.Fields(string(data)) {
			files = append(files, filepath.Join(info, "commit-graphs", "graph-"+line+".graph"))
		}
		if st, err := os.Stat(chain); err == nil {
			written = st.ModTime()
		}
	} else if st, err := os.Stat(filepath.Join(info, "commit-graph")); err == nil {
		files = []string{filepath.Join(info, "commit-graph")}
		written = st.ModTime()
	}
	if len(files) == 0 {
		return false, false, time.Time{}
	}
	complete = true
	for _, f := range files {
		chunks, err := commitGraphChunks(f)
		if err != nil {
			return true, false, written
		}
		if !chunks["BIDX"] || !chunks["BDAT"] || !chunks["GDA2"] {
			complete = false
		}
	}
	return true, complete, written
}

// commitGraphChunks lists the chunk ids of a commit-graph file (gitformat-commit-graph(5): an
// 8-byte header "CGPH", version, hash version, chunk count, base count; then a table of
// 12-byte entries, a 4-byte id and an 8-byte offset each).
func commitGraphChunks(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var hdr [8]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return nil, err
	}
	if string(hdr[:4]) != "CGPH" {
		return nil, errors.New("not a commit-graph")
	}
	table := make([]byte, 12*int(hdr[6]))
	if _, err := io.ReadFull(f, table); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for i := 0; i < len(table); i += 12 {
		out[string(table[i:i+4])] = true
	}
	return out, nil
}
