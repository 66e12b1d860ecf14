package labels

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// DefaultColor is GitLab's color for labels created without one.
const DefaultColor = "#6699cc"

var hexColor = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// namedColors are the CSS color names GitLab accepts for labels (a subset of the CSS list,
// the common ones).
var namedColors = map[string]string{
	"black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
	"yellow": "#ffff00", "orange": "#ffa500", "purple": "#800080", "gray": "#808080", "grey": "#808080",
	"pink": "#ffc0cb", "brown": "#a52a2a", "cyan": "#00ffff", "magenta": "#ff00ff", "lime": "#00ff00",
	"navy": "#000080", "teal": "#008080", "olive": "#808000", "maroon": "#800000", "silver": "#c0c0c0",
	"aqua": "#00ffff", "fuchsia": "#ff00ff", "gold": "#ffd700", "indigo": "#4b0082", "violet": "#ee82ee",
	"coral": "#ff7f50", "salmon": "#fa8072", "khaki": "#f0e68c", "crimson": "#dc143c", "tomato": "#ff6347",
	"turquoise": "#40e0d0", "orchid": "#da70d6", "plum": "#dda0dd", "tan": "#d2b48c", "beige": "#f5f5dc",
	"chocolate": "#d2691e", "darkblue": "#00008b", "darkgreen": "#006400", "darkred": "#8b0000",
	"lightblue": "#add8e6", "lightgreen": "#90ee90", "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3",
	"darkgray": "#a9a9a9", "darkgrey": "#a9a9a9", "skyblue": "#87ceeb", "steelblue": "#4682b4",
}

// NormalizeColor turns a "#rgb"/"#rrggbb" value or a CSS color name into the stored form; ok is
// false for anything else ("Color must be a valid color code").
func NormalizeColor(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if hexColor.MatchString(s) {
		return s, true
	}
	if v, ok := namedColors[strings.ToLower(s)]; ok {
		return v, true
	}
	return "", false
}

// TextColor is the text color GitLab derives for a label's background: dark text on light
// colors, white on dark ones (perceived luminance above half).
func TextColor(color string) string {
	c := strings.TrimPrefix(color, "#")
	if len(c) == 3 {
		c = fmt.Sprintf("%c%c%c%c%c%c", c[0], c[0], c[1], c[1], c[2], c[2])
	}
	if len(c) != 6 {
		return "#FFFFFF"
	}
	r, _ := strconv.ParseUint(c[0:2], 16, 8)
	g, _ := strconv.ParseUint(c[2:4], 16, 8)
	b, _ := strconv.ParseUint(c[4:6], 16, 8)
	if float64(r)*0.299+float64(g)*0.587+float64(b)*0.114 > 186 {
		return "#333333"
	}
	return "#FFFFFF"
}
