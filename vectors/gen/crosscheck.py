"""The generator's cross-check: every vector against the C reference, over the runner protocol.

The C reference is asked through its runner, build/runners/c/smc-c-runner (runners/PROTOCOL.md),
the same process and the same requests the judge uses: one hello, then every request of the
run pipelined (a writer thread feeds stdin while the answers are read in order), split over
`jobs` processes. Each answer is compared with smcpy's expectation (_checks_for)."""

import concurrent.futures
import json
import subprocess
import tempfile
import threading
import time

import smcpy

ENTRIES = ("message", "call", "envelope")


class Reply:
    """What the C side answered: ok + payload (hex for encode, notation for decode), or an
    error class and offset (a skip, a crash or another answer is an error named after it)."""

    def __init__(self, ok, payload=None, cls=None, offset=None, raw=""):
        self.ok = ok
        self.payload = payload
        self.cls = cls
        self.offset = offset
        self.raw = raw

    def describe(self):
        if self.ok:
            return "ok %s" % (
                self.payload if isinstance(self.payload, str) else smcpy.notation_text(self.payload)
            )
        return "error %s at %s (%s)" % (self.cls, self.offset, self.raw.strip()[:200])


def _reply(msg, raw):
    status = msg.get("status")
    if status == "ok" and ("hex" in msg or "value" in msg):
        return Reply(True, msg["hex"] if "hex" in msg else msg["value"], raw=raw)
    if status == "error":
        return Reply(False, cls=msg.get("class"), offset=msg.get("offset"), raw=raw)
    return Reply(False, cls="runner-%s" % status, raw=raw)  # skipped, crash, summary, ...


class RunnerProcess:
    """Runs one batch of requests through a fresh runner process."""

    def __init__(self, argv, timeout):
        self.argv = argv
        self.timeout = timeout  # seconds without an answer before the runner is killed

    def run(self, reqs):
        errlog = tempfile.TemporaryFile()  # a file, so a chatty runner never blocks on stderr
        proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog
        )
        progress = [time.monotonic()]
        done = threading.Event()

        timed_out = []

        def watchdog():
            while not done.wait(1.0):
                if time.monotonic() - progress[0] > self.timeout:
                    timed_out.append(True)
                    proc.kill()
                    return

        def writer():
            try:
                for seq, req in enumerate(reqs, 1):
                    line = json.dumps(dict(req, seq=seq), ensure_ascii=False, separators=(",", ":"))
                    proc.stdin.write(line.encode("utf-8") + b"\n")
                proc.stdin.write(b'{"seq":%d,"op":"bye"}\n' % (len(reqs) + 1))
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass  # the runner died: the answers read so far say where

        threads = [threading.Thread(target=watchdog, daemon=True)]
        replies, problem = [], None
        try:
            try:
                proc.stdin.write(b'{"seq":0,"op":"hello","protocol":1,"protocols":[1,2]}\n')
                proc.stdin.flush()
            except (BrokenPipeError, OSError):
                pass  # it exited at once: the hello gets no answer
            threads[0].start()
            problem = self._hello_problem(proc.stdout.readline())
            if problem is None:
                threads.append(threading.Thread(target=writer, daemon=True))
                threads[1].start()
                problem = self._read_answers(proc, reqs, replies, progress)
        finally:
            done.set()
            for t in threads[1:]:
                t.join()
            if proc.poll() is None:
                proc.kill()
            rc = proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass  # a write the runner never read
            errlog.seek(0)
            stderr = errlog.read().decode("utf-8", "replace")
            errlog.close()
        if problem is None and len(replies) < len(reqs):
            problem = "%s before answering %s" % (
                "was killed after %d s without an answer" % self.timeout
                if timed_out
                else "stopped",
                json.dumps(reqs[len(replies)])[:300],
            )
        if problem is not None:
            raise SystemExit(
                "%s %s (exit status %s)%s"
                % (self.argv[0], problem, rc, ("; stderr: " + stderr[-500:]) if stderr else "")
            )
        return replies

    def _read_answers(self, proc, reqs, replies, progress):
        """Append one Reply per request, in order; the problem with the stream, or None."""
        for raw in proc.stdout:
            progress[0] = time.monotonic()
            text = raw.decode("utf-8", "replace")
            try:
                msg = json.loads(text)
            except ValueError:
                return "printed a line that is not JSON: %r" % text[:200]
            want = len(replies) + 1
            if msg.get("seq") != want:
                return "answered seq %r where %d was due (PROTOCOL.md P.4)" % (msg.get("seq"), want)
            if want > len(reqs):
                return None  # the answer to bye
            replies.append(_reply(msg, text))
        return None

    def _hello_problem(self, raw):
        try:
            hello = json.loads(raw)
        except ValueError:
            return "did not answer the hello with JSON: %r" % raw[:200]
        if (
            not isinstance(hello, dict)
            or hello.get("status") != "ok"
            or hello.get("protocol") not in (1, 2)
            or set(hello.get("entries", ())) != set(ENTRIES)
        ):
            return "is not a runner of every entry point (PROTOCOL.md P.1): %r" % raw[:300]
        return None


class CRunner:
    """The C reference's runner, over `jobs` processes (the allowed cores)."""

    def __init__(self, path, jobs=2, timeout=60):
        self.path = path
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.calls = 0

    def run(self, reqs):
        n = self.jobs
        chunks = [reqs[i::n] for i in range(n)]
        proc = RunnerProcess([self.path], self.timeout)
        with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
            results = list(pool.map(proc.run, chunks))
        out = [None] * len(reqs)
        for i, res in enumerate(results):
            out[i::n] = res
        self.calls += len(reqs)
        return out


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
                    cid,
                    label,
                    smcpy.notation_text(value)[:300],
                    r.describe()[:300],
                )

        out.append(({"op": "decode", "entry": entry, "hex": hx, "mode": mode}, check))

    def want_error(label, hx, mode, cls, offset):
        def check(r):
            if r.ok or r.cls != cls or (offset is not None and r.offset != offset):
                return "%s %s: expected %s at %s, C gave %s" % (
                    cid,
                    label,
                    cls,
                    offset,
                    r.describe()[:300],
                )

        out.append(({"op": "decode", "entry": entry, "hex": hx, "mode": mode}, check))

    def want_encode(value, canonical):
        def check(r):
            if canonical is None:
                if r.ok or r.cls != "not_encodable":
                    return "%s encode: expected not_encodable (spec §4.4), C gave %s" % (
                        cid,
                        r.describe()[:300],
                    )
            elif not r.ok or r.payload != canonical:
                return "%s encode: expected %s, C gave %s" % (
                    cid,
                    canonical[:300],
                    r.describe()[:300],
                )

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
    elif c["kind"] == "host_encode":
        # a host value refused (spec §17); only a largeInt has a notation to ask C about
        if "_refused_value" in c:
            want_encode(c["_refused_value"], None)
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
    for (_, check), reply in zip(pairs, replies, strict=True):
        f = check(reply)
        if f:
            failures.append(f)
    return failures
