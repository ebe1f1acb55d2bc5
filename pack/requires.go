package pack

import "strings"

// isRequireBlock reports whether a chunk's text is a block of CommonJS
// imports: at least half of its lines that are neither blank nor comments
// call require(…) (`var utils = require('./utils');`, `const {a, b} =
// require("x")`), and there is at least one such line.
func isRequireBlock(text string) bool {
	code, req := 0, 0
	for line := range strings.Lines(text) {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || strings.HasPrefix(l, "*") {
			continue
		}
		code++
		if strings.Contains(l, "require(") {
			req++
		}
	}
	return req > 0 && 2*req >= code
}
