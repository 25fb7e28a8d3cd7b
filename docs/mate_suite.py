"""The mate suites and a UCI engine to put them to: shared by docs/mates-at-movetime.py and
docs/mates-within-nodes.py."""

import subprocess
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "crates/engine/tests/data/mates.txt"


def problems(suite):
    """(FEN, N, id) for each problem of the suite."""
    for line in suite.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            fen, mate, comment = (part.strip() for part in line.split(";", 2))
            yield fen, int(mate.split()[1]), comment.split(":")[0]


class Engine:
    """`BIN engine` over UCI, with its default options."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "engine"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        for line in self.process.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                break
        return lines

    def search(self, fen, go):
        """The output of a fresh search (`ucinewgame`) of `fen` with `go GO`, to `bestmove`."""
        self.send("ucinewgame")
        self.send("isready")
        self.read_until("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go {go}")
        return self.read_until("bestmove")

    def quit(self):
        self.send("quit")
        self.process.wait()
