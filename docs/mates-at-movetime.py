#!/usr/bin/env python3
"""How many problems of the mate suite the engine solves at a fixed move time.

    python3 docs/mates-at-movetime.py BIN MS

Sends each problem of `crates/engine/tests/data/mates.txt` to `BIN engine` over UCI with the
default options (`ucinewgame`, then `go movetime MS`) and counts the problems whose last
`score mate` before `bestmove` is the problem's exact mate in N. Prints the count.
"""

import subprocess
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "crates/engine/tests/data/mates.txt"


def problems():
    """(FEN, N) for each problem of the suite."""
    for line in SUITE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            fen, mate, _ = (part.strip() for part in line.split(";", 2))
            yield fen, int(mate.split()[1])


def main():
    binary, ms = sys.argv[1], sys.argv[2]
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
    solved = total = 0
    for fen, n in problems():
        total += 1
        send("ucinewgame")
        send("isready")
        read_until("readyok")
        send(f"position fen {fen}")
        send(f"go movetime {ms}")
        mates = [l for l in read_until("bestmove") if " score mate " in l]
        if mates and int(mates[-1].split(" score mate ")[1].split()[0]) == n:
            solved += 1
    send("quit")
    print(f"{binary} movetime {ms}: {solved} of {total} mates found exactly")


if __name__ == "__main__":
    main()
