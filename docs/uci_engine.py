"""A UCI engine behind a pipe, for the measuring scripts in docs/ (the mate suites and the
review check)."""

import subprocess


class UciEngine:
    """`BIN MODE` (`uci` or `engine`) after the `uci` handshake, with `options` set."""

    def __init__(self, binary, mode="uci", options=None):
        self.process = subprocess.Popen([binary, mode], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")
        for name, value in (options or {}).items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.read_until("readyok")

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix):
        """The lines up to and including the first that starts with `prefix`. An engine that
        ends first raises, so that a crash is reported and not counted as a search's answer."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                try:
                    code = self.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    code = "none yet"
                raise RuntimeError(f"the engine's output ended before '{prefix}' (exit code "
                                   f"{code})")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def search(self, position, go):
        """The output of a fresh search (`ucinewgame`) of `position` (what follows
        `position `) with `go GO`, up to `bestmove`."""
        self.send("ucinewgame")
        self.send("isready")
        self.read_until("readyok")
        self.send(f"position {position}")
        self.send(f"go {go}")
        return self.read_until("bestmove")

    def quit(self):
        self.send("quit")
        self.process.wait()
