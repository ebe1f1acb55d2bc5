package pack

import (
	"regexp"
	"strings"
)

// Issue references (docs/ranking.md "Terms"): "#839", "(#1112)", "GH-42"
// in a query name an issue or pull request, never the code; as terms
// they are rare numbers that match a port, a status code or a line of
// test data by chance, with the high weight of a rare word. They are
// dropped from the query's terms unless nothing else is left.
const featIssueRefs = "issuerefs"

var issueRef = regexp.MustCompile(`(?i)(^|[^\w&#])(#|gh-)\d+\b`)

// stripIssueRefs is text without its issue references; text itself when
// it holds none or holds nothing else.
func stripIssueRefs(text string) string {
	if !strings.Contains(text, "#") && !strings.Contains(strings.ToLower(text), "gh-") {
		return text
	}
	out := issueRef.ReplaceAllString(text, "$1 ")
	if len(queryTerms(out)) == 0 {
		return text
	}
	return out
}

// queryText is the request's query as ranking reads it: without issue
// references unless that feature is switched off.
func (p *pipeline) queryText() string {
	if p.e != nil && !newFeatures(p.e.Ablate).issueRefs {
		return p.req.Query
	}
	return stripIssueRefs(p.req.Query)
}
