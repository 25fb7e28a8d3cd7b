"""Measures the web server's limits (docs/ROBUSTNESS.md) against a running `xiangqi serve`.

Usage: python3 docs/web-limits.py [BINARY] [ids|lab|slow|edges|term|all]
BINARY defaults to target/release/xiangqi. Each part starts its own server on a fresh data
directory in /tmp and removes it afterwards. Linux only (it reads /proc for CPU time and RSS).
"""
import json, os, socket, subprocess, sys, threading, time, http.client, signal

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/xiangqi"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

def serve(data):
    p = subprocess.Popen([BIN, "serve", "--no-open", "--data-dir", data], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline()
    addr = [w for w in line.split() if w.startswith("http://")][0][7:].rstrip("/")
    threading.Thread(target=lambda: p.stdout.read(), daemon=True).start()
    return p, addr

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().split(")")[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

def rss(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1]) // 1024

def call(addr, method, path, body=None, timeout=60):
    h, port = addr.split(":")
    c = http.client.HTTPConnection(h, int(port), timeout=timeout)
    c.request(method, path, body=json.dumps(body) if body is not None else None, headers={"Content-Type": "application/json"})
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, data

def raw(addr, payload, hold=0.0, read=True):
    h, port = addr.split(":")
    s = socket.create_connection((h, int(port)))
    s.sendall(payload)
    if hold: time.sleep(hold)
    out = b""
    if read:
        s.settimeout(10)
        try:
            while True:
                d = s.recv(65536)
                if not d: break
                out += d
        except Exception: pass
    s.close()
    return out

def post_raw(addr, path, body):
    b = json.dumps(body).encode()
    return f"POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {len(b)}\r\n\r\n".encode() + b

which = sys.argv[2] if len(sys.argv) > 2 else "all"
data = f"/tmp/issue35-{os.getpid()}"
p, addr = serve(data)
try:
    if which in ("all", "ids"):
        t0 = time.time(); ids = []; lock = threading.Lock(); codes = {}
        def worker():
            for _ in range(2000):
                st, d = call(addr, "POST", "/api/games", {"human": "both"})
                with lock:
                    codes[st] = codes.get(st, 0) + 1
                    if st == 201: ids.append(json.loads(d)["id"])
        ts = [threading.Thread(target=worker) for _ in range(8)]
        [t.start() for t in ts]; [t.join() for t in ts]
        files = len([f for f in os.listdir(data + "/games") if f.endswith(".pgn")])
        print(f"ids: {len(ids)} created ({codes}) in {time.time()-t0:.1f} s, {len(set(ids))} distinct ids, {files} files")
    if which in ("all", "lab"):
        body = {"fen": START, "depth": 4, "algorithms": ["minimax", "negamax"]}
        c0 = cpu(p.pid)
        for _ in range(6):
            raw(addr, post_raw(addr, "/api/lab/run", body), hold=0.2, read=False)
        time.sleep(3)
        print(f"lab: six runs hung up after 0.2 s used {cpu(p.pid)-c0:.2f} CPU-s (3 s later)")
        c0 = cpu(p.pid)
        for _ in range(20):
            raw(addr, post_raw(addr, "/api/lab/run", body), hold=0.05, read=False)
        time.sleep(3)
        print(f"lab: twenty runs closed after 50 ms used {cpu(p.pid)-c0:.2f} CPU-s (3 s later)")
        t0 = time.time(); st, _ = call(addr, "POST", "/api/lab/run", {"fen": START, "depth": 1, "algorithms": ["alphabeta"]})
        print(f"lab: a depth-1 run after them: {st} in {time.time()-t0:.2f} s")
        # 70 clients at once
        res = {}; lk = threading.Lock()
        def c(i):
            st, d = call(addr, "POST", "/api/lab/run", dict(body, client=f"c{i}"))
            code = json.loads(d).get("code") or json.loads(d).get("error") if st != 200 else "ok"
            with lk: res[(st, code)] = res.get((st, code), 0) + 1
        ts = [threading.Thread(target=c, args=(i,)) for i in range(70)]
        [t.start() for t in ts]; time.sleep(1.5)
        for i in range(70): call(addr, "POST", "/api/lab/cancel", {"client": f"c{i}"})
        [t.join() for t in ts]
        print(f"lab: 70 clients, then each cancelled: {res}")
    if which in ("all", "slow"):
        body = {"fen": START, "depth": 4, "algorithms": ["minimax", "negamax", "alphabeta"]}
        st, d = call(addr, "POST", "/api/lab/tree", body)
        print(f"slow: one tree answer is {len(d)/1e6:.1f} MB ({st})")
        r0 = rss(p.pid)
        socks = []
        for _ in range(128):
            s = socket.create_connection(tuple([addr.split(':')[0], int(addr.split(':')[1])]))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(post_raw(addr, "/api/lab/tree", body)); socks.append(s)
        peak = r0; t0 = time.time(); answered = 0; lat = []
        def other(i):
            global answered
            try:
                s0 = time.time()
                st, _ = call(addr, "GET", "/api/levels", timeout=40)
                if st == 200: answered += 1; lat.append(time.time() - s0)
            except Exception: pass
        ts = [threading.Thread(target=other, args=(i,)) for i in range(10)]
        time.sleep(0.5); [t.start() for t in ts]
        while time.time() - t0 < 40:
            peak = max(peak, rss(p.pid)); time.sleep(0.2)
            if all(not t.is_alive() for t in ts) and time.time() - t0 > 25: break
        [t.join() for t in ts]
        print(f"slow: 128 unread tree requests: RSS {r0} MB before, peak {peak} MB, now {rss(p.pid)} MB; {answered}/10 other requests answered, slowest after {max(lat or [0]):.1f} s")
        for s in socks: s.close()
    if which in ("all", "edges"):
        for name, payload in [
            ("bad request line", b"GET / HTTP/1.1 x\r\nHost: a\r\n\r\n"),
            ("bad Content-Length", b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: zz\r\n\r\n"),
            ("431", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + b"a" * 70000 + b"\r\n\r\n"),
            ("414", b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
            ("absolute-form", b"GET http://evil.example/api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
            ("no Host", b"GET /api/games HTTP/1.1\r\n\r\n"),
            ("Sec-Fetch-Site cross-site", b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"),
        ]:
            out = raw(addr, payload).decode("utf-8", "replace")
            head, _, body = out.partition("\r\n\r\n")
            print(f"edges: {name}: {head.splitlines()[0] if head else '(nothing)'} {body[:120]}")
        st, d = call(addr, "POST", "/api/games", {"fen": "x" * 5000})
        print(f"edges: longest message {len(json.loads(d)['message'])} chars")
    if which in ("all", "term"):
        for state in ["idle", "lab run", "review"]:
            q, a = serve(data + "-t")
            if state == "lab run":
                threading.Thread(target=lambda: raw(a, post_raw(a, "/api/lab/run", {"fen": START, "depth": 4, "algorithms": ["minimax"]}), read=True), daemon=True).start()
            if state == "review":
                st, d = call(a, "POST", "/api/games", {"human": "both"})
                gid = json.loads(d)["id"]
                for m in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]: call(a, "POST", f"/api/games/{gid}/move", {"move": m})
                call(a, "POST", f"/api/games/{gid}/review")
            time.sleep(0.5)
            t0 = time.time(); q.send_signal(signal.SIGTERM); q.wait()
            print(f"term: SIGTERM while {state}: exited in {time.time()-t0:.2f} s")
finally:
    p.terminate(); p.wait()
    subprocess.run(["rm", "-rf", data, data + "-t"])
