#!/usr/bin/env python3
"""How many nodes the engine needs for each problem of a mate suite, and how many it solves
within each of a few budgets.

    python3 docs/mates-within-nodes.py BIN LIMIT [SUITE] [ID ...]

Sends each problem of SUITE (by default `crates/engine/tests/data/mates.txt`; the mates from
games are in `crates/engine/tests/data/game-mates.txt`) to `BIN engine` over UCI (`ucinewgame`,
then `go nodes LIMIT`) and reads the node count of the first `info` line that scores the
problem's exact mate in N, forgetting it if a later line scores anything else. Prints one line
a problem (its id and the nodes, or `-`), then the problems solved within 20,000 to 500,000
nodes. Node counts are deterministic with one thread, so the tool can run beside other work;
unlike `go mate N` (the test `engine_finds_game_mates`), the search does not stop at the mate,
so the counts can differ from the test's by a problem or two. Given ids, only those problems.
"""

import sys
from pathlib import Path

from mate_suite import SUITE, problems
from uci_engine import UciEngine

BUDGETS = (20_000, 50_000, 100_000, 150_000, 300_000, 500_000)


def nodes_of(info_line):
    """The node count of an `info` line, or None when it has none."""
    words = info_line.split()
    return int(words[words.index("nodes") + 1]) if "nodes" in words else None


def main():
    binary, limit = sys.argv[1], int(sys.argv[2])
    suite = Path(sys.argv[3]) if len(sys.argv) > 3 else SUITE
    only = set(sys.argv[4:])
    engine = UciEngine(binary, "engine")
    results = []
    for fen, n, problem_id in problems(suite):
        if only and problem_id not in only:
            continue
        found = None
        for line in engine.search(f"fen {fen}", f"nodes {limit}"):
            if " score " not in line:
                continue
            if f" score mate {n} " in line:
                if found is None:
                    found = nodes_of(line)
            else:
                found = None  # the exact mate was lost again
        results.append(found)
        print(problem_id, "-" if found is None else found, flush=True)
    engine.quit()
    for budget in BUDGETS:
        solved = sum(1 for f in results if f is not None and f <= budget)
        print(f"within {budget}: {solved} of {len(results)}")


if __name__ == "__main__":
    main()
