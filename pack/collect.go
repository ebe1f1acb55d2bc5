package pack

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/acode-lsp/acode-lsp/collector"
)

// source is a collected source with its index for stable ordering.
type source struct {
	collector.Source
	ranged bool // StartLine/EndLine restrict it to a range
	// userTime: Timestamp is a time of the user's activity (an open
	// document's last change, a timestamp the client sent), not a file's
	// modification time; only such times give recency (docs/design.md#rule-5).
	userTime bool
	// ref is the listed file of a walked source (for the index); nil for
	// other sources.
	ref *collector.FileRef
	// origin is where the text came from (origin.go).
	origin string
	// facts, when not nil, stand for the text of a walked file that was
	// not read (Content is empty): a map answered from the index
	// (mapindex.go).
	facts *fileFacts
	// kept, when not nil, is the kept file the text came from
	// (keptfiles.go): its line index and chunks are reused.
	kept *keptFile
}

var sourceTypes = map[string]collector.SourceType{
	"tool_result":   collector.ToolResult,
	"open_file":     collector.OpenFile,
	"search_result": collector.SearchResult,
	"reference":     collector.Reference,
}

// collect gathers every source of the request through the collector's
// filters (docs/design.md#rule-9); what is not let in goes to p.excluded.
func (p *pipeline) collect(open []OpenDoc) ([]source, error) {
	if err := checkSourceCount(len(p.req.Sources)); err != nil {
		return nil, err
	}
	out, err := p.explicitSources()
	if err != nil {
		return nil, err
	}
	if err := p.chargeBytes(out); err != nil {
		return nil, err
	}
	if len(p.req.Paths) > 0 || len(p.req.Include) > 0 {
		srcs, err := p.walked()
		if err != nil {
			return nil, err
		}
		out = append(out, srcs...)
	}
	if p.req.IncludeOpenFiles == nil || *p.req.IncludeOpenFiles {
		out = append(out, p.openSources(open)...)
	}
	if sp := p.req.Search; sp != nil {
		srcs, err := p.search(sp)
		if err != nil {
			return nil, err
		}
		out = append(out, srcs...)
	}
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	if err := p.chargeBytes(out); err != nil {
		return nil, err
	}
	return coalesceRanges(out), nil
}

// explicitSources are the request's sources let in by the collector's
// filters, in order; the others go to p.excluded.
func (p *pipeline) explicitSources() ([]source, error) {
	var out []source
	for i, sp := range p.req.Sources {
		if err := p.ctx.Err(); err != nil {
			return nil, err
		}
		s, excl, err := p.explicit(i, sp)
		if err != nil {
			return nil, err
		}
		if excl != nil {
			p.exclude(*excl, OriginRequest)
			continue
		}
		s.origin = OriginRequest
		out = append(out, s)
	}
	return out, nil
}

// walked are the sources of the request's paths and include globs: the
// walk ranked by file first when it asks for that, else every file.
func (p *pipeline) walked() ([]source, error) {
	if p.e.ws == nil {
		return nil, &ParamError{Field: "paths", Message: "no workspace root to walk"}
	}
	if err := checkGlobs(p.req.Include); err != nil {
		return nil, err
	}
	if p.fileFirst() {
		srcs, err := p.walkRanked()
		if err != nil {
			if p.ctx.Err() != nil {
				return nil, p.ctx.Err()
			}
			return nil, fmt.Errorf("walk: %w", err)
		}
		return srcs, nil
	}
	srcs, err := p.walkAll()
	if err != nil {
		if le := walkLimit(err); le != nil {
			return nil, le
		}
		return nil, fmt.Errorf("walk: %w", err)
	}
	return srcs, nil
}

// openSources are the editor's open documents the collector lets in, a
// modified one timed by its last change; the others go to p.excluded.
func (p *pipeline) openSources(open []OpenDoc) []source {
	ws := p.e.ws
	var out []source
	for _, d := range open {
		if ws == nil {
			p.exclude(collector.Exclusion{Type: collector.OpenFile, Path: d.AbsPath, Reason: collector.ReasonOutside, Detail: "no workspace root"}, OriginEditor)
			continue
		}
		s, excl := ws.Read(p.ctx, collector.OpenFile, d.AbsPath)
		if excl != nil {
			p.exclude(*excl, OriginEditor)
			continue
		}
		src := source{Source: s, origin: OriginEditor}
		if !d.Modified.IsZero() {
			src.Timestamp, src.userTime = d.Modified, true
		}
		out = append(out, src)
	}
	return out
}

// search runs the request's search (sp) over the workspace: its matches
// as ranged sources, what it left out recorded as excluded.
func (p *pipeline) search(sp *Search) ([]source, error) {
	if strings.TrimSpace(sp.Pattern) == "" {
		return nil, &ParamError{Field: "search.pattern", Message: "is empty; give the text (or regex) to search for, or leave out search"}
	}
	ws := p.e.ws
	if ws == nil {
		return nil, &ParamError{Field: "search", Message: "no workspace root to search"}
	}
	ctxLines := 5
	if sp.ContextLines != nil {
		if *sp.ContextLines < 0 {
			return nil, &ParamError{Field: "search.contextLines", Message: "must not be negative"}
		}
		ctxLines = *sp.ContextLines
	}
	if sp.MaxResults < 0 {
		return nil, &ParamError{Field: "search.maxResults", Message: "must not be negative"}
	}
	si, _ := IndexAs[collector.SearchIndex](p.e.Index) // every door's index answers searches (unwrap.go)
	srcs, excls, err := ws.SearchIndexed(walkProgress(p.ctx, p.progress, 0), si, sp.Pattern, sp.Regex, sp.MaxResults, ctxLines)
	if err != nil {
		if p.ctx.Err() != nil {
			return nil, p.ctx.Err()
		}
		if le := walkLimit(err); le != nil {
			return nil, le
		}
		return nil, &ParamError{Field: "search.pattern", Message: err.Error()}
	}
	for _, x := range excls {
		p.exclude(x, OriginSearch)
	}
	out := make([]source, 0, len(srcs))
	for _, s := range srcs {
		out = append(out, source{Source: s, ranged: s.StartLine > 0, origin: OriginSearch})
	}
	return out, nil
}

// walkAll reads every file under the request's paths that the include
// globs let in, as [collector.Workspace.Walk] would (same sources, same
// exclusions, same MaxWalkBytes limit), but keeps each file's listing so
// that chunking can consult the index: without it a pack with no query
// re-parses every file on every run (docs/benchmarks.md, "Scale").
func (p *pipeline) walkAll() ([]source, error) {
	ws := p.e.ws
	lean := p.leanWalk()
	var refs []collector.FileRef
	var listed []collector.Exclusion
	if p.lean != nil && p.lean.listed {
		refs, listed = p.lean.refs, p.lean.excls // listed by the first round
	} else {
		var err error
		if refs, listed, err = ws.List(p.ctx, collector.OpenFile, p.req.Paths...); err != nil {
			return nil, err
		}
		if p.lean != nil {
			p.lean.refs, p.lean.excls, p.lean.listed = refs, listed, true
		}
	}
	ikey := ""
	if lean != nil {
		ikey = indexChunkKey(p.chunkOptions(), p.tok.Encoding())
		lean.hits = 0
	}
	var excls []collector.Exclusion
	for _, x := range listed {
		if included(p.req.Include, x.Path) {
			excls = append(excls, x)
		}
	}
	if lean != nil {
		return p.walkLean(lean, refs, excls, ikey)
	}
	var last time.Time
	var out []source
	var bytes int64
	for i := range refs {
		if !included(p.req.Include, refs[i].Path) {
			continue
		}
		if err := p.ctx.Err(); err != nil {
			return nil, fmt.Errorf("collector: walk: %w", err)
		}
		s, x := ws.ReadRef(p.ctx, collector.OpenFile, refs[i])
		if x != nil {
			excls = append(excls, *x)
			continue
		}
		out = append(out, source{Source: s, ref: &refs[i], origin: OriginWorkspace})
		bytes += int64(len(s.Content))
		if now := time.Now(); now.Sub(last) >= progressEvery {
			last = now
			p.progress(fmt.Sprintf("collecting sources: %s files (%s) read", num(len(out)+len(excls)), mb(bytes)), 0)
		}
		if bytes > collector.MaxWalkBytes {
			return nil, &collector.WalkLimitError{Max: collector.MaxWalkBytes, Size: bytes}
		}
	}
	p.excludeSorted(excls)
	return out, nil
}

// excludeSorted records the exclusions of a walk, by path then reason.
func (p *pipeline) excludeSorted(excls []collector.Exclusion) {
	slices.SortFunc(excls, func(a, b collector.Exclusion) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(string(a.Reason), string(b.Reason))
	})
	for _, x := range excls {
		p.exclude(x, OriginWorkspace)
	}
}

// explicit turns one request source into a collected source.
func (p *pipeline) explicit(i int, sp Source) (source, *collector.Exclusion, error) {
	field := func(name string) string { return fmt.Sprintf("sources[%d].%s", i, name) }
	t, ok := sourceTypes[sp.Type]
	if !ok {
		return source{}, nil, &ParamError{Field: field("type"), Message: fmt.Sprintf("%q is not a source type; use tool_result, open_file, search_result or reference", sp.Type)}
	}
	if sp.Relevance != nil && (*sp.Relevance < 0 || *sp.Relevance > 1) {
		return source{}, nil, &ParamError{Field: field("relevance"), Message: "must be within [0,1]"}
	}
	start, end, err := lines(sp)
	if err != nil {
		return source{}, nil, &ParamError{Field: field("range"), Message: err.Error()}
	}
	var ts time.Time
	if sp.Timestamp != nil {
		ts = *sp.Timestamp
	}
	if t == collector.ToolResult {
		return toolResultSource(sp, ts, field)
	}
	s, excl, err := p.explicitText(t, sp, field)
	if excl != nil || err != nil {
		return source{}, excl, err
	}
	if sp.Relevance != nil {
		s.Relevance = sp.Relevance
	}
	if !ts.IsZero() {
		s.Timestamp = ts
	}
	if s.Path == "" && s.Label == "" {
		s.Label = sp.Type
	}
	out := source{Source: s, userTime: !ts.IsZero()}
	if start > 0 {
		out.StartLine, out.EndLine, out.ranged = start, end, true
	}
	return out, nil, nil
}

// toolResultSource is explicit's source of a tool result sp (timed ts):
// its content cleaned and redacted, excluded when empty.
func toolResultSource(sp Source, ts time.Time, field func(string) string) (source, *collector.Exclusion, error) {
	if sp.Content == nil {
		return source{}, nil, &ParamError{Field: field("content"), Message: "a tool_result needs content"}
	}
	s := collector.NewToolResult(sp.Label, *sp.Content)
	s.Relevance, s.Timestamp = sp.Relevance, ts
	if strings.TrimSpace(s.Content) == "" {
		return source{}, &collector.Exclusion{Type: collector.ToolResult, Path: "", Reason: collector.ReasonEmpty, Detail: "tool result " + collector.EscapePath(sp.Label) + " is empty"}, nil
	}
	return source{Source: s, userTime: !ts.IsZero()}, nil, nil
}

// explicitText is the text of request source sp (of type t, not a tool
// result) through the collector's rules: read or given for a path, given
// content cleaned and redacted as a tool's output without one.
func (p *pipeline) explicitText(t collector.SourceType, sp Source, field func(string) string) (collector.Source, *collector.Exclusion, error) {
	path := sp.Path
	if path == "" && sp.Content == nil {
		// In the words of the clients' JSON, where a file is named by "uri".
		return collector.Source{}, nil, &ParamError{Field: field("uri"), Message: "a source needs content or a uri"}
	}
	ws := p.e.ws
	var s collector.Source
	switch {
	case path != "" && ws == nil:
		return collector.Source{}, &collector.Exclusion{Type: t, Path: path, Reason: collector.ReasonOutside, Detail: "no workspace root"}, nil
	case path != "":
		// The collector applies every rule of the path (outside, ignored,
		// secret) and of the content, whether it reads the text or was given it.
		var excl *collector.Exclusion
		if sp.Content == nil {
			s, excl = p.readOnce(t, path)
		} else {
			s, excl = ws.ReadText(p.ctx, t, path, *sp.Content)
		}
		if excl != nil {
			return collector.Source{}, excl, nil
		}
		s.Label = sp.Label
	default:
		// Content without a path: the collector cleans and redacts it as it
		// does a tool's output (docs/design.md#rule-9).
		s = collector.NewContent(t, sp.Label, *sp.Content)
		if strings.TrimSpace(s.Content) == "" {
			return collector.Source{}, &collector.Exclusion{Type: t, Reason: collector.ReasonEmpty, Detail: "the content is empty"}, nil
		}
	}
	return s, nil, nil
}

// lines returns a source's 1-based inclusive range (0, 0 for the whole
// file).
func lines(sp Source) (int, int, error) {
	if sp.StartLine > 0 {
		e := sp.EndLine
		if e == 0 {
			e = sp.StartLine
		}
		if e < sp.StartLine {
			return 0, 0, fmt.Errorf("end line %d is before start line %d", e, sp.StartLine)
		}
		return sp.StartLine, e, nil
	}
	return 0, 0, nil
}

// exclude records an input that was not let in, once per path and reason
// (a search walks the same files as the paths it is given with).
func (p *pipeline) exclude(x collector.Exclusion, origin string) {
	key := string(x.Type) + "\x00" + x.Path + "\x00" + string(x.Reason)
	if x.Path != "" {
		if p.seenExcl == nil {
			p.seenExcl = map[string]bool{}
		}
		if p.seenExcl[key] {
			return
		}
		p.seenExcl[key] = true
	}
	p.excluded = append(p.excluded, Entry{Type: string(x.Type), Origin: origin, Path: x.Path, Reason: string(x.Reason), Detail: x.Detail})
}

// checkGlobs validates the globs of Request.Include.
func checkGlobs(globs []string) error {
	for i, g := range globs {
		field := fmt.Sprintf("paths[%d]", i)
		switch {
		case strings.TrimSpace(g) == "":
			return &ParamError{Field: field, Message: "is empty; give a glob relative to the workspace root (\"**/*.go\")"}
		case path.IsAbs(g) || filepath.IsAbs(g):
			return &ParamError{Field: field, Message: fmt.Sprintf("%q is absolute; globs are relative to the workspace root (\"src/**/*.ts\")", g)}
		case slices.Contains(strings.Split(g, "/"), ".."):
			return &ParamError{Field: field, Message: fmt.Sprintf("%q leaves the workspace root (\"..\"); globs match only files under the root", g)}
		case !doublestar.ValidatePattern(g):
			return &ParamError{Field: field, Message: fmt.Sprintf("%q is not a valid glob (check brackets and braces)", g)}
		}
	}
	return nil
}

// included reports whether a workspace-relative path matches one of globs
// (every path when there are none).
func included(globs []string, rel string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if ok, _ := doublestar.Match(strings.TrimPrefix(g, "./"), rel); ok {
			return true
		}
	}
	return false
}
