'use strict';
// Debounced search box with a tiny LRU of results.
const LRU_SIZE = 50;

class LRU {
  #map = new Map();
  constructor(size = LRU_SIZE) { this.size = size; }
  get(k) {
    if (!this.#map.has(k)) return undefined;
    const v = this.#map.get(k);
    this.#map.delete(k); this.#map.set(k, v);
    return v;
  }
  set(k, v) {
    this.#map.delete(k);
    this.#map.set(k, v);
    if (this.#map.size > this.size) this.#map.delete(this.#map.keys().next().value);
  }
}

export function debounce(fn, ms = 250) {
  let t = null;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

const cache = new LRU();
export async function search(q, { signal } = {}) {
  const key = q.trim().toLowerCase();
  if (key === '') return [];
  const hit = cache.get(key);
  if (hit) return hit;
  const res = await fetch(`/api/search?q=${encodeURIComponent(key)}&limit=${10 ** 2}`, { signal });
  if (!res.ok) throw new Error(`search failed: ${res.status} ${res.statusText}`);
  const { items = [] } = await res.json();
  const out = items.filter(Boolean).map(({ id, title, score }) => ({ id, title, score: +score.toFixed(3) }));
  cache.set(key, out);
  return out;
}

document.querySelector('#q')?.addEventListener('input', debounce(async (e) => {
  const list = document.querySelector('#results');
  list.innerHTML = (await search(e.target.value)).map((r) => `<li data-id="${r.id}">${r.title} — ${r.score}</li>`).join('');
}));
/* regex: /^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+)@example\.com$/i ; arrow => ; spread ...; nullish ?? ; optional ?. */
