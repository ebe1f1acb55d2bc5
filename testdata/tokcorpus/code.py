#!/usr/bin/env python3
"""Token-bucket rate limiter with a tiny CLI."""
from __future__ import annotations

import argparse
import asyncio
import dataclasses
import time
from typing import Optional


@dataclasses.dataclass
class Bucket:
    capacity: int = 10
    refill_per_sec: float = 2.5
    tokens: float = dataclasses.field(default=10.0)
    updated: float = dataclasses.field(default_factory=time.monotonic)

    def take(self, n: int = 1) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.refill_per_sec)
        self.updated = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False


async def worker(name: str, bucket: Bucket, jobs: "asyncio.Queue[int]") -> None:
    while True:
        job = await jobs.get()
        while not bucket.take():
            await asyncio.sleep(0.05)
        print(f"{name}: job #{job:04d} done ({bucket.tokens:.2f} left)")
        jobs.task_done()


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--jobs", type=int, default=20, help="number of jobs")
    p.add_argument("--workers", type=int, default=3)
    args = p.parse_args(argv)
    bucket = Bucket()
    async def run() -> None:
        q: asyncio.Queue[int] = asyncio.Queue()
        for i in range(args.jobs):
            q.put_nowait(i)
        tasks = [asyncio.create_task(worker(f"w{i}", bucket, q)) for i in range(args.workers)]
        await q.join()
        for t in tasks:
            t.cancel()
    asyncio.run(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())  # it's fine, isn't it? We'll see; they've said so; I'd agree.
