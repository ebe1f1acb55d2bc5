package pack

// The origins of an item: where the pipeline got the text of a source
// ([Entry.Origin]; docs/design.md, "Item types and origins"). The type of an
// item stays one of the four source types of the contract, which decide
// its budget category and priority; the origin says whether a file was
// open in the editor or only read from the workspace.
const (
	// OriginEditor: a document open in the editor (includeOpenFiles), its
	// current text.
	OriginEditor = "editor"
	// OriginWorkspace: a file found by walking the request's paths (the
	// command line's PATHs, MCP's paths); nothing is open.
	OriginWorkspace = "workspace"
	// OriginSearch: a match of the request's search.
	OriginSearch = "search"
	// OriginRequest: one of the request's sources (a tool result, a
	// reference, an open_file source an editor named).
	OriginRequest = "request"
)

// kindTitles name the source types in the budget report.
var kindTitles = map[string]string{"tool_result": "tool result", "open_file": "open file", "search_result": "search result", "reference": "reference"}

// kindTitle names an entry in the budget report: a walked file is a "file",
// not an "open file", since nothing is open.
func kindTitle(e Entry) string {
	if e.Type == "open_file" && e.Origin == OriginWorkspace {
		return "file"
	}
	return kindTitles[e.Type]
}
