"""A fake Xiangqi engine for the `xiangqi match` tests.

Usage: fake_engine.py MODE [ARG] [--ucci] [--log FILE] [--score CP] [--delay SECONDS]
                      [--pidfile FILE] [--stubborn] [--ponder] [--hit-delay SECONDS]

Modes (what it does on `go`):
  script M1,M2,...  plays move number k of the list, k = moves already in the game
  illegal           plays e3e5 (never legal from the start position)
  malformed         sends garbage lines, then `bestmove zz9`
  garbage-then-h2e2 sends garbage lines and a scored info, then `bestmove h2e2`; after that
                    it behaves like `malformed`
  nomove            answers `bestmove (none)`
  crash             exits with status 3
  crash-once FILE   crashes on the first `go` of the first process (creating FILE), then
                    plays like `illegal` in later processes
  hang              never answers `go` (but still answers isready)
  slow SECONDS      sleeps, then plays like `illegal`
--ucci speaks UCCI instead of UCI; --log appends every received line to FILE; --delay makes
`script` think that long before each move; --pidfile appends the process id to FILE;
--stubborn ignores `quit` and SIGTERM (only SIGKILL ends it); --ponder makes `script` name the
next move of its list as the expected reply (`bestmove M ponder P`) and answer `go ponder` only
after `ponderhit` (as for `go`, --delay included, and --hit-delay more) or `stop` (at once).
"""
import os
import signal
import sys
import time

args = sys.argv[1:]
ucci = "--ucci" in args
log = None
score = 0
if "--log" in args:
    log = args[args.index("--log") + 1]
if "--score" in args:
    score = int(args[args.index("--score") + 1])
delay = 0.0
if "--delay" in args:
    delay = float(args[args.index("--delay") + 1])
stubborn = "--stubborn" in args
if stubborn:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if "--pidfile" in args:
    with open(args[args.index("--pidfile") + 1], "a") as f:
        f.write("%d\n" % os.getpid())
ponder = "--ponder" in args
hit_delay = 0.0
if "--hit-delay" in args:
    hit_delay = float(args[args.index("--hit-delay") + 1])
pondering = False
mode = args[0]
arg = args[1] if len(args) > 1 else ""
out = sys.stdout.buffer
moves_played = 0
gos = 0


def say(text):
    out.write(text if isinstance(text, bytes) else (text + "\n").encode())
    out.flush()


def script_answer():
    line_moves = arg.split(",")
    if ucci:
        say("info depth 1 score %d pv x" % score)
    else:
        say("info depth 1 score cp %d pv x" % score)
    best = "bestmove " + line_moves[moves_played % len(line_moves)]
    if ponder:
        best += " ponder " + line_moves[(moves_played + 1) % len(line_moves)]
    say(best)


def garbage():
    say(b"\xff\xfe not utf-8 \x80\n")
    say(b"x" * 100000 + b"\n")
    say("info depth x score cp")
    say("info score mate")
    say("bestmoves h2e2")
    say("info string bestmove a0a0")
    say("info depth 5 seldepth 7 score cp 17 nodes 10 pv h2e2 h9g7")


for raw in sys.stdin:
    line = raw.strip()
    if log:
        with open(log, "a") as f:
            f.write(line + "\n")
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        say("id name fake")
        say("option name Hash type spin default 16 min 1 max 64")
        say("option name Ponder type check default false")
        say("uciok")
    elif cmd == "ucci":
        say("id name fake")
        say("option usemillisec type check default false")
        say("option newgame type button")
        say("option ponder type check default false")
        say("ucciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "position":
        moves_played = len(words) - words.index("moves") - 1 if "moves" in words else 0
    elif cmd == "go":
        gos += 1
        if mode == "script" and len(words) > 1 and words[1] == "ponder":
            pondering = True
        elif mode == "script":
            time.sleep(delay)
            script_answer()
        elif mode == "illegal":
            say("bestmove e3e5")
        elif mode == "malformed":
            garbage()
            say("bestmove zz9")
        elif mode == "garbage-then-h2e2":
            garbage()
            say("bestmove h2e2" if gos == 1 else "bestmove zz9")
        elif mode == "nomove":
            say("bestmove (none)")
        elif mode == "crash":
            sys.exit(3)
        elif mode == "crash-once":
            if not os.path.exists(arg):
                open(arg, "w").close()
                sys.exit(3)
            say("bestmove e3e5")
        elif mode == "hang":
            pass
        elif mode == "slow":
            time.sleep(float(arg))
            say("bestmove e3e5")
    elif cmd == "ponderhit" and pondering:
        pondering = False
        time.sleep(delay + hit_delay)
        script_answer()
    elif cmd == "stop" and pondering:
        pondering = False
        script_answer()
    elif cmd == "quit" and not stubborn:
        if ucci:
            say("bye")
        break

# A stubborn engine outlives its input too.
while stubborn:
    time.sleep(1)
