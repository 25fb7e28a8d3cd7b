#!/usr/bin/env python3
"""Where each engine of a match spent its clock: recaptures, only moves and the rest.

    python3 docs/move-times.py GAMES.pgn

Reads a PGN written by `xiangqi match` (moves as `E7-E4`, each with a `{score/depth time}`
comment) and prints, per engine, the number of moves and their mean time in three groups:
recaptures (a capture on the square where the opponent captured on the move before), only
moves (a search of depth 1: the engine had one legal move) and all other moves.
"""

import re
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
MOVE = re.compile(r'([A-I])(\d)-([A-I])(\d)\s*\{[^}/]*/(\d+) ([\d.]+)s\}')


def board_from_fen(fen):
    """Occupied squares of a FEN's placement, as a set of (file, rank)."""
    occupied = set()
    for row, text in enumerate(fen.split()[0].split("/")):
        rank, file = 9 - row, 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            else:
                occupied.add((file, rank))
                file += 1
    return occupied


def games(path):
    """(tags, movetext) of each game in the file."""
    tags, moves = {}, []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        match = TAG.match(line)
        if match:
            if moves:
                yield tags, " ".join(moves)
                tags, moves = {}, []
            tags[match.group(1)] = match.group(2)
        elif line:
            moves.append(line)
    if moves:
        yield tags, " ".join(moves)


def main():
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
    spent = defaultdict(lambda: defaultdict(list))
    for tags, text in games(sys.argv[1]):
        fen = tags.get("FEN", start)
        occupied = board_from_fen(fen)
        side = 0 if fen.split()[1] == "w" else 1
        names = [tags["Red"], tags["Black"]]
        last_capture = None
        for m in MOVE.finditer(text):
            src = (ord(m.group(1)) - ord("A"), int(m.group(2)))
            dst = (ord(m.group(3)) - ord("A"), int(m.group(4)))
            depth, seconds = int(m.group(5)), float(m.group(6))
            capture = dst in occupied
            if depth == 1:
                kind = "only move"
            elif capture and last_capture == dst:
                kind = "recapture"
            else:
                kind = "other"
            spent[names[side]][kind].append(seconds)
            occupied.discard(src)
            occupied.add(dst)
            last_capture = dst if capture else None
            side = 1 - side
    for name, kinds in sorted(spent.items()):
        parts = []
        for kind in ("recapture", "only move", "other"):
            times = kinds.get(kind, [])
            mean = sum(times) / len(times) if times else 0.0
            parts.append(f"{kind}: {len(times)} moves, mean {mean:.3f} s")
        total = sum(sum(t) for t in kinds.values())
        print(f"{name}: " + "; ".join(parts) + f"; all moves {total:.1f} s")


if __name__ == "__main__":
    main()
