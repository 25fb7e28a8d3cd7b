#!/usr/bin/env python3
"""How often a deeper search overturns the review's marks.

    python3 docs/review-check.py BIN DEPTH FACTOR GAME.pgn...

Starts `BIN serve` on a fresh data folder, imports each game, reviews it at DEPTH (`quick`,
`normal` or `deep`), and checks every marked move again with `BIN uci`: the move played and
the review's better move searched side by side (MultiPV 2, `searchmoves` the two) for FACTOR
times the time the review's check had. A mark holds when the deeper check still finds the
better move ahead by the mark's margin of winning chance (the same rule as the review,
`crates/play/src/review.rs`); it is softened when the margin falls to a lesser mark, and
overturned when it falls below any mark. Prints one line per mark and the totals.
"""

import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from uci_engine import UciEngine

CHANCE_SCALE = 250.0
MARKS = [("blunder", 0.25), ("mistake", 0.11), ("inaccuracy", 0.05)]
RANK = {"inaccuracy": 1, "mistake": 2, "blunder": 3}
# The check's time for one position at each review depth: twice the position's time
# (`ReviewDepth::limits`).
CHECK_MS = {"quick": 600, "normal": 3000, "deep": 12000}


def chance(score):
    return 1.0 / (1.0 + math.exp(-score / CHANCE_SCALE))


def mark_of(suggested, played):
    lost = chance(suggested) - chance(played)
    for name, threshold in MARKS:
        if lost >= threshold:
            return name
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, content_type="application/json"):
    data = None
    headers = {}
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers["content-type"] = content_type
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"null")


def compare(engine, fen, moves, played, better, ms):
    """The scores of `played` and `better` after `moves` from `fen`, searched side by side for
    `ms` milliseconds, and the lesser of their depths; None if either has no score."""
    position = f"fen {fen} moves {' '.join(moves)}" if moves else f"fen {fen}"
    scores = {}
    depth_of = {}
    for line in engine.search(position, f"movetime {ms} searchmoves {played} {better}"):
        words = line.split()
        if words[:1] != ["info"] or "multipv" not in words or "pv" not in words:
            continue
        depth = int(words[words.index("depth") + 1])
        move = words[words.index("pv") + 1]
        if "cp" in words:
            score = int(words[words.index("cp") + 1])
        else:
            # A mate, capped as the review caps every score.
            score = 2000 if int(words[words.index("mate") + 1]) > 0 else -2000
        if depth >= depth_of.get(move, 0):
            depth_of[move] = depth
            scores[move] = score
    if played not in scores or better not in scores:
        return None
    return scores[played], scores[better], min(depth_of[played], depth_of[better])


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    binary, depth, factor, files = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
    port = free_port()
    data = tempfile.mkdtemp(prefix="review-check-")
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--no-open", "--data-dir", data],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                call(base, "GET", "/api/games")
                break
            except OSError:
                time.sleep(0.1)
        uci = UciEngine(binary, "uci", {"MultiPV": 2, "OwnBook": "false"})
        totals = {"held": 0, "softened": 0, "overturned": 0, "unchecked": 0}
        checked_moves = 0
        moves_reviewed = 0
        started = time.time()
        for path in files:
            with open(path, "rb") as f:
                game = call(base, "POST", "/api/games/import?level=3", f.read(),
                            "application/octet-stream")
            gid = game["id"]
            call(base, "POST", f"/api/games/{gid}/review", {"depth": depth})
            while True:
                game = call(base, "GET", f"/api/games/{gid}")
                if game["review"] and game["review"]["finished"]:
                    break
                time.sleep(0.5)
            iccs = [m["iccs"] for m in game["moves"]]
            plies = game["review"]["plies"]
            moves_reviewed += len(plies)
            checked_moves += sum(1 for p in plies if p.get("check"))
            for i, ply in enumerate(plies):
                if not ply["mark"]:
                    continue
                again = compare(uci, game["start_fen"], iccs[:i], iccs[i], ply["best_iccs"],
                                int(CHECK_MS[depth] * factor))
                if again is None:
                    totals["unchecked"] += 1
                    verdict = "unchecked"
                else:
                    played, better, d = again
                    deeper = mark_of(better, played)
                    if deeper is None:
                        verdict = "overturned"
                    elif RANK[deeper] < RANK[ply["mark"]]:
                        verdict = "softened"
                    else:
                        verdict = "held"
                    totals[verdict] += 1
                check = ply["check"]
                print(f"{os.path.basename(path)} ply {i + 1} {iccs[i]}: {ply['mark']}, better "
                      f"{ply['best_iccs']} ({check['suggested']} vs {check['played']} at depth "
                      f"{check['depth']}); deeper: "
                      + ("-" if again is None else f"{again[1]} vs {again[0]} at depth {again[2]}")
                      + f" -> {verdict}")
        marks = sum(totals.values())
        print(f"{len(files)} games, {moves_reviewed} moves reviewed at {depth} in "
              f"{time.time() - started:.0f} s; {checked_moves} moves checked, {marks} marked: "
              + ", ".join(f"{k} {v}" for k, v in totals.items()))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
