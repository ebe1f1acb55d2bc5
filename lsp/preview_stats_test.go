package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestPreviewContext(t *testing.T) {
	root, outside := packWorkspace(t)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	c.open(filepath.Join(root, "cart/open.go"), "go", "package cart\n\n// EditorVersion is unsaved.\nvar EditorVersion = 2\n")
	params := map[string]any{
		"query":  "why does checkout fail for empty carts",
		"budget": map[string]any{"totalTokens": 4000, "systemReserve": 0, "responseReserve": 0},
		"search": map[string]any{"pattern": "CheckoutService"},
		"sources": []map[string]any{
			{"type": "tool_result", "label": "go test ./cart", "content": "--- FAIL: TestCheckout\n"},
			{"type": "reference", "uri": string(pathToURI(filepath.Join(outside, "elsewhere.go")))},
			{"type": "reference", "uri": string(pathToURI(filepath.Join(root, ".env")))},
		},
	}
	m := c.call(methodPreviewContext, params)
	if m.Error != nil {
		t.Fatalf("previewContext: %+v", m.Error)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(m.Result, &raw); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"included", "excluded", "estimatedTokens", "budget", "dedup"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("result lacks %q: %s", key, m.Result)
		}
	}
	if _, ok := raw["content"]; ok {
		t.Error("a preview has content")
	}
	var pv struct {
		Included  []map[string]any `json:"included"`
		Excluded  []map[string]any `json:"excluded"`
		Estimated int              `json:"estimatedTokens"`
		Budget    struct {
			Available int `json:"available"`
		} `json:"budget"`
	}
	if err := json.Unmarshal(m.Result, &pv); err != nil {
		t.Fatal(err)
	}
	if pv.Estimated <= 0 || pv.Estimated > pv.Budget.Available || pv.Budget.Available != 4000 {
		t.Errorf("estimatedTokens %d, available %d", pv.Estimated, pv.Budget.Available)
	}
	// Same item shape as packContext's.
	for _, it := range pv.Included {
		for _, key := range []string{"type", "path", "startLine", "endLine", "tokens", "score"} {
			if _, ok := it[key]; !ok {
				t.Errorf("included item lacks %s: %v", key, it)
			}
		}
	}
	types := map[string]bool{}
	for _, it := range pv.Included {
		types[it["type"].(string)] = true
	}
	for _, want := range []string{"tool_result", "open_file", "search_result"} {
		if !types[want] {
			t.Errorf("no %s included: %v", want, pv.Included)
		}
	}
	reasons := map[string]string{}
	for _, x := range pv.Excluded {
		reasons[filepath.Base(x["path"].(string))] = x["reason"].(string)
	}
	if reasons["elsewhere.go"] != "outside_workspace" || reasons[".env"] != "secret" {
		t.Errorf("exclusions: %v", pv.Excluded)
	}

	// Invalid params are refused as packContext refuses them.
	m = c.call(methodPreviewContext, map[string]any{"sources": []map[string]any{{"type": "nope"}}})
	if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, "sources[0].type") {
		t.Errorf("bad source type: %+v", m.Error)
	}
}

func TestPackStats(t *testing.T) {
	root, _ := packWorkspace(t)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)

	m := c.call(methodPackStats, nil)
	if m.Error != nil {
		t.Fatal(m.Error)
	}
	want := `{"packs":0,"failed":0,"latencyMs":{"p50":0,"p95":0,"max":0},"chunks":{"considered":0,"included":0},
		"tokens":{"packed":0,"available":0,"utilization":0},"dedup":{"exactRemoved":0,"overlapsMerged":0,"tokensSaved":0},
		"cache":{"hits":0,"misses":0,"evictions":0,"entries":0,"hitRate":0}}`
	if !jsonEqual([]byte(want), m.Result) {
		// The cache may hold counts of the budget status; only packs matter here.
		var got map[string]any
		_ = json.Unmarshal(m.Result, &got)
		if got["packs"] != 0.0 || got["failed"] != 0.0 {
			t.Errorf("before any pack: %s", m.Result)
		}
	}

	uri := string(pathToURI(filepath.Join(root, "cart/service.go")))
	pack := map[string]any{"query": "checkout", "budget": map[string]any{"totalTokens": 3000, "systemReserve": 0, "responseReserve": 0},
		"sources": []map[string]any{{"type": "reference", "uri": uri}}}
	c.result(methodPackContext, pack, nil)
	c.result(methodPackContext, pack, nil)
	c.result(methodPreviewContext, pack, nil) // previews are not packs
	if m := c.call(methodPackContext, map[string]any{"includeOpenFiles": false}); m.Error == nil {
		t.Fatal("a pack with nothing to pack succeeded")
	}
	if m := c.call(methodPackContext, map[string]any{"sources": []map[string]any{{"type": "nope"}}}); m.Error == nil {
		t.Fatal("a pack with a bad source succeeded")
	}

	var st struct {
		Packs     int `json:"packs"`
		Failed    int `json:"failed"`
		LatencyMs struct {
			P50, P95, Max float64
		} `json:"latencyMs"`
		Chunks struct {
			Considered, Included int
		} `json:"chunks"`
		Tokens struct {
			Packed, Available int
			Utilization       float64
		} `json:"tokens"`
		Cache struct {
			Hits, Misses, Entries int
			HitRate               float64 `json:"hitRate"`
		} `json:"cache"`
	}
	c.result(methodPackStats, nil, &st)
	if st.Packs != 2 || st.Failed != 2 {
		t.Errorf("packs %d failed %d, want 2 and 2", st.Packs, st.Failed)
	}
	if st.LatencyMs.Max <= 0 || st.LatencyMs.P50 > st.LatencyMs.P95 || st.LatencyMs.P95 > st.LatencyMs.Max {
		t.Errorf("latency %+v", st.LatencyMs)
	}
	if st.Chunks.Considered < st.Chunks.Included || st.Chunks.Included < 2 {
		t.Errorf("chunks %+v", st.Chunks)
	}
	if st.Tokens.Available != 6000 || st.Tokens.Packed <= 0 || st.Tokens.Packed > 6000 {
		t.Errorf("tokens %+v", st.Tokens)
	}
	if u := float64(st.Tokens.Packed) / 6000; st.Tokens.Utilization < u-0.0001 || st.Tokens.Utilization > u+0.0001 {
		t.Errorf("utilization %v, want %v", st.Tokens.Utilization, u)
	}
	// The second pack counted the same chunks again: the cache hit.
	if st.Cache.Hits == 0 || st.Cache.Misses == 0 || st.Cache.Entries == 0 {
		t.Errorf("cache %+v", st.Cache)
	}
	if r := float64(st.Cache.Hits) / float64(st.Cache.Hits+st.Cache.Misses); st.Cache.HitRate < r-0.0001 || st.Cache.HitRate > r+0.0001 {
		t.Errorf("hitRate %v, want %v", st.Cache.HitRate, r)
	}
}
