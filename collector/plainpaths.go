package collector

import (
	"fmt"
	"sort"
	"strings"
)

// PlainPaths remembers, across processes, listed paths that are plain: a
// file's path that [DisplayPath] shows as itself and whose name
// [IsSecretPath] lets in. Both are pure functions of the path's text and
// the rules (compiled into the program, probed by [PathRulesProbe]), so a
// verdict kept under the rules' version holds for as long as they do,
// whatever happens on disk; a warm walk then need not run the redaction
// scan and the secret-name checks over every path again (issue 24: 8 % of
// a warm pack of a 100,000-file tree). The workspace index implements it
// by keyed hashes of the paths (docs/index.md "Plain paths"); a path that
// is not plain is never put, so nothing is learned of it.
type PlainPaths interface {
	// KnownPlain reports whether listed, the listed path of the file at
	// abs, is known plain.
	KnownPlain(abs, listed string) bool
	// PutPlain remembers that listed, the listed path of the file at abs,
	// is plain.
	PutPlain(abs, listed string)
}

// SetPlainPaths makes the walk consult and feed p for its files' path
// verdicts (nil: none). It is meant to be called once, before the
// workspace is used.
func (w *Workspace) SetPlainPaths(p PlainPaths) { w.plain = p }

// pathVerdict is what the walk shows of the listed path of the file at
// abs (DisplayPath) and IsSecretPath's reason for it ("" when none): from
// the store when it knows the path plain, else computed (and a plain
// path told to the store).
func (w *Workspace) pathVerdict(abs, listed string) (shown, secret string) {
	if w.plain != nil && w.plain.KnownPlain(abs, listed) {
		return listed, ""
	}
	shown = DisplayPath(listed)
	_, secret = IsSecretPath(listed)
	if w.plain != nil && shown == listed && secret == "" {
		w.plain.PutPlain(abs, listed)
	}
	return shown, secret
}

// pathProbes are the paths [PathRulesProbe] puts through DisplayPath and
// IsSecretPath.
var pathProbes = []string{
	"", "main.go", "a/b/c.txt", ".env", "conf/.env.example", "keys/id_rsa", "x/server.pem", "home/.aws/credentials",
	".docker/config.json", "deploy/credentials.json", "state/prod.tfstate", ".npmrc", "fixtures/ghp_0123456789abcdefghijABCDEFGHIJ012345.txt",
	"AKIAIOSFODNN7EXAMPLE/readme.md", "password=hunter2-Xq9v!zz/a.txt", "secrets.yaml", "dir/[REDACTED-abcdef]/x",
}

// PathRulesProbe is what DisplayPath and IsSecretPath make of a few probe
// paths, with the tables of secret names, extensions, key prefixes and
// credential files IsSecretPath reads. A store of path verdicts
// ([PlainPaths]) folds it, with [RulesProbe], into its version, so that a
// change of either set of rules invalidates what it kept.
func PathRulesProbe() string {
	var b strings.Builder
	for _, m := range []map[string]string{secretNames, secretExts, homeCredentials} {
		fmt.Fprintf(&b, "%q\n", sortedPairs(m))
	}
	fmt.Fprintf(&b, "%q %q\n", sshKeyPrefixes, sortedKeys(envTemplates))
	fmt.Fprintf(&b, "%q\n", sortedKeys(configExts))
	for _, p := range pathProbes {
		secret, why := IsSecretPath(p)
		fmt.Fprintf(&b, "%q|%q|%v|%s\n", p, DisplayPath(p), secret, why)
	}
	return b.String()
}

func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(out)
	return out
}
