#!/usr/bin/env python3
"""How many problems of the mate suite the engine solves at a fixed move time.

    python3 docs/mates-at-movetime.py BIN MS [SUITE]

Sends each problem of SUITE (by default `crates/engine/tests/data/mates.txt`, the composed
problems; `crates/engine/tests/data/game-mates.txt` holds the mates from games) to `BIN engine`
over UCI with the default options (`ucinewgame`, then `go movetime MS`) and counts the problems
whose last `score mate` before `bestmove` is the problem's exact mate in N. Prints the count,
and the ids of the problems missed on standard error. A shorter mate score is counted apart: the
engine scores a perpetual check as lost where the repetition comes, which the suite's prover
(it ignores repetitions) cannot see, so such a win can be shorter than the mate.
"""

import sys
from pathlib import Path

from mate_suite import SUITE, problems
from uci_engine import UciEngine


def main():
    binary, ms = sys.argv[1], sys.argv[2]
    suite = Path(sys.argv[3]) if len(sys.argv) > 3 else SUITE
    engine = UciEngine(binary, "engine")
    solved = sooner = total = 0
    for fen, n, problem_id in problems(suite):
        total += 1
        mates = [l for l in engine.search(f"fen {fen}", f"movetime {ms}") if " score mate " in l]
        found = int(mates[-1].split(" score mate ")[1].split()[0]) if mates else None
        if found == n:
            solved += 1
        elif found is not None and 0 < found < n:
            sooner += 1
            print(f"sooner {problem_id}: mate {found}", file=sys.stderr)
        else:
            print(f"missed {problem_id}", file=sys.stderr)
    engine.quit()
    print(f"{binary} movetime {ms} {suite.name}: {solved} of {total} mates found exactly, "
          f"{sooner} won sooner by the score")


if __name__ == "__main__":
    main()
