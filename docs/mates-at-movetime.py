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

import subprocess
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "crates/engine/tests/data/mates.txt"


def problems(suite):
    """(FEN, N, id) for each problem of the suite."""
    for line in suite.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            fen, mate, comment = (part.strip() for part in line.split(";", 2))
            yield fen, int(mate.split()[1]), comment.split(":")[0]


def main():
    binary, ms = sys.argv[1], sys.argv[2]
    suite = Path(sys.argv[3]) if len(sys.argv) > 3 else SUITE
    engine = subprocess.Popen([binary, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def read_until(prefix):
        lines = []
        for line in engine.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                break
        return lines

    send("uci")
    read_until("uciok")
    solved = sooner = total = 0
    for fen, n, problem_id in problems(suite):
        total += 1
        send("ucinewgame")
        send("isready")
        read_until("readyok")
        send(f"position fen {fen}")
        send(f"go movetime {ms}")
        mates = [l for l in read_until("bestmove") if " score mate " in l]
        found = int(mates[-1].split(" score mate ")[1].split()[0]) if mates else None
        if found == n:
            solved += 1
        elif found is not None and 0 < found < n:
            sooner += 1
            print(f"sooner {problem_id}: mate {found}", file=sys.stderr)
        else:
            print(f"missed {problem_id}", file=sys.stderr)
    send("quit")
    print(f"{binary} movetime {ms} {suite.name}: {solved} of {total} mates found exactly, "
          f"{sooner} won sooner by the score")


if __name__ == "__main__":
    main()
