package mcp

import (
	"errors"
	"sync"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/collector"
)

// watcher follows the directories of the workspace's listed files
// (fsnotify: inotify, kqueue, ReadDirectoryChangesW) and reports each
// change to the current workspace, so that the workspace keeps its
// listing across packs instead of walking and stating the tree for each
// one (collector.Workspace.KeepListings; issue 24). A directory is watched
// from the first listing that holds it, and a listing is kept only when
// every directory it needs was watched before its walk began; so the
// first pack walks and starts watching, the second walks again and is
// kept, and later packs walk nothing until a change. When a watch cannot
// be added (the system's limit of watches, say) the workspace never keeps
// a listing: every pack walks, as without a watcher.
type watcher struct {
	fw  *fsnotify.Watcher
	log *zap.Logger
	// current returns the workspace changes are reported to (the one of
	// the server's current env); nil when there is none.
	current func() *collector.Workspace
	// changed is called with every changed path (the workspace index
	// forgets the file's entries).
	changed func(path string)

	mu      sync.Mutex
	watched map[string]bool
	failed  bool
	events  uint64 // changes reported, for tests
	done    chan struct{}
}

// newWatcher starts a watcher; nil (and the reason logged) when the
// system offers none.
func newWatcher(log *zap.Logger, current func() *collector.Workspace, changed func(string)) *watcher {
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		log.Info("file watcher unavailable; every pack walks the workspace", zap.Error(err))
		return nil
	}
	w := &watcher{fw: fw, log: log, current: current, changed: changed, watched: map[string]bool{}, done: make(chan struct{})}
	go w.run()
	return w
}

// admit is the workspace's watch hook: it watches the directories not yet
// watched and reports whether all of them were watched already.
func (w *watcher) admit(dirs []string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed {
		return false
	}
	all := true
	for _, d := range dirs {
		if w.watched[d] {
			continue
		}
		all = false
		if err := w.fw.Add(d); err != nil {
			// Logged without the path's text: a directory name may hold
			// anything; the count says enough.
			w.log.Info("file watcher cannot watch every directory; every pack walks the workspace", zap.Int("watched", len(w.watched)), zap.Error(errors.Unwrap(err)))
			w.failed = true
			return false
		}
		w.watched[d] = true
	}
	return all
}

// run reports the watcher's events until it is closed.
func (w *watcher) run() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.mu.Lock()
				delete(w.watched, ev.Name) // a directory of that name is watched afresh
				w.mu.Unlock()
			}
			if ws := w.current(); ws != nil {
				ws.FileChanged(ev.Name)
			}
			w.changed(ev.Name)
			w.mu.Lock()
			w.events++
			w.mu.Unlock()
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			// Events were lost (a queue overflow): nothing kept can be
			// trusted.
			w.log.Info("file watcher lost events; the workspace is walked again", zap.Error(err))
			if ws := w.current(); ws != nil {
				ws.DropListings()
			}
		}
	}
}

// seen returns the number of changes reported so far.
func (w *watcher) seen() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.events
}

// close stops the watcher and waits for its goroutine.
func (w *watcher) close() {
	_ = w.fw.Close()
	<-w.done
}

// watcher returns the server's file watcher, started at the first call
// when Options.WatchFiles; nil when off or unavailable.
func (s *Server) watcher(log *zap.Logger) *watcher {
	if !s.opts.WatchFiles {
		return nil
	}
	s.watchOnce.Do(func() {
		s.watch = newWatcher(log, s.currentWorkspace, s.forget)
	})
	return s.watch
}

// currentWorkspace returns the workspace of the current env, nil when none.
func (s *Server) currentWorkspace() *collector.Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.env == nil {
		return nil
	}
	return s.env.sess.Workspace()
}

// forget drops a changed file's entries from the workspace index and
// the files the engine keeps.
func (s *Server) forget(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.indexMemo != nil {
		s.indexMemo.Forget(path)
	}
	if s.env != nil {
		s.env.sess.Engine().Forget(path)
	}
}

// closeWatcher stops the file watcher at the end of the session.
func (s *Server) closeWatcher() {
	s.watchOnce.Do(func() {}) // none starts after this
	if s.watch != nil {
		s.watch.close()
	}
}
