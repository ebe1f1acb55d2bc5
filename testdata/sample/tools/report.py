"""Summarise failed checkouts from the order log."""

import collections
import json
import sys


def load(path):
    """Yield one event dict per line of a JSON-lines log."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


class FailureReport:
    """Counts checkout failures by reason."""

    def __init__(self):
        self.reasons = collections.Counter()

    def add(self, event):
        if event.get("type") == "checkout_failed":
            self.reasons[event.get("reason", "unknown")] += 1

    def render(self):
        rows = [f"{reason:<20} {n:>5}" for reason, n in self.reasons.most_common()]
        return "\n".join(rows) or "no failures"


def main(argv):
    report = FailureReport()
    for event in load(argv[1]):
        report.add(event)
    print(report.render())


if __name__ == "__main__":
    main(sys.argv)
