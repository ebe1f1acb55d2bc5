package pack

// Abbreviations (issue 23 fifth pass; docs/ranking.md "File signals"):
// a task says "error", "request", "context", "configuration"; code says
// err, req, ctx, cfg. With "+abbrev" each query term also brings the
// abbreviations programmers write for it, and each abbreviation its full
// word, as further terms weighing abbrevWeight of their own weight. The
// table holds conventions shared by most languages, in the form the term
// scanner gives (lower case, a plural s cut). Measured on the evaluation
// (docs/quality.md "fifth pass", round 7).
const (
	featAbbrev = "abbrev"
	// abbrevWeight scales an added term's weight ("abbrevw=x").
	abbrevWeight = 0.5
)

// abbreviations maps a word to the abbreviations code writes for it.
var abbreviations = map[string][]string{
	"error": {"err"}, "context": {"ctx"}, "request": {"req"}, "response": {"resp"},
	"configuration": {"config", "cfg", "conf"}, "config": {"cfg", "conf"}, "message": {"msg"},
	"parameter": {"param"}, "argument": {"arg"}, "attribute": {"attr"}, "directory": {"dir"},
	"reference": {"ref"}, "initialize": {"init"}, "initialise": {"init"}, "initialization": {"init"},
	"string": {"str"}, "number": {"num"}, "value": {"val"}, "index": {"idx"}, "temporary": {"tmp", "temp"},
	"buffer": {"buf"}, "pointer": {"ptr"}, "length": {"len"}, "source": {"src"}, "destination": {"dst", "dest"},
	"object": {"obj"}, "function": {"func", "fn"}, "callback": {"cb"}, "previous": {"prev"},
	"current": {"cur", "curr"}, "address": {"addr"}, "header": {"hdr"}, "document": {"doc"},
	"environment": {"env"}, "option": {"opt"}, "information": {"info"}, "specification": {"spec"},
	"implementation": {"impl"}, "utility": {"util"}, "application": {"app"}, "authentication": {"auth"},
	"authorization": {"auth"}, "database": {"db"}, "expression": {"expr"}, "character": {"char"},
	"maximum": {"max"}, "minimum": {"min"}, "position": {"pos"}, "sequence": {"seq"},
	"synchronize": {"sync"}, "synchronous": {"sync"}, "asynchronous": {"async"}, "package": {"pkg"},
	"library": {"lib"}, "command": {"cmd"}, "statistic": {"stat"}, "element": {"elem"},
	"iterator": {"iter"}, "execute": {"exec"}, "template": {"tmpl"}, "identifier": {"id"},
	"repository": {"repo"}, "certificate": {"cert"}, "connection": {"conn"}, "receive": {"recv"},
	"administrator": {"admin"}, "allocate": {"alloc"}, "calculate": {"calc"}, "variable": {"var"},
	"declaration": {"decl"}, "description": {"desc"}, "dictionary": {"dict"}, "exception": {"exc"},
	"extension": {"ext"}, "format": {"fmt"}, "generate": {"gen"}, "image": {"img"},
	"instance": {"inst"}, "language": {"lang"}, "manager": {"mgr"}, "original": {"orig"},
	"password": {"pwd"}, "random": {"rand"}, "regular": {"regex", "regexp"},
}

// abbrevFull maps an abbreviation back to its words (built from
// abbreviations).
var abbrevFull = func() map[string][]string {
	out := map[string][]string{}
	for full, abs := range abbreviations {
		for _, a := range abs {
			out[a] = append(out[a], full)
		}
	}
	for _, fs := range out {
		sortStrings(fs)
	}
	return out
}()

// rankTerms returns the terms a query is ranked by: queryTerms(text),
// then with featAbbrev the abbreviations and full words of those terms
// that are not among them (at most maxQueryTerms in all); orig is the
// number of the query's own terms.
func rankTerms(text string, feat features) (terms []string, orig int) {
	terms = queryTerms(text)
	orig = len(terms)
	if !feat.abbrev || orig == 0 {
		return terms, orig
	}
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		seen[t] = true
	}
	for _, t := range terms[:orig] {
		for _, x := range append(append([]string(nil), abbreviations[t]...), abbrevFull[t]...) {
			if !seen[x] && len(terms) < maxQueryTerms {
				seen[x] = true
				terms = append(terms, x)
			}
		}
	}
	return terms, orig
}

// scaleAdded scales the weights of the added terms (from index orig on)
// by the feature's abbreviation weight.
func scaleAdded(w []float64, orig int, feat features) {
	for i := orig; i < len(w); i++ {
		w[i] *= feat.abbrevW
	}
}

// sortStrings sorts a short list in place (insertion sort).
func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
