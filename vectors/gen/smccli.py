"""Drive the C reference CLI and compare it with smcpy.

Two ways to talk to it:
* batch (default when `smc batch --help` works): one `smc batch` process, JSON lines
  {"seq","op","entry","hex"|"value","mode"} in, {"seq","status",...} out;
* one process per request: `smc encode --hex [--as call|envelope] -` (notation on stdin, hex
  on stdout) and `smc decode --hex [--strict] [--as ...] -` (hex on stdin, notation on
  stdout, or exit 1 with `error: <class> at offset <N>: <message>` on stderr)."""

import concurrent.futures
import json
import re
import subprocess
import threading

import smcpy

ERR_RE = re.compile(r"error: ([a-z0-9_]+)(?: at offset ([^:\s]+))?")


class Reply:
    """What the C side answered: ok + payload (hex for encode, notation for decode), or an
    error class and offset."""

    def __init__(self, ok, payload=None, cls=None, offset=None, raw=""):
        self.ok = ok
        self.payload = payload
        self.cls = cls
        self.offset = offset
        self.raw = raw

    def describe(self):
        if self.ok:
            return "ok %s" % (self.payload if isinstance(self.payload, str)
                              else smcpy.notation_text(self.payload))
        return "error %s at %s (%s)" % (self.cls, self.offset, self.raw.strip()[:200])


class SmcCli:
    def __init__(self, path, jobs=2, timeout=60, batch=None):
        self.path = path
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.calls = 0
        self.batch = self._has_batch() if batch is None else batch

    def _has_batch(self):
        try:
            p = subprocess.run([self.path, "batch", "--help"], capture_output=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return p.returncode == 0 and b"JSON" in p.stdout + p.stderr

    # -- one process per request ---------------------------------------------------------
    def _run_one(self, req):
        self.calls += 1
        entry_args = [] if req["entry"] == "message" else ["--as", req["entry"]]
        if req["op"] == "encode":
            argv = ["encode", "--hex"] + entry_args + ["-"]
            stdin = smcpy.notation_text(req["value"]) + "\n"
        else:
            argv = ["decode", "--hex"] + (["--strict"] if req["mode"] == "strict" else []) + \
                entry_args + ["-"]
            stdin = req["hex"] + "\n"
        try:
            p = subprocess.run([self.path] + argv, input=stdin.encode("utf-8"),
                               capture_output=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return Reply(False, cls="timeout", raw="timeout after %ds" % self.timeout)
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode == 0:
            if req["op"] == "encode":
                return Reply(True, out.strip().lower(), raw=err)
            try:
                return Reply(True, json.loads(out), raw=err)
            except ValueError as e:
                return Reply(False, cls="cli-bad-json(%s)" % e, raw=out[:200])
        m = ERR_RE.search(err)
        if p.returncode == 1 and m:
            off = m.group(2) or ""
            return Reply(False, cls=m.group(1), offset=int(off) if off.isdigit() else None,
                         raw=err)
        return Reply(False, cls="cli-failure(rc=%s)" % p.returncode, raw=err + out)

    # -- batch ---------------------------------------------------------------------------
    def _run_batch(self, reqs):
        proc = subprocess.Popen([self.path, "batch"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        def writer():
            try:
                for seq, req in enumerate(reqs, 1):
                    line = dict(req, seq=seq)
                    proc.stdin.write((json.dumps(line, ensure_ascii=False,
                                                 separators=(",", ":")) + "\n").encode("utf-8"))
                proc.stdin.write(b'{"op":"bye"}\n')
                proc.stdin.close()
            except BrokenPipeError:
                pass

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        replies = {}
        for raw in proc.stdout:
            self.calls += 1
            try:
                msg = json.loads(raw)
            except ValueError:
                raise SystemExit("smc batch printed a line that is not JSON: %r" % raw[:200])
            seq = msg.get("seq")
            if seq is None:
                continue  # the answer to bye
            if msg.get("status") == "ok":
                payload = msg.get("hex") if "hex" in msg else msg.get("value")
                replies[seq] = Reply(True, payload, raw=raw.decode("utf-8", "replace"))
            else:
                replies[seq] = Reply(False, cls=msg.get("class"), offset=msg.get("offset"),
                                     raw=raw.decode("utf-8", "replace"))
        t.join()
        rc = proc.wait()
        stderr = proc.stderr.read().decode("utf-8", "replace")
        if rc != 0:
            missing = next((i for i in range(1, len(reqs) + 1) if i not in replies), None)
            at = "" if missing is None else "; first unanswered request: %s" % json.dumps(
                reqs[missing - 1])[:300]
            raise SystemExit("smc batch exited with %s%s: %s" % (rc, at, stderr[-500:]))
        out = []
        for seq in range(1, len(reqs) + 1):
            out.append(replies.get(seq) or Reply(False, cls="no-answer", raw=stderr[-300:]))
        return out

    def run(self, reqs):
        if self.batch:
            # Split across `jobs` batch processes to use the allowed cores.
            n = self.jobs
            chunks = [reqs[i::n] for i in range(n)]
            with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
                results = list(pool.map(self._run_batch, chunks))
            out = [None] * len(reqs)
            for i, res in enumerate(results):
                out[i::n] = res
            return out
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(self._run_one, reqs))


def _contains_largeint(v):
    if isinstance(v, list):
        if v and v[0] == "largeint":
            return True
        return any(_contains_largeint(x) for x in v)
    return False


def _checks_for(c):
    """(request, check(reply) -> failure text or None) pairs for one vector."""
    entry = c.entry
    cid = c["id"]
    out = []

    def want_value(label, hx, mode, value):
        def check(r):
            if not r.ok or not smcpy.same(r.payload, value):
                return "%s %s: expected value %s, C gave %s" % (
                    cid, label, smcpy.notation_text(value)[:300], r.describe()[:300])
        out.append(({"op": "decode", "entry": entry, "hex": hx, "mode": mode}, check))

    def want_error(label, hx, mode, cls, offset):
        def check(r):
            if r.ok or r.cls != cls or (offset is not None and r.offset != offset):
                return "%s %s: expected %s at %s, C gave %s" % (
                    cid, label, cls, offset, r.describe()[:300])
        out.append(({"op": "decode", "entry": entry, "hex": hx, "mode": mode}, check))

    def want_encode(value, canonical):
        def check(r):
            if canonical is None:
                if r.ok or r.cls != "not_encodable":
                    return "%s encode: expected not_encodable (spec §4.4), C gave %s" % (
                        cid, r.describe()[:300])
            elif not r.ok or r.payload != canonical:
                return "%s encode: expected %s, C gave %s" % (cid, canonical[:300],
                                                              r.describe()[:300])
        out.append(({"op": "encode", "entry": entry, "value": value}, check))

    if "canonical" in c:
        want_encode(c["value"], c["canonical"])
        want_value("decode canonical (flutter)", c["canonical"], "flutter", c["value"])
        want_value("decode canonical (strict)", c["canonical"], "strict", c["value"])
        for a in c.get("accepted", []):
            label = "decode accepted %s" % a["hex"][:40]
            want_value(label + " (flutter)", a["hex"], "flutter", c["value"])
            if a["strict"] is None:
                want_value(label + " (strict)", a["hex"], "strict", c["value"])
            else:
                want_error(label + " (strict)", a["hex"], "strict", a["strict"], None)
    else:
        err = c["error"]
        for mode in err["modes"]:
            want_error("decode (%s)" % mode, c["hex"], mode, err["class"], err["offset"])
        if err["modes"] == ["strict"]:
            want_value("decode (flutter)", c["hex"], "flutter", c["value"])
            if _contains_largeint(c["value"]):
                want_encode(c["value"], None)
    return out


def cross_check(cli, registry):
    pairs = []
    for c in registry.values():
        pairs.extend(_checks_for(c))
    replies = cli.run([req for req, _ in pairs])
    failures = []
    for (req, check), reply in zip(pairs, replies):
        f = check(reply)
        if f:
            failures.append(f)
    return failures
