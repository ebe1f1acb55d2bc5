package collector

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// DisplayPath is the path as shown in a context, a result and a log:
// secret-looking text in a file or directory name (a token in the name of
// a fixture, a password in a directory name) is replaced like secrets in
// content, as "[REDACTED-xxxxxx]" with six hex digits of the path's hash so
// that two such files stay two paths. Control characters are escaped by
// the formatter (rule 9), not here. Paths without a secret are returned as
// they are.
func DisplayPath(p string) string {
	if p == "" || strings.Contains(p, "[REDACTED-") || !HoldsSecret(p) {
		// HoldsSecret is exactly whether Redact counts a value
		// (TestHoldsSecretIsRedact), without building the redacted text:
		// nearly every path of a walk is clean.
		return p
	}
	out, n := Redact(p)
	if n == 0 {
		return p
	}
	sum := sha256.Sum256([]byte(p))
	return strings.ReplaceAll(out, redacted, "[REDACTED-"+hex.EncodeToString(sum[:3])+"]")
}
