package collector

import (
	"regexp"
	"testing"
)

// TestLazyRegexpsCompile compiles every provider rule's expression, so a
// broken one fails here rather than at a rule's first use, and checks the
// lazily compiled expression is the rule's own.
func TestLazyRegexpsCompile(t *testing.T) {
	for _, ru := range rules {
		if _, err := regexp.Compile(ru.expr); err != nil {
			t.Errorf("rule %s: %v", ru.id, err)
			continue
		}
		if got := ru.re().String(); got != ru.expr {
			t.Errorf("rule %s compiles %q, want %q", ru.id, got, ru.expr)
		}
		if ru.re() != ru.re() {
			t.Errorf("rule %s: compiled twice", ru.id)
		}
	}
}

// TestLazyPackageRegexps compiles every package-level expression that is
// compiled on first use (a broken one panics here, not in a pack) and
// checks each accessor returns one expression, compiled once.
func TestLazyPackageRegexps(t *testing.T) {
	for i, re := range []func() *regexp.Regexp{
		envNameRe, envValueRe, k8sBase64Re, k8sBlockRe, k8sDataRe, k8sEntryRe, k8sSecretKindRe, puttyLinesRe, puttyMACRe, authHeaderRe, base64Run16Re, base64RunRe, callRe, callStartRe, camelWordsRe, codeShapeRe, dottedIdentRe, exprRe, exprSplitRe, fieldNameRe, labelFieldsRe, moreFieldsRe, pemBeginRe, pemBodyRe, pemEndRe, pemHeaderRe, percentRe, templateRe, winVarRe, wordNameRe, base64RunLongRe, loginRe, pgpassRe, setRe, setVerbRe, setterRe, sqlPassRe, tfDefaultRe, tfVariableRe, authorizationRe, curlHeaderRe, curlTokenRe, curlUserRe, flagPassRe, goTypeRe, mysqlPassRe, nameValueRe, netrcRe, pairRe, redisPassRe, sshpassRe, xmlAttrRe, xmlElemRe, ansiRe,
	} {
		if re() == nil || re() != re() {
			t.Errorf("expression %d: not compiled once", i)
		}
	}
}
