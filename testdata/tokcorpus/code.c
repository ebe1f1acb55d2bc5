/* ring.c - a lock-free single-producer single-consumer ring buffer. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RING_CAP 1024u /* must be a power of two */
#define MASK(i) ((i) & (RING_CAP - 1u))

typedef struct {
	_Alignas(64) atomic_size_t head;
	_Alignas(64) atomic_size_t tail;
	uint8_t data[RING_CAP];
} ring_t;

static int ring_push(ring_t *r, const uint8_t *src, size_t n)
{
	size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
	if (RING_CAP - (head - tail) < n)
		return -1; // full
	for (size_t i = 0; i < n; ++i)
		r->data[MASK(head + i)] = src[i];
	atomic_store_explicit(&r->head, head + n, memory_order_release);
	return 0;
}

static size_t ring_pop(ring_t *r, uint8_t *dst, size_t max)
{
	size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	size_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	size_t n = head - tail < max ? head - tail : max;
	for (size_t i = 0; i < n; i++) dst[i] = r->data[MASK(tail + i)];
	atomic_store_explicit(&r->tail, tail + n, memory_order_release);
	return n;
}

int main(int argc, char **argv)
{
	static ring_t r;
	uint8_t buf[64] = {0};
	const char *msg = argc > 1 ? argv[1] : "hello, ring!\n";
	if (ring_push(&r, (const uint8_t *)msg, strlen(msg)) != 0) {
		fprintf(stderr, "push failed: %s:%d\n", __FILE__, __LINE__);
		return 1;
	}
	size_t got = ring_pop(&r, buf, sizeof buf - 1);
	printf("%zu bytes: %.*s", got, (int)got, (char *)buf);
	return got == strlen(msg) ? 0 : 2;
}
