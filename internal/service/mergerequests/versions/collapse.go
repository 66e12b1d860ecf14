package versions

import (
	"strings"

	"anvil/ent"
)

// safeMaxFiles and safeMaxLines are GitLab's "safe" diff limits (Commit.diff_safe_max_*):
// past them a collection still lists its files but stops showing their patches.
const (
	safeMaxFiles = 100
	safeMaxLines = 5000
)

// CollapseSafe applies GitLab's safe limits to files, as the changes endpoint presents them:
// once the files before one reach min(diff_max_files, 100), or their lines pass
// min(diff_max_lines, 5000), or their bytes reach 5 KB per safe file, each following file
// with content is listed collapsed, with an empty diff. The rows are copied, never changed.
func CollapseSafe(files []*ent.MergeRequestDiffFile, l Limits) []*ent.MergeRequestDiffFile {
	maxFiles, maxLines := min(l.MaxFiles, safeMaxFiles), min(l.MaxLines, safeMaxLines)
	maxBytes := maxFiles * bytesPerFile
	out := make([]*ent.MergeRequestDiffFile, len(files))
	lines, size := 0, 0
	for i, f := range files {
		n := strings.Count(f.Diff, "\n")
		if n > 0 && (i >= maxFiles || lines > maxLines || size >= maxBytes) {
			c := *f
			c.Diff, c.Collapsed = "", true
			out[i] = &c
			continue
		}
		lines += n
		size += len(f.Diff)
		out[i] = f
	}
	return out
}
