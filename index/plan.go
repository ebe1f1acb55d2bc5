package index

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
	"io"
	"path/filepath"
	"slices"
	"sync"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Map plans (docs/index.md "Map plans"): what a no-query pack (a
// repository map) chose — its files and line ranges in rank order, its
// exact count and a keyed hash of its text — kept under a key of
// everything the map depends on, for the listing it was made from, so
// that a warm map of an unchanged tree reads only the files it packs
// (pack/mapplan.go). A plan holds no path, no text and no term: files are
// named by a keyed hash of their path (SipHash-2-4 under the per-user
// key, resolved against the listing), the text by its keyed HMAC, the key
// and the listing by keyed HMACs (SHA-256) too.
//
// The plans of a root live in one file, planName, beside its segments:
// at most maxPlans plans (the ones put longest ago go first), each of at
// most maxPlanBody bytes, written whole (a temporary file renamed into
// place) and read as refused.tbl is (no link followed, no FIFO waited on,
// a regular file of this user, an HMAC over all of it, the index's
// version and rules): anything else is ignored, and the next map writes
// the file again.
const (
	planName    = "map.plan"
	planMagic   = "ACIDXMAP"
	planVersion = 1
	planHeader  = 32 // magic, version, count, version hash, key id
	planRecHead = 32 + 32 + 8 + 4
	maxPlans    = 4
	maxPlanBody = 256 << 10
	maxPlanFile = planHeader + maxPlans*(planRecHead+maxPlanBody) + sideMAC
)

// planRec is one stored plan.
type planRec struct {
	key, listing [32]byte // keyed HMACs of the map's key and of its listing
	put          int64    // unix nanoseconds
	body         []byte
}

// planStore is the map plans of one root's index (pack.MapPlanStore).
type planStore struct {
	x  *Index
	mu *sync.Mutex
}

var _ pack.MapPlans = (*Set)(nil)

// planLocks orders this process's reads and writes of each plan file (by
// index directory); another process's write is a rename, read whole.
var planLocks dirLocks

// MapPlans implements [pack.MapPlans]: the plans of the root holding abs;
// nil when no index of the set holds it.
func (s *Set) MapPlans(abs string) pack.MapPlanStore {
	x := s.of(abs)
	if x == nil {
		return nil
	}
	return planStore{x: x, mu: planLocks.of(x.dir)}
}

// Listing implements [pack.MapPlanStore]: the keyed HMAC of every ref's
// paths and stat (size, modification and change times, inode, mode) and
// extra; false when a ref is no regular file or changed within
// racyWindow (its stat would not tell a change that follows).
func (ps planStore) Listing(refs []collector.FileRef, extra []byte) ([32]byte, bool) {
	var out [32]byte
	now := ps.x.now().UnixNano()
	m := hmac.New(sha256.New, ps.x.k.mac)
	io.WriteString(m, "map plan listing\x00")
	var b []byte
	for i := range refs {
		st, ok := statOf(refs[i].Info)
		if !ok || now-max(st.mtime, st.ctime) < int64(racyWindow) {
			return out, false
		}
		b = append(b[:0], refs[i].Abs...)
		b = append(b, 0)
		b = append(b, refs[i].Path...)
		b = append(b, 0)
		b = le.AppendUint64(b, uint64(st.size))
		b = le.AppendUint64(b, uint64(st.mtime))
		b = le.AppendUint64(b, uint64(st.ctime))
		b = le.AppendUint64(b, st.ino)
		b = le.AppendUint32(b, st.mode)
		m.Write(b)
	}
	writeLen(m, len(extra))
	m.Write(extra)
	copy(out[:], m.Sum(nil))
	return out, true
}

func writeLen(h hash.Hash, n int) {
	var b [8]byte
	le.PutUint64(b[:], uint64(n))
	h.Write(b[:])
}

// keyOf is the keyed HMAC a plan is stored under for the map's key.
func (ps planStore) keyOf(key [32]byte) (out [32]byte) {
	m := hmac.New(sha256.New, ps.x.k.mac)
	io.WriteString(m, "map plan key\x00")
	m.Write(key[:])
	copy(out[:], m.Sum(nil))
	return out
}

// PathHash implements [pack.MapPlanStore].
func (ps planStore) PathHash(path string) uint64 {
	return ps.x.k.other.sum64("map plan path\x00" + path)
}

// TextHash implements [pack.MapPlanStore]: the keyed HMAC of a packed
// text (as the index's content hashes: a guess cannot be confirmed
// without the key).
func (ps planStore) TextHash(text string) [16]byte {
	return ps.x.k.contentHash([]byte(text))
}

// Plan implements [pack.MapPlanStore].
func (ps planStore) Plan(key, listing [32]byte) ([]byte, bool) {
	k := ps.keyOf(key)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, r := range readPlans(filepath.Join(ps.x.dir, planName), ps.x.k, ps.x.refusedVH()) {
		if r.key == k {
			return r.body, r.listing == listing
		}
	}
	return nil, false
}

// PutPlan implements [pack.MapPlanStore]: the file is read again, the
// plan of key replaced (or added, the plan put longest ago going past
// maxPlans) and the file written whole. A plan over maxPlanBody is not
// kept.
func (ps planStore) PutPlan(key, listing [32]byte, body []byte) {
	if len(body) > maxPlanBody {
		return
	}
	k := ps.keyOf(key)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p := filepath.Join(ps.x.dir, planName)
	recs := readPlans(p, ps.x.k, ps.x.refusedVH())
	recs = slices.DeleteFunc(recs, func(r planRec) bool { return r.key == k })
	recs = append(recs, planRec{key: k, listing: listing, put: ps.x.now().UnixNano(), body: slices.Clone(body)})
	slices.SortStableFunc(recs, func(a, b planRec) int { return int(max(-1, min(1, b.put-a.put))) })
	if len(recs) > maxPlans {
		recs = recs[:maxPlans]
	}
	_ = writePlans(ps.x.dir, p, ps.x.k, ps.x.refusedVH(), recs)
}

// planFile is map.plan's envelope.
var planFile = sideFile{magic: planMagic, version: planVersion, hdr: planHeader,
	label: "map plans\x00", temp: ".tmp-*.plan", what: "map plans"}

// writePlans writes recs as the plan file p in dir: a temporary file
// renamed into place.
func writePlans(dir, p string, k *keys, vh uint64, recs []planRec) error {
	size := 0
	for _, r := range recs {
		size += planRecHead + len(r.body)
	}
	b := planFile.start(k, vh, len(recs), size)
	for _, r := range recs {
		b = append(b, r.key[:]...)
		b = append(b, r.listing[:]...)
		b = le.AppendUint64(b, uint64(r.put))
		b = le.AppendUint32(b, uint32(len(r.body)))
		b = append(b, r.body...)
	}
	return planFile.write(dir, p, k, b)
}

// readPlans reads the plan file p; nil when there is none or it fails a
// check: sideFile.read's, a file of at most maxPlanFile bytes, at most
// maxPlans plans each within maxPlanBody, no byte left over.
func readPlans(p string, k *keys, vh uint64) []planRec {
	b, n, ok := planFile.read(p, k, vh, func(size int64) bool { return size <= maxPlanFile })
	if !ok || n > maxPlans {
		return nil
	}
	return splitPlans(b, n)
}

// splitPlans parses the n plans of b; nil unless they fill b exactly.
func splitPlans(b []byte, n int) []planRec {
	recs := make([]planRec, 0, n)
	ok := splitRecords(b, n, planRecHead, maxPlanBody,
		func(h []byte) int { return int(le.Uint32(h[72:])) },
		func(h, body []byte) {
			r := planRec{put: int64(le.Uint64(h[64:])), body: body}
			copy(r.key[:], h)
			copy(r.listing[:], h[32:])
			recs = append(recs, r)
		})
	if !ok {
		return nil
	}
	return recs
}
