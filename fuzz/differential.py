#!/usr/bin/env python3
"""Differential replay: run fuzz inputs through every runner and report disagreements.

Replays a corpus directory or an AFL++ queue through each runner named with --runner, over
the runner protocol (runners/PROTOCOL.md), and compares every runner's answer with the
reference runner's (the C reference codec by default):

  * decode, in flutter and strict mode, with the entry point of the input (message, call,
    envelope): the value (notation.md), or the error class, and the offset when both
    runners declare `error-offsets`;
  * for a successful decode, encode of the decoded value: the bytes, or the error class.

Requests a runner cannot take (an entry it lacks, strict mode without `strict-mode`, a
value whose features it does not declare) are not applicable, never a disagreement. Each
disagreement is diagnosed against the bug catalogue (spec/bugs-in-the-wild.md): the
catalogued bugs whose mutant runner (runners/c, smc-c-mutant-runner) gives exactly the
runner's answer. It is then minimized (removing chunks of bytes, halving down to single
bytes, lowering byte values) while it keeps that diagnosis, or, when no bug matches, its
signature (the kind of disagreement and each side's verdict class), so an alignment bug
cannot shrink into an unrelated one; the `shift` of the input stays that of the original.
The result is written as a ready-to-paste vector candidate (spec/vectors.md: kind + hex +
the reference's verdict) to --out, with report.md beside.

  python3 fuzz/differential.py --runner c=build/runners/c/smc-c-runner \\
      --runner swift=runners/swift/.build/release/smc-swift-runner \\
      --runner kotlin=runners/kotlin/out/smc-kotlin-runner \\
      --runner "dart=runners/dart/run-runner.sh --profile pure" \\
      --out /tmp/diff fuzz/corpus/decode build-fuzz-afl/out/decode/default/queue

Inputs start with the fuzz targets' option byte (fuzz/fuzz_helpers.h), which is dropped
(--raw keeps every byte). The entry point comes from the directory (…/call/… → call,
…/envelope/… → envelope, else message) unless --entry says otherwise ("all" sends every
input to all three). Python standard library only. --selftest checks this script against
fuzz/testdata/fake_runner.py with deliberately planted bugs.
"""

import argparse
import glob
import hashlib
import json
import os
import select
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The vector generator's feature computation (spec/vectors.md V.3), never a copy of it.
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "vectors", "gen"))
sys.dont_write_bytecode = True  # keep the source tree clean
import caselib  # noqa: E402

ENTRIES = ("message", "call", "envelope")
MODES = ("flutter", "strict")


# ---------------------------------------------------------------- runners


class Runner:
    """One long-lived runner process speaking runners/PROTOCOL.md."""

    def __init__(self, name, cmd, timeout, env=None):
        self.name, self.cmd, self.timeout, self.env = name, cmd, timeout, env
        self.proc, self.buf, self.seq = None, b"", 0
        self.hello = None
        self.restarts = 0
        self.start()

    def start(self):
        self.stop()
        self.proc = subprocess.Popen(
            self.cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=self.env,
        )
        self.buf, self.seq = b"", 0
        resp = self._exchange({"seq": 0, "op": "hello", "protocol": 1, "protocols": [1, 2]})
        if resp.get("status") != "ok" or resp.get("protocol") not in (1, 2):
            raise RuntimeError(f"runner {self.name}: bad handshake: {resp}")
        self.hello = resp

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    @property
    def entries(self):
        return set(self.hello.get("entries", []))

    def caps(self, direction):
        return set(self.hello.get("capabilities", {}).get(direction, []))

    @property
    def offsets(self):
        return "error-offsets" in self.hello.get("options", [])

    def _readline(self):
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "timeout"
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None, "crash"
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line, None

    def _exchange(self, req):
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return {"status": "error", "class": "crash", "message": "stdin closed"}
        line, failure = self._readline()
        if failure:
            return {"status": "error", "class": failure, "message": failure}
        try:
            resp = json.loads(line)
        except ValueError:
            return {
                "status": "error",
                "class": "protocol_error",
                "message": line[:200].decode(errors="replace"),
            }
        if resp.get("seq") != req["seq"] or resp.get("status") not in (
            "ok",
            "error",
            "skipped",
            "crash",
            "not_implemented",
        ):
            return {"status": "error", "class": "protocol_error", "message": str(resp)[:200]}
        # protocol 2 answers (PROTOCOL.md P.3), in the shapes the comparison below knows
        if resp["status"] == "crash":
            return {"status": "error", "class": "crash", "message": resp.get("message", "")}
        if resp["status"] == "not_implemented":
            return {"status": "error", "class": None, "message": "not implemented"}
        if resp["status"] == "ok" and "summary" in resp and "value" not in resp:
            resp["value"] = ["summary", resp["summary"]]  # never equal to a decoded value
        return resp

    def request(self, op, **fields):
        self.seq += 1
        resp = self._exchange(dict(seq=self.seq, op=op, **fields))
        if resp.get("class") in ("crash", "timeout", "protocol_error"):
            self.restarts += 1
            self.start()  # judge semantics (PROTOCOL.md P.4): restart and go on
        return resp

    def close(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.seq += 1
                self._exchange({"seq": self.seq, "op": "bye"})
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
        self.stop()


# ---------------------------------------------------------------- notation helpers


def normalize_class(cls):
    return None if cls is None else str(cls).strip().lower().replace("-", "_").replace(" ", "_")


def canonical_json(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def unordered(v):
    """Map entries as a multiset (for runners without `map-order`, PROTOCOL.md P.5)."""
    if isinstance(v, list) and v:
        if v[0] == "map" and len(v) == 2:
            pairs = [[unordered(k), unordered(x)] for k, x in v[1]]
            return ["map", sorted(pairs, key=canonical_json)]
        return [unordered(x) for x in v]
    return v


def features(v, entry):
    """Feature words (spec/vectors.md V.3) a value of `entry` needs: the generator's own
    computation, so a candidate's features are the ones its vector would get."""
    return caselib.entry_value_features(entry, v)


# ---------------------------------------------------------------- comparison


def verdict(resp):
    """A short, normalized verdict for reports."""
    if resp["status"] == "ok":
        if "value" in resp:
            return "ok " + canonical_json(resp["value"])
        return "ok " + resp.get("hex", "")
    if resp["status"] == "skipped":
        return "skipped: " + str(resp.get("reason", ""))
    off = resp.get("offset")
    return normalize_class(resp.get("class")) + ("" if off is None else f" at {off}")


def compare_decode(ref, ref_resp, run, resp, entry, mode):
    """None if the runner agrees (or the case is not applicable), else a disagreement kind."""
    if resp["status"] == "skipped" or ref_resp["status"] == "skipped":
        return None
    caps = run.caps("decode")
    if ref_resp["status"] == "ok" and not features(ref_resp["value"], entry) <= caps:
        return None
    if resp["status"] == "ok" and not features(resp["value"], entry) <= caps:
        return None
    if (
        ref_resp["status"] == "error"
        and normalize_class(ref_resp.get("class")) == "depth_limit"
        and "depth-limit" not in caps
    ):
        return None
    if (ref_resp["status"] == "ok") != (resp["status"] == "ok"):
        return "verdict:" + ("ref-ok" if ref_resp["status"] == "ok" else "ref-error")
    if resp["status"] == "ok":
        a, b = ref_resp["value"], resp["value"]
        if "map-order" not in caps:
            a, b = unordered(a), unordered(b)
        return None if canonical_json(a) == canonical_json(b) else "value"
    if normalize_class(ref_resp.get("class")) != normalize_class(resp.get("class")):
        return "class"
    if (
        ref.offsets
        and run.offsets
        and resp.get("offset") is not None
        and ref_resp.get("offset") != resp.get("offset")
    ):
        return "offset"
    return None


def compare_encode(ref_enc, enc):
    if enc["status"] == "skipped" or ref_enc["status"] == "skipped":
        return None
    if (ref_enc["status"] == "ok") != (enc["status"] == "ok"):
        return "encode-verdict"
    if enc["status"] == "ok":
        return None if ref_enc.get("hex") == enc.get("hex") else "encode-bytes"
    return (
        None
        if normalize_class(ref_enc.get("class")) == normalize_class(enc.get("class"))
        else "encode-class"
    )


def shift_of(data):
    """Runners that honour `shift` (PROTOCOL.md P.2) get the input at an odd address, 1..7
    bytes past an 8-aligned one, chosen by the input, so address-relative alignment fails.
    Chosen once per original input: a shrinking input keeps it (see run())."""
    return 1 + sum(data) % 7


def check_one(ref, run, entry, mode, data, shift=None):
    """Disagreement of `run` with `ref` on one input, or None.

    Returns (kind, ref_decode, run_decode, ref_encode, run_encode)."""
    if entry not in run.entries or entry not in ref.entries:
        return None
    if mode == "strict" and (
        "strict-mode" not in run.caps("decode") or "strict-mode" not in ref.caps("decode")
    ):
        return None
    h = data.hex()
    shift = shift_of(data) if shift is None else shift

    def decode_with(r):
        extra = {"shift": shift} if "shift" in r.hello.get("options", []) else {}
        return r.request("decode", entry=entry, hex=h, mode=mode, **extra)

    ref_resp = decode_with(ref)
    resp = decode_with(run)
    kind = compare_decode(ref, ref_resp, run, resp, entry, mode)
    if kind:
        return kind, ref_resp, resp, None, None
    if ref_resp["status"] != "ok" or resp["status"] != "ok":
        return None
    value = ref_resp["value"]
    if not features(value, entry) <= run.caps("encode"):
        return None
    ref_enc = ref.request("encode", entry=entry, value=value)
    enc = run.request("encode", entry=entry, value=value)
    kind = compare_encode(ref_enc, enc)
    return (kind, ref_resp, resp, ref_enc, enc) if kind else None


# ---------------------------------------------------------------- minimization


def minimize(data, still, budget):
    """Smallest input found for which still() holds, within `budget` checks.

    Alternates two passes until neither changes anything: remove chunks (half the input,
    then quarters, ... down to single bytes), then lower single byte values (to 0, to half,
    by one), which shrinks counts and sizes so the next removal pass can take more away."""
    tests = 0
    changed = True
    while changed and tests < budget:
        changed = False
        chunk = max(1, len(data) // 2)
        while tests < budget:
            i, progressed = 0, False
            while i < len(data) and tests < budget:
                cand = data[:i] + data[i + chunk :]
                tests += 1
                if still(cand):
                    data, progressed, changed = cand, True, True
                else:
                    i += chunk
            if not progressed:
                if chunk == 1:
                    break
                chunk //= 2
        for i in range(len(data)):
            for lower in sorted({0, data[i] // 2, max(data[i] - 1, 0)}):
                if lower >= data[i] or tests >= budget:
                    continue
                cand = data[:i] + bytes([lower]) + data[i + 1 :]
                tests += 1
                if still(cand):
                    data, changed = cand, True
                    break
    return data, tests


def family(kind):
    """Which side of the codec a disagreement is about: its encoder or its decoder."""
    return "encode" if kind.startswith("encode") else "decode"


# ---------------------------------------------------------------- diagnosis


def same_answer(mutant, resp, run):
    """True if the mutant runner's answer is the runner's answer, by the judge's rules: the
    same value (maps as multisets without `map-order`) or bytes, or the same error class and,
    when the runner reports offsets, the same offset."""
    if mutant["status"] != resp["status"] or resp["status"] == "skipped":
        return False
    if resp["status"] == "ok":
        if "value" in resp:
            a, b = mutant.get("value"), resp["value"]
            if "map-order" not in run.caps("decode"):
                a, b = unordered(a), unordered(b)
            return canonical_json(a) == canonical_json(b)
        return mutant.get("hex") == resp.get("hex")
    if normalize_class(mutant.get("class")) != normalize_class(resp.get("class")):
        return False
    return (
        not run.offsets or resp.get("offset") is None or mutant.get("offset") == resp.get("offset")
    )


def signature(found):
    """What a disagreement is when no catalogued bug explains it: its kind and each side's
    verdict class (a value's top-level type, or the error class)."""
    kind, ref_resp, resp, ref_enc, enc = found

    def cls(r):
        if r["status"] == "ok":
            return "ok:" + (r["value"][0] if isinstance(r.get("value"), list) else "bytes")
        return r["status"] + ":" + str(normalize_class(r.get("class")))

    if kind.startswith("encode"):
        grew = None
        if enc["status"] == "ok" and ref_enc["status"] == "ok":
            grew = (len(enc["hex"]) - len(ref_enc["hex"])) // 2
        return kind, cls(ref_enc), cls(enc), grew
    return kind, cls(ref_resp), cls(resp)


class Diagnoser:
    """The bug catalogue (spec/bugs-in-the-wild.md) as mutant runners, one process per bug,
    started when first needed: which catalogued bugs give exactly a runner's answer."""

    def __init__(self, mutant_runner, ids, timeout):
        self.path, self.ids, self.timeout = mutant_runner, list(ids), timeout
        self.runners = {}

    @staticmethod
    def locate(path):
        """(mutant runner, catalogue ids) from --mutant-runner, else the first build*/ that
        has both; (None, []) when there is none."""
        cands = (
            [path]
            if path
            else sorted(
                glob.glob(os.path.join(HERE, "..", "build*", "runners", "c", "smc-c-mutant-runner"))
            )
        )
        for runner in cands:
            tool = os.path.join(os.path.dirname(runner), "..", "..", "mutants", "smc-mutants")
            try:
                out = subprocess.run(
                    [tool, "--json"], capture_output=True, text=True, timeout=30, check=True
                )
                ids = [e["id"] for e in json.loads(out.stdout) if not e["control"]]
                return runner, ids
            except (OSError, subprocess.SubprocessError, ValueError, KeyError):
                continue
        return None, []

    def _runner(self, bug):
        if bug not in self.runners:
            env = dict(os.environ, SMC_MUTANTS=bug)
            self.runners[bug] = Runner("mutant:" + bug, [self.path], self.timeout, env=env)
        return self.runners[bug]

    def reproduces(self, bug, run, entry, mode, data, shift, found):
        """True if a codec with `bug` gives the answer `run` gave in the disagreement `found`."""
        kind, ref_resp, resp, ref_enc, enc = found
        m = self._runner(bug)
        if family(kind) == "encode":
            return same_answer(m.request("encode", entry=entry, value=ref_resp["value"]), enc, run)
        # the address the runner saw: the shift it was sent, or (if it ignores shift) aligned
        at = shift if "shift" in run.hello.get("options", []) else 0
        return same_answer(
            m.request("decode", entry=entry, hex=data.hex(), mode=mode, shift=at), resp, run
        )

    def diagnose(self, run, entry, mode, data, shift, found, bugs=None):
        return [
            b
            for b in (self.ids if bugs is None else bugs)
            if self.reproduces(b, run, entry, mode, data, shift, found)
        ]

    def close(self):
        for r in self.runners.values():
            r.close()


# ---------------------------------------------------------------- vector candidates


def guess_section(entry, ref_resp, data):
    """Spec section a candidate most likely belongs to (the reviewer confirms it)."""
    if ref_resp["status"] == "ok":
        v = ref_resp["value"]
        if entry == "call":
            return "10.1"
        if entry == "envelope":
            return "11.1" if v[0] == "success" else "11.2"
        return {
            "null": "4.1",
            "bool": "4.1",
            "i32": "4.2",
            "i64": "4.2",
            "largeint": "4.4",
            "f64": "4.3",
            "str": "5.1",
            "u8s": "6.1",
            "i32s": "6.2",
            "i64s": "6.3",
            "f64s": "6.4",
            "f32s": "6.5",
            "list": "7.1",
            "map": "7.2",
            "custom": "8.1",
        }.get(v[0], "9.1")
    cls, off = normalize_class(ref_resp.get("class")), ref_resp.get("offset")
    if cls == "not_canonical":
        return "2.2" if off is not None and off < len(data) and data[off] in (0xFE, 0xFF) else "3.3"
    if cls == "trailing_bytes":
        return {"message": "9.1", "call": "10.1", "envelope": "11.5"}[entry]
    if cls == "bad_envelope":
        return "10.1" if entry == "call" else "11.5"
    return {
        "unknown_tag": "8.1",
        "bad_utf8": "5.3",
        "depth_limit": "15.1",
        "truncated": "14.1",
    }.get(cls, "14.1")


def vector_kind(entry, ref_resp):
    if entry == "message":
        return "message"
    if entry == "call":
        return "method_call"
    if ref_resp["status"] == "ok":
        return "success_envelope" if ref_resp["value"][0] == "success" else "error_envelope"
    return "envelope"


def candidate(entry, mode, data, found, runner_name, ref_name, source, cause=(), shift=None):
    kind, ref_resp, resp, ref_enc, enc = found
    sha = hashlib.sha1(f"{entry}:{mode}:{data.hex()}".encode()).hexdigest()[:10]
    section = guess_section(entry, ref_resp, data)
    vid = f"s{int(section.split('.')[0]):02d}.{section.split('.')[1]}-fuzz-diff-{sha}"
    got = verdict(enc if kind.startswith("encode") else resp)
    want = verdict(ref_enc if kind.startswith("encode") else ref_resp)
    vec = {
        "id": vid,
        "description": f"differential fuzzing: {runner_name} gives {got[:80]}, {ref_name} gives {want[:80]}",
        "section": section,
        "tier": "required",
        "kind": vector_kind(entry, ref_resp),
        "since": "0.1",
    }
    if ref_resp["status"] == "ok":
        value = ref_resp["value"]
        vec["features"] = sorted(features(value, entry))
        vec["value"] = value
        if ref_enc is None or ref_enc["status"] != "ok":
            vec["hex"] = data.hex()  # no canonical form (e.g. largeInt): reviewer decides
        elif ref_enc["hex"] == data.hex():
            vec["canonical"] = data.hex()
        else:
            vec["canonical"] = ref_enc["hex"]
            vec["accepted"] = [
                {
                    "hex": data.hex(),
                    "why": "found by differential fuzzing",
                    "strict": None if mode == "strict" else "REVIEW: strict-mode class",
                }
            ]
    else:
        cls = normalize_class(ref_resp.get("class"))
        error = {
            "class": cls,
            "offset": ref_resp.get("offset"),
            "modes": [mode] if mode == "strict" else ["flutter", "strict"],
        }
        vec["features"] = sorted(
            caselib.reject_features(caselib.Case(kind=vec["kind"], hex=data.hex(), error=error))
        )
        vec["hex"] = data.hex()
        vec["error"] = error
        if cls == "bad_utf8":
            vec["tier"] = "implementation-defined"
    diag = f"; diagnosis {', '.join(cause)}" if cause else ""
    at = f", shift {shift}" if shift is not None else ""
    vec["origin"] = {
        "source": "fuzz",
        "ref": f"fuzz/differential.py: {source} ({runner_name} vs {ref_name}, "
        f"{mode} mode{at}, {kind}{diag})",
    }
    return vec


# ---------------------------------------------------------------- driver


def input_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for f in sorted(files):
                    if not f.startswith(".") and not f.startswith("README"):
                        out.append(os.path.join(root, f))
        else:
            out.append(p)
    return out


def entries_for(path, choice):
    if choice == "all":
        return list(ENTRIES)
    if choice != "auto":
        return [choice]
    parts = os.path.abspath(path).split(os.sep)
    if "call" in parts:
        return ["call"]
    if "envelope" in parts:
        return ["envelope"]
    return ["message"]


def run(args):
    runners = {}
    for spec in args.runner:
        name, _, cmd = spec.partition("=")
        if not cmd:
            sys.exit(f"differential: --runner wants NAME=CMD, got {spec!r}")
        runners[name] = Runner(name, shlex.split(cmd), args.timeout)
    ref_name = args.reference or next(iter(runners))
    if ref_name not in runners:
        sys.exit(f"differential: reference runner {ref_name!r} not given with --runner")
    ref = runners[ref_name]
    others = [r for n, r in runners.items() if n != ref_name] or (
        [ref] if args.self_compare else []
    )
    if not others:
        sys.exit(
            "differential: give at least two runners (or --self-compare to check one against itself)"
        )
    for r in runners.values():
        codec = r.hello.get("codec", {})
        print(
            f"differential: {r.name}: {codec.get('name')} {codec.get('version')} "
            f"entries={sorted(r.entries)} offsets={'yes' if r.offsets else 'no'}"
        )
    diagnoser = None
    if not args.no_diagnosis:
        mutant, ids = Diagnoser.locate(args.mutant_runner)
        if mutant:
            diagnoser = Diagnoser(mutant, ids, args.timeout)
            print(f"differential: diagnosis against {len(ids)} catalogued bugs ({mutant})")
        else:
            print(
                "differential: no smc-c-mutant-runner (and smc-mutants) built: disagreements keep their "
                "signature while shrinking, without a diagnosis"
            )

    os.makedirs(args.out, exist_ok=True)
    files = input_files(args.inputs)
    seen, report, checked = set(), [], 0
    for path in files:
        with open(path, "rb") as f:
            raw = f.read()
        if not args.raw:
            if not raw:
                continue
            raw = raw[1:]
        if len(raw) > args.max_len:
            continue
        for entry in entries_for(path, args.entry):
            for mode in MODES:
                for run_ in others:
                    checked += 1
                    shift = shift_of(raw)
                    found = check_one(ref, run_, entry, mode, raw, shift)
                    if not found:
                        continue
                    kind = first_kind = found[0]
                    cause = (
                        diagnoser.diagnose(run_, entry, mode, raw, shift, found)
                        if diagnoser
                        else []
                    )
                    sig = signature(found)

                    def still(
                        cand,
                        run_=run_,
                        entry=entry,
                        mode=mode,
                        shift=shift,
                        kind=kind,
                        cause=cause,
                        sig=sig,
                    ):
                        # same shift as the original, and the same cause (or, with none, the
                        # same signature): shrinking must not turn one bug into another
                        again = check_one(ref, run_, entry, mode, cand, shift)
                        if again is None or family(again[0]) != family(kind):
                            return False
                        if cause:
                            return bool(
                                diagnoser.diagnose(run_, entry, mode, cand, shift, again, cause)
                            )
                        return signature(again) == sig

                    small, tests = minimize(raw, still, args.budget)
                    final = check_one(ref, run_, entry, mode, small, shift) or found
                    kind = final[0]
                    final_cause = (
                        diagnoser.diagnose(run_, entry, mode, small, shift, final, cause)
                        if cause
                        else []
                    )
                    key = (run_.name, entry, mode, kind, small)
                    if key in seen:
                        continue
                    seen.add(key)
                    vec = candidate(
                        entry,
                        mode,
                        small,
                        final,
                        run_.name,
                        ref_name,
                        os.path.basename(path),
                        final_cause,
                        shift,
                    )
                    with open(
                        os.path.join(args.out, vec["id"] + ".json"), "w", encoding="utf-8"
                    ) as f:
                        json.dump(vec, f, indent=2, ensure_ascii=False)
                        f.write("\n")
                    line = (
                        f"- `{vec['id']}`: {run_.name} vs {ref_name}, {entry}/{mode}, {kind}; "
                        f"input {os.path.relpath(path)} ({len(raw)} B) minimized to {len(small)} B "
                        f"`{small.hex()[:64]}` in {tests} tests"
                        + (f" (first seen as {first_kind})" if first_kind != kind else "")
                        + (
                            f"; diagnosis: {', '.join(final_cause)}"
                            if final_cause
                            else "; no catalogued bug"
                        )
                        + f"; shift {shift}. {vec['description']}"
                    )
                    report.append(line)
                    print("differential: DISAGREEMENT " + line[2:])
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write(
            f"# Differential replay\n\nReference: {ref_name}. Runners: "
            f"{', '.join(r.name for r in others)}. Inputs: {len(files)} files; "
            f"{checked} (input, entry, mode, runner) checks.\n\n"
        )
        f.write(f"{len(report)} distinct minimized disagreement(s).\n\n" + "\n".join(report) + "\n")
    for r in runners.values():
        if r.restarts:
            print(
                f"differential: {r.name} was restarted {r.restarts} time(s) (crash/timeout/protocol error)"
            )
        r.close()
    if diagnoser:
        diagnoser.close()
    print(
        f"differential: {len(files)} inputs, {checked} checks, {len(report)} disagreement(s); "
        f"candidates and report.md in {args.out}"
    )
    return 1 if report and args.fail_on_disagreement else 0


# ---------------------------------------------------------------- self-test


def selftest():
    fake = [sys.executable, os.path.join(HERE, "testdata", "fake_runner.py")]
    failures = []

    def expect(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "corpus", "decode")
        os.makedirs(corpus)
        inputs = {
            # [i32 1, "ab", [null]] followed by 3 trailing bytes
            "trailing": "00" + "0c03" + "0301000000" + "07026162" + "0c0100" + "aabbcc",
            # [null, "ab", i32 7, f64 1.0]: the float's tag at offset 12, so 3 padding bytes from
            # the message start (a runner counting from the tag would skip 7)
            "align": "00"
            + "0c04"
            + "00"
            + "07026162"
            + "0307000000"
            + "06"
            + "000000"
            + "000000000000f03f",
            "clean": "00" + "0c02" + "00" + "01",
            "badutf8": "00" + "0c02" + "0701ff" + "00",
        }
        for name, h in inputs.items():
            with open(os.path.join(corpus, name), "wb") as f:
                f.write(bytes.fromhex(h))

        def run_case(label, runner_args, out, diagnosis=True):
            a = argparse.Namespace(
                runner=[f"ref={shlex.join(fake)}", f"bad={shlex.join(fake + runner_args)}"],
                reference="ref",
                inputs=[corpus],
                out=out,
                entry="auto",
                raw=False,
                timeout=10.0,
                budget=4000,
                max_len=65536,
                self_compare=False,
                fail_on_disagreement=False,
                mutant_runner=None,
                no_diagnosis=not diagnosis,
            )
            run(a)
            return sorted(glob.glob(os.path.join(out, "*.json")))

        def report_lines(out):
            with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
                return [line for line in f if line.startswith("- `")]

        mutant, _ = Diagnoser.locate(None)

        same = run_case("identical", [], os.path.join(tmp, "same"))
        expect(same == [], "two identical runners never disagree")

        found = run_case("trailing", ["--bug", "trailing"], os.path.join(tmp, "trailing"))
        vecs = [json.load(open(p, encoding="utf-8")) for p in found]
        trailing = [v for v in vecs if v.get("error", {}).get("class") == "trailing_bytes"]
        expect(bool(trailing), "a runner that accepts trailing bytes is caught")
        if trailing:
            expect(
                min(len(v["hex"]) // 2 for v in trailing) == 2,
                f"…and minimized to 2 bytes (got {[v['hex'] for v in trailing]})",
            )
            v = trailing[0]
            expect(
                all(
                    k in v
                    for k in (
                        "id",
                        "description",
                        "section",
                        "tier",
                        "kind",
                        "since",
                        "features",
                        "hex",
                        "error",
                        "origin",
                    )
                ),
                "the candidate has every field of a reject vector (vectors.md V.2)",
            )
            expect(
                v["error"]["offset"] == 1 and v["kind"] == "message",
                "reference verdict: trailing_bytes at 1",
            )

        found = run_case("align", ["--bug", "align-value"], os.path.join(tmp, "align"))
        vecs = [json.load(open(p, encoding="utf-8")) for p in found]
        expect(bool(vecs), "a runner that aligns floats from the value start is caught")
        if vecs:
            smallest = min(vecs, key=lambda v: len(v.get("hex", v.get("canonical", ""))))
            size = len(smallest.get("hex", smallest.get("canonical", ""))) // 2
            expect(
                size <= 16,
                f"…and minimized from 24 to at most 16 bytes ({size}: {smallest.get('hex', smallest.get('canonical'))})",
            )
        # A runner with two bugs: an alignment disagreement must not shrink into the other bug's
        # (the minimizer used to turn this one into the 2-byte trailing-bytes disagreement `0000`).
        two = os.path.join(tmp, "two-bugs", "decode")
        os.makedirs(two)
        with open(os.path.join(two, "align"), "wb") as f:
            f.write(bytes.fromhex(inputs["align"]))
        for diagnosis in ([True] if mutant else []) + [False]:
            out = os.path.join(tmp, "two-bugs-out-%d" % diagnosis)
            a = argparse.Namespace(
                runner=[
                    f"ref={shlex.join(fake)}",
                    f"bad={shlex.join(fake + ['--bug', 'align-value', '--bug', 'trailing'])}",
                ],
                reference="ref",
                inputs=[two],
                out=out,
                entry="auto",
                raw=False,
                timeout=10.0,
                budget=4000,
                max_len=65536,
                self_compare=False,
                fail_on_disagreement=False,
                mutant_runner=None,
                no_diagnosis=not diagnosis,
            )
            run(a)
            lines = report_lines(out)
            how = "its diagnosis" if diagnosis else "its signature (no diagnosis)"
            expect(
                lines
                and all(
                    "verdict:ref-error" not in line and "minimized to 2 B" not in line
                    for line in lines
                ),
                f"two bugs: the alignment disagreement keeps {how}, never the trailing-bytes one "
                f"({[line.split(' minimized to ')[1][:40] for line in lines]})",
            )
            if diagnosis:
                expect(
                    all(
                        "pad-from-value" in line and "no-trailing-check" not in line
                        for line in lines
                    ),
                    f"…diagnosed as pad-from-value ({[line.split('; ')[-2] for line in lines]})",
                )
        if not mutant:
            print("skip the diagnosis checks: no build*/runners/c/smc-c-mutant-runner built yet")

        found = run_case("utf8", ["--bug", "utf8-lenient"], os.path.join(tmp, "utf8"))
        vecs = [json.load(open(p, encoding="utf-8")) for p in found]
        utf8 = [v for v in vecs if v.get("error", {}).get("class") == "bad_utf8"]
        expect(
            bool(utf8) and utf8[0]["tier"] == "implementation-defined",
            "an unchecked-UTF-8 runner is caught, at the implementation-defined tier",
        )
        if utf8:
            expect(
                min(len(v["hex"]) // 2 for v in utf8) == 3,
                f"…minimized to 07 01 ff ({utf8[0]['hex']})",
            )
        if mutant:
            lines = report_lines(os.path.join(tmp, "utf8"))
            expect(
                any("diagnosis: utf8-replaced" in line for line in lines),
                f"…diagnosed as utf8-replaced ({[line.split('; ')[-2] for line in lines]})",
            )

    c_runners = []
    for path in sorted(
        glob.glob(os.path.join(HERE, "..", "build*", "runners", "c", "smc-c-runner"))
    ):
        try:  # another build may be half-done: use the first runner that answers the handshake
            Runner("probe", [path], 10.0).close()
            c_runners.append(path)
            break
        except (RuntimeError, OSError, KeyError, TypeError) as e:
            print(f"(ignoring {path}: {e})")
    if c_runners:
        with tempfile.TemporaryDirectory() as tmp:
            a = argparse.Namespace(
                runner=[f"c={shlex.quote(c_runners[0])}"],
                reference="c",
                inputs=[os.path.join(HERE, "corpus", "decode")],
                out=tmp,
                entry="auto",
                raw=False,
                timeout=10.0,
                budget=200,
                max_len=65536,
                self_compare=True,
                fail_on_disagreement=False,
                mutant_runner=None,
                no_diagnosis=False,
            )
            run(a)
            expect(
                not glob.glob(os.path.join(tmp, "*.json")),
                f"the C runner agrees with itself ({c_runners[0]})",
            )
    else:
        print("skip the C runner self-comparison: no build*/runners/c/smc-c-runner built yet")
    if c_runners and mutant:
        shift_case(c_runners[0], mutant, expect)
    else:
        print("skip the address-alignment case: needs smc-c-runner and smc-c-mutant-runner built")
    print(f"differential selftest: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


def shift_case(c_runner, mutant, expect):
    """A decoder that aligns by memory address fails only at the shift it is sent: shrinking
    must keep the original input's shift (it used to follow the shrinking bytes) and its
    diagnosis, pad-from-address."""
    sent = []
    real_request = Runner.request

    def logging_request(self, op, **fields):
        if self.name == "addr" and op == "decode":
            sent.append(fields.get("shift"))
        return real_request(self, op, **fields)

    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "corpus", "decode")
        os.makedirs(corpus)
        # option byte, then [i32 1, f64 1.0]: the float's padding is 2 bytes from the message start
        with open(os.path.join(corpus, "f64"), "wb") as f:
            f.write(
                bytes.fromhex("00" + "0c02" + "0301000000" + "06" + "0000" + "000000000000f03f")
            )
        out = os.path.join(tmp, "out")
        a = argparse.Namespace(
            runner=[
                f"c={shlex.quote(c_runner)}",
                f"addr=env SMC_MUTANTS=pad-from-address {shlex.quote(mutant)}",
            ],
            reference="c",
            inputs=[corpus],
            out=out,
            entry="auto",
            raw=False,
            timeout=10.0,
            budget=2000,
            max_len=65536,
            self_compare=False,
            fail_on_disagreement=False,
            mutant_runner=mutant,
            no_diagnosis=False,
        )
        Runner.request = logging_request
        try:
            run(a)
        finally:
            Runner.request = real_request
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            lines = [line for line in f if line.startswith("- `")]
    expect(bool(lines), "a decoder that aligns by memory address is caught (given a shift)")
    expect(
        len(set(sent)) == 1 and len(sent) > 10,
        f"…every request of its minimization carries the original shift ({sorted(set(sent))} in {len(sent)})",
    )
    expect(
        all("diagnosis: pad-from-address" in line for line in lines),
        f"…and keeps its diagnosis, pad-from-address ({[line.split('; ')[-2] for line in lines]})",
    )


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("inputs", nargs="*", help="corpus directories, AFL++ queues or files")
    ap.add_argument(
        "--runner",
        action="append",
        default=[],
        metavar="NAME=CMD",
        help="a runner command (repeat); the first is the reference unless --reference",
    )
    ap.add_argument("--reference", help="name of the reference runner (default: the first)")
    ap.add_argument(
        "--out", default="differential-out", help="directory for vector candidates and report.md"
    )
    ap.add_argument("--entry", default="auto", choices=["auto", "all"] + list(ENTRIES))
    ap.add_argument("--raw", action="store_true", help="inputs have no leading option byte")
    ap.add_argument(
        "--timeout", type=float, default=5.0, help="seconds per request (PROTOCOL.md P.4)"
    )
    ap.add_argument("--budget", type=int, default=3000, help="runner checks per minimization")
    ap.add_argument("--max-len", type=int, default=65536, help="skip inputs longer than this")
    ap.add_argument(
        "--self-compare", action="store_true", help="with one runner, compare it with itself"
    )
    ap.add_argument(
        "--fail-on-disagreement", action="store_true", help="exit 1 if anything disagrees"
    )
    ap.add_argument(
        "--mutant-runner",
        metavar="PATH",
        help="smc-c-mutant-runner for the diagnosis (default: the first build*/ that has it)",
    )
    ap.add_argument(
        "--no-diagnosis",
        action="store_true",
        help="do not diagnose: minimize keeping each disagreement's signature",
    )
    ap.add_argument("--selftest", action="store_true", help="test this script with fake runners")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.runner or not args.inputs:
        ap.error("need --runner NAME=CMD (at least one) and input paths")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
