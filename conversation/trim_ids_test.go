package conversation

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestTrimToolResultsByPosition: tool results without an id, or with an
// id no call made, belong to the call right before them, so pass 3 drops
// them with it; a result after a user message has no call to belong to
// and is dropped alone. Every budget from the whole conversation down to
// an overflow is tried.
func TestTrimToolResultsByPosition(t *testing.T) {
	msgs := []Message{
		sys("s"), user("q1"),
		call(""), tool("", out("r1", 31)), tool("zz", out("r2", 32)),
		asst("answer1"),
		user("q2"), tool("", out("stray", 33)),
		user("q3"), call("c"), tool("c", out("rc", 30)), asst("answer3"),
	}
	has := func(shapes []string, prefix string) bool {
		return slices.ContainsFunc(shapes, func(s string) bool { return strings.HasPrefix(s, prefix) })
	}
	hasSuffix := func(shapes []string, suffix string) bool {
		return slices.ContainsFunc(shapes, func(s string) bool { return strings.HasSuffix(s, suffix) })
	}
	strayAlone := false
	for max := ConversationTokens(words{}, msgs); ; max-- {
		got, err := Trim(context.Background(), words{}, TrimRequest{Messages: msgs, MaxContextTokens: max, PreserveRecentTurns: ptr(1)})
		if err != nil { // nothing more can go
			break
		}
		s := shape(got.Messages)
		// Placeholders are told apart by their token counts (31, 32, 33).
		call, r1, r2 := has(s, "assistant[]"), has(s, "tool=r1") || hasSuffix(s, ",31)"), has(s, "tool(zz)")
		if r1 != call || r2 != call {
			t.Fatalf("budget %d: the call and its results by position were split: %q", max, s)
		}
		if !has(s, "user=q2") && (has(s, "tool=stray") || hasSuffix(s, ",33)")) {
			strayAlone = true
		}
	}
	if !strayAlone {
		t.Error("no budget dropped q2 and kept the result after it: the stray result went with another unit")
	}
}
