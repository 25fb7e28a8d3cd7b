"""The mate suites: read by docs/mates-at-movetime.py and docs/mates-within-nodes.py."""

from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "crates/engine/tests/data/mates.txt"


def problems(suite):
    """(FEN, N, id) for each problem of the suite."""
    for line in suite.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            fen, mate, comment = (part.strip() for part in line.split(";", 2))
            yield fen, int(mate.split()[1]), comment.split(":")[0]
