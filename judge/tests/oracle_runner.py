#!/usr/bin/env python3
"""Oracle runner for testing the judge (runners/PROTOCOL.md, version 1, or 2 with
ORACLE_PROTOCOL=2).

It answers every request straight from the vector files, so it is right by construction,
except where a sabotage switch makes it wrong on purpose. The judge's tests then assert the
judge's verdict on each sabotaged vector exactly. The ID switches below act on requests at an
aligned address only (no `shift`, or 0); the misplace_* ones only on the placement check's
shifted request (spec §3.3).

Usage: oracle_runner.py VECTORS_DIR
Environment:
  ORACLE_SABOTAGE  comma-separated switches:
     wrong_bytes:ID   encode/roundtrip of ID returns the canonical bytes with the last byte flipped
                      (bytes of no vector are decoded by vectors/gen/smcpy.py, as a codec would)
     wrong_value:ID   flutter decode of ID returns ["list", [VALUE]] instead of VALUE
     wrong_class:ID   errors for ID carry another class
     wrong_offset:ID  errors for ID carry offset + 1
     crash:ID         flutter decode of ID: the process kills itself with SIGSEGV
     exit:ID          flutter decode of ID: the process exits with status 3
     crash_encode:ID  encode of ID: the process kills itself with SIGSEGV
     hang:ID          flutter decode of ID: sleeps forever
     garbage:ID       flutter decode of ID: writes a line that is not JSON
     wrong_seq:ID     flutter decode of ID: answers with another seq
     bad_status:ID    flutter decode of ID: answers with an unknown status
     skip:ID          every request about ID answers skipped
     misplace_value:ID    the shifted decode of ID returns ["list", [VALUE]] (or a value where
                          an error is expected)
     misplace_error:ID    the shifted decode of ID fails with unknown_tag (RangeError-like)
     misplace_crash:ID    the shifted decode of ID kills the process (SIGSEGV)
     misplace_rejected:ID (protocol 2) the shifted decode of ID answers `rejected` (RangeError)
     alt_order:ID     rejects of ID answer the vector's first error.alternatives outcome
     alt_notes:ID     decodes of ID answer the last notes alternative that has an outcome
                      (both alt_ switches act at every address)
     false_caps:F     declares feature F for decode and encode, then fails every vector
                      that needs F (decode: unknown_tag at 0; encode: not_encodable)
     reorder_maps:ID  decodes of ID return map entries in reverse order
     reorder_bytes:ID encode of ID writes the canonical bytes of the value with its top-level
                      map's entries in reverse order (a host map's own iteration order)
     crash_every_request  every request after the handshake kills the process (SIGSEGV)
     noisy_stderr     writes 2 KiB to stderr for every request (the judge must keep draining it)
     bad_protocol     the handshake answers protocol 3
     crash_answer:ID  (protocol 2) flutter decode of ID: the crash answer, and the process goes on
     no_bytes:ID      (protocol 2) encode of ID answers no bytes (hex null)
     no_class:ID      (protocol 2) errors for ID carry no class (class null)
     not_impl:ID      (protocol 2) decodes of ID answer not_implemented
     rejected:ID      (protocol 2) decodes of ID answer `rejected`, kind RangeError: an
                      unclassified rejection (P.3), as Dart's ReadBuffer on short input
     rejected_nokind:ID  (protocol 2) the same without a kind (a protocol error)
     dup_key:ID       flutter decode of ID: the right answer with "status" written twice
     bad_message:ID   flutter decode of ID: the right answer with "message": 5
     summary:ID       (protocol 2) decodes of ID answer a summary instead of the value
     hello_garbage    the handshake answers a line that is not JSON
     die_at_start     exits with status 5 before reading anything
  ORACLE_DECODE_CAPS / ORACLE_ENCODE_CAPS  comma-separated feature words (default: all)
  ORACLE_LACKS     what it does with a request about a vector that needs a core or profile feature
                   it does not declare for that direction: answer (default: from the vector, as
                   if it had the feature), reject (decode: unknown_tag; encode: not_encodable),
                   skip, or loss (decode: ["null"], encode: "00": a silent loss)
  ORACLE_PROTOCOL  the protocol version it answers (default 1)
  ORACLE_PER_ENTRY a JSON object sent as the hello's per_entry (protocol 2)
  ORACLE_HELLO_EXTRA a JSON object whose members are added to the hello answer (an object
                   member into the object of that name: {"capabilities": {"x": []}})
  ORACLE_OPTIONS   comma-separated options (default: error-offsets,shift)
  ORACLE_ENTRIES   comma-separated entries (default: message,call,envelope)
  ORACLE_SHIFT_LOG a file to which every decode request's shift is appended
  ORACLE_PID_FILE  a file to which the process appends its pid at start
"""

import glob
import json
import os
import signal
import sys
import time

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "vectors", "gen")
)
import protocol_lines  # noqa: E402
import smcpy  # noqa: E402 - the feature words (from vectors/schema.json), and an encoder

ALL_FEATURES = list(smcpy.FEATURES)
# Host features change how answers compare, never make a request unanswerable; strict mode
# and the method codec are requests the judge does not make without them (spec §1.4).
NOT_LACKABLE = {
    "int64-distinct",
    "map-order",
    "duplicate-map-keys",
    "strict-mode",
    "method-codec",
    "depth-limit",
}
LACKS = os.environ.get("ORACLE_LACKS", "answer")
PROTOCOL = int(os.environ.get("ORACLE_PROTOCOL", "1"))
ENTRY_OF_KIND = {
    "message": "message",
    "pigeon_request": "message",
    "pigeon_reply": "message",
    "method_call": "call",
    "success_envelope": "envelope",
    "error_envelope": "envelope",
    "envelope": "envelope",
}


def canon(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def csv_env(name, default):
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [w for w in raw.split(",") if w]


def outcome_answer(outcome):
    """A response carrying a vector's machine-readable outcome (vectors.md V.2)."""
    if "value" in outcome:
        return {"status": "ok", "value": outcome["value"]}
    err = outcome["error"]
    return {
        "status": "error",
        "class": err.get("class", "unknown_tag"),
        "offset": err.get("offset"),
        "message": "oracle: a listed alternative",
    }


def no_duplicate_keys(pairs):
    """object_pairs_hook for vector files: a key twice in one object is refused (spec/vectors.md
    V.1), as the judge refuses it; Python's json would keep the last silently."""
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise ValueError("the key %r appears twice in one object (V.1: no duplicate keys)" % k)
        seen.add(k)
    return dict(pairs)


def load(vectors_dir):
    decode = {}  # (entry, hex, mode) -> (id, answer dict)
    encode = {}  # (entry, canon(value)) -> (id, hex)
    features = {}
    alts = {}  # id -> (first error.alternatives answer or None, first notes outcome or None)
    for path in sorted(glob.glob(os.path.join(vectors_dir, "s[0-9][0-9]-*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, object_pairs_hook=no_duplicate_keys)
        for v in doc["vectors"]:
            if v["kind"] not in ENTRY_OF_KIND:
                continue  # host_encode/host_decode (spec §17): it declares no `hosts`
            vid, entry = v["id"], ENTRY_OF_KIND[v["kind"]]
            features[vid] = set(v["features"])
            order = v.get("error", {}).get("alternatives", [])
            outs = [
                a["outcome"] for a in v.get("notes", {}).get("alternatives", []) if "outcome" in a
            ]
            # notes outcomes apply in the modes whose tier is implementation-defined (V.2)
            impl_modes = {
                m
                for m in ("flutter", "strict")
                if v.get("by_mode", {}).get(m, {"tier": v["tier"]})["tier"]
                == "implementation-defined"
            }
            alts[vid] = (
                {
                    "status": "error",
                    "class": order[0]["class"],
                    "offset": order[0]["offset"],
                    "message": "oracle: order %s" % order[0]["order"],
                }
                if order
                else None,
                outcome_answer(outs[-1]) if outs else None,
                impl_modes,
            )
            if "canonical" in v:
                ok = {"status": "ok", "value": v["value"]}
                for mode in ("flutter", "strict"):
                    decode.setdefault((entry, v["canonical"], mode), (vid, ok))
                encode.setdefault((entry, canon(v["value"])), (vid, v["canonical"]))
                for acc in v.get("accepted", []):
                    decode.setdefault((entry, acc["hex"], "flutter"), (vid, ok))
                    strict = (
                        ok
                        if acc["strict"] is None
                        else {
                            "status": "error",
                            "class": acc["strict"],
                            "offset": None,
                            "message": "oracle: strict class from the vector",
                        }
                    )
                    decode.setdefault((entry, acc["hex"], "strict"), (vid, strict))
            if "error" in v:
                err = v["error"]
                for mode in err["modes"]:
                    # a reject vector's error (with its offset) wins over an accepted form's
                    # strict class (which has no offset) for the same bytes
                    decode[(entry, v["hex"], mode)] = (
                        vid,
                        {
                            "status": "error",
                            "class": err["class"],
                            "offset": err["offset"],
                            "message": "oracle: error from the vector",
                        },
                    )
                if "value" in v:
                    for mode in ("flutter", "strict"):
                        if mode not in err["modes"]:
                            decode.setdefault(
                                (entry, v["hex"], mode),
                                (vid, {"status": "ok", "value": v["value"]}),
                            )
    return decode, encode, features, alts


def main():
    sab = {}
    flags = set()
    for item in csv_env("ORACLE_SABOTAGE", []):
        if ":" in item:
            k, arg = item.split(":", 1)
            sab.setdefault(k, set()).add(arg)
        else:
            flags.add(item)
    if "die_at_start" in flags:
        sys.stderr.write("oracle: dying at start as asked\n")
        sys.exit(5)
    decode, encode, features, alts = load(sys.argv[1])
    false_caps = sab.get("false_caps", set())
    dcaps = csv_env("ORACLE_DECODE_CAPS", ALL_FEATURES) + sorted(false_caps)
    ecaps = csv_env("ORACLE_ENCODE_CAPS", ALL_FEATURES) + sorted(false_caps)
    shift_log = os.environ.get("ORACLE_SHIFT_LOG")
    if os.environ.get("ORACLE_PID_FILE"):
        with open(os.environ["ORACLE_PID_FILE"], "a") as f:
            f.write("%d\n" % os.getpid())
    sys.stderr.write("oracle: started pid %d\n" % os.getpid())
    sys.stderr.flush()

    shifted = [False]  # the request being answered is the placement check's (shift 1..7)

    def has(kind, vid):
        if kind.startswith("alt_"):  # a codec's behaviour, the same at every address
            return vid is not None and vid in sab.get(kind, set())
        if kind.startswith("misplace_"):
            return shifted[0] and vid is not None and vid in sab.get(kind, set())
        return not shifted[0] and vid is not None and vid in sab.get(kind, set())

    def out(obj):
        protocol_lines.reply(obj, ascii=False)

    def lies_about(vid):
        return vid is not None and bool(features.get(vid, set()) & false_caps)

    def lacks(vid, caps):
        """The core or profile features of vector `vid` missing from `caps` (spec §1.4)."""
        if vid is None:
            return set()
        return (features.get(vid, set()) - set(caps)) - NOT_LACKABLE

    def lacking_answer(seq, vid, caps, decoding):
        """ORACLE_LACKS for a request about a vector needing what it lacks; None: answer."""
        missing = lacks(vid, caps)
        if not missing or LACKS == "answer":
            return None
        if LACKS == "skip":
            return {
                "seq": seq,
                "status": "skipped",
                "reason": "oracle: lacks %s" % ", ".join(sorted(missing)),
            }
        if LACKS == "loss":
            return (
                {"seq": seq, "status": "ok", "value": ["null"]}
                if decoding
                else {"seq": seq, "status": "ok", "hex": "00"}
            )
        return {
            "seq": seq,
            "status": "error",
            "class": "unknown_tag" if decoding else "not_encodable",
            "offset": 0 if decoding else None,
            "message": "oracle: lacks %s" % ", ".join(sorted(missing)),
        }

    def sabotage_error(vid, ans):
        ans = dict(ans)
        if has("no_class", vid):
            ans["class"] = None
        if has("wrong_class", vid):
            ans["class"] = "trailing_bytes" if ans["class"] != "trailing_bytes" else "truncated"
        if has("wrong_offset", vid) and ans.get("offset") is not None:
            ans["offset"] = ans["offset"] + 1
        return ans

    for req in protocol_lines.requests():
        seq, op = req["seq"], req["op"]
        if op == "hello":
            if "hello_garbage" in flags:
                sys.stdout.write("hello? is this JSON?\n")
                sys.stdout.flush()
                continue
            hello = {
                "seq": seq,
                "status": "ok",
                "protocol": 3 if "bad_protocol" in flags else PROTOCOL,
                "codec": {"name": "oracle", "version": "1", "language": "Python"},
                "entries": csv_env("ORACLE_ENTRIES", ["message", "call", "envelope"]),
                "capabilities": {"decode": dcaps, "encode": ecaps},
                "options": csv_env(
                    "ORACLE_OPTIONS",
                    ["error-offsets", "shift"]
                    if PROTOCOL == 1
                    else ["error-classes", "error-offsets", "shift"],
                ),
            }
            if os.environ.get("ORACLE_PER_ENTRY"):
                hello["per_entry"] = json.loads(os.environ["ORACLE_PER_ENTRY"])
            for k, v in json.loads(os.environ.get("ORACLE_HELLO_EXTRA", "{}")).items():
                if isinstance(v, dict) and isinstance(hello.get(k), dict):
                    hello[k].update(v)
                else:
                    hello[k] = v
            out(hello)
            continue
        if op == "bye":
            out({"seq": seq, "status": "ok"})
            return
        if "noisy_stderr" in flags:
            sys.stderr.write(("oracle: noise for seq %d " % seq).ljust(2047, ".") + "\n")
            sys.stderr.flush()
        if "crash_every_request" in flags:
            sys.stderr.write("oracle: crashing on every request\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        entry = req.get("entry")
        shifted[0] = op == "decode" and bool(req.get("shift"))
        if op in ("decode", "roundtrip"):
            mode = req.get("mode", "flutter")
            if op == "decode" and shift_log:
                with open(shift_log, "a") as f:
                    f.write("%s %s\n" % (req["hex"], req.get("shift", "none")))
            vid, ans = decode.get((entry, req["hex"], mode), (None, None))
            lacking = lacking_answer(
                seq, vid, dcaps if op == "decode" else sorted(set(dcaps) & set(ecaps)), True
            )
            if lacking:
                out(lacking)
                continue
            if PROTOCOL >= 2 and op == "decode" and mode == "flutter" and has("crash_answer", vid):
                out(
                    {
                        "seq": seq,
                        "status": "crash",
                        "kind": "panic",
                        "message": "oracle: crash answer",
                    }
                )
                continue
            if PROTOCOL >= 2 and (has("rejected", vid) or has("misplace_rejected", vid)):
                out(
                    {
                        "seq": seq,
                        "status": "rejected",
                        "kind": "RangeError",
                        "message": "oracle: RangeError (index): Index out of range",
                    }
                )
                continue
            if has("dup_key", vid) and op == "decode" and ans and ans["status"] == "ok":
                sys.stdout.write(
                    '{"seq": %d, "status": "ok", "status": "error", "value": %s}\n'
                    % (seq, json.dumps(ans["value"]))
                )
                sys.stdout.flush()
                continue
            if has("bad_message", vid) and op == "decode" and ans and ans["status"] == "ok":
                out({"seq": seq, "status": "ok", "value": ans["value"], "message": 5})
                continue
            if PROTOCOL >= 2 and has("rejected_nokind", vid):
                out({"seq": seq, "status": "rejected", "message": "oracle: no kind"})
                continue
            if PROTOCOL >= 2 and has("not_impl", vid):
                out({"seq": seq, "status": "not_implemented", "message": "oracle: not implemented"})
                continue
            if PROTOCOL >= 2 and op == "decode" and has("summary", vid):
                out({"seq": seq, "status": "ok", "summary": {"depth": 1, "values": 1, "bytes": 0}})
                continue
            if has("skip", vid):
                out({"seq": seq, "status": "skipped", "reason": "oracle: told to skip"})
                continue
            if op == "decode" and has("misplace_crash", vid):
                sys.stderr.write("oracle: crashing at a shifted address on %s\n" % vid)
                sys.stderr.flush()
                os.kill(os.getpid(), signal.SIGSEGV)
            if op == "decode" and has("misplace_error", vid):
                out(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "unknown_tag",
                        "offset": None,
                        "message": "oracle: RangeError at a shifted address",
                    }
                )
                continue
            if op == "decode" and has("misplace_value", vid):
                v = ans["value"] if ans and ans["status"] == "ok" else ["null"]
                out({"seq": seq, "status": "ok", "value": ["list", [v]]})
                continue
            if (
                op == "decode"
                and has("alt_notes", vid)
                and alts.get(vid, (None, None, ()))[1]
                and mode in alts[vid][2]
            ):
                out(dict(alts[vid][1], seq=seq))
                continue
            if (
                op == "decode"
                and has("alt_order", vid)
                and ans
                and ans["status"] == "error"
                and alts.get(vid, (None, None, ()))[0]
            ):
                out(dict(alts[vid][0], seq=seq))
                continue
            if op == "decode" and mode == "flutter":
                if has("crash", vid):
                    sys.stderr.write("oracle: crashing on %s\n" % vid)
                    sys.stderr.flush()
                    os.kill(os.getpid(), signal.SIGSEGV)
                if has("exit", vid):
                    sys.stderr.write("oracle: exiting on %s\n" % vid)
                    sys.stderr.flush()
                    os._exit(3)
                if has("hang", vid):
                    sys.stderr.write("oracle: hanging on %s\n" % vid)
                    sys.stderr.flush()
                    time.sleep(3600)
                if has("garbage", vid):
                    sys.stdout.write("garbage {not json\n")
                    sys.stdout.flush()
                    continue
                if has("wrong_seq", vid):
                    out({"seq": seq + 1000, "status": "ok", "value": ["null"]})
                    continue
                if has("bad_status", vid):
                    out({"seq": seq, "status": "maybe"})
                    continue
            if ans is None and op == "decode":
                # bytes of no vector: what its own sabotaged encoder wrote, which the judge's
                # self-consistency check (spec R1.4-18) hands back; a codec reads them as the
                # generator's independent decoder does
                try:
                    got = smcpy.decode(entry, bytes.fromhex(req["hex"]), mode == "strict")
                    out({"seq": seq, "status": "ok", "value": got})
                except smcpy.SmcError as e:
                    out(
                        {
                            "seq": seq,
                            "status": "error",
                            "class": e.cls,
                            "offset": e.offset,
                            "message": "oracle: " + e.message,
                        }
                    )
                continue
            if ans is None:
                out(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "unknown_tag",
                        "offset": None,
                        "message": "oracle: input not in any vector",
                    }
                )
                continue
            if lies_about(vid):
                out(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "unknown_tag",
                        "offset": 0,
                        "message": "oracle: lied about a capability",
                    }
                )
                continue
            if ans["status"] == "error":
                out(dict(sabotage_error(vid, ans), seq=seq))
                continue
            value = ans["value"]
            if has("wrong_value", vid) and op == "decode" and mode == "flutter":
                value = ["list", [value]]
            if has("reorder_maps", vid) and value[0] == "map":
                value = ["map", list(reversed(value[1]))]
            if op == "decode":
                out({"seq": seq, "status": "ok", "value": value})
                continue
            evid, hexs = encode.get((entry, canon(ans["value"])), (None, None))
            if hexs is None:
                out(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "not_encodable",
                        "offset": None,
                        "message": "oracle: value not in any vector",
                    }
                )
                continue
            if has("wrong_bytes", vid):
                hexs = hexs[:-2] + "%02x" % (int(hexs[-2:], 16) ^ 0xFF)
            out({"seq": seq, "status": "ok", "value": value, "hex": hexs})
            continue
        if op == "encode":
            vid, hexs = encode.get((entry, canon(req["value"])), (None, None))
            lacking = lacking_answer(seq, vid, ecaps, False)
            if lacking:
                out(lacking)
                continue
            if PROTOCOL >= 2 and has("no_bytes", vid):
                out({"seq": seq, "status": "ok", "hex": None})
                continue
            if has("reorder_bytes", vid) and req["value"][0] == "map":
                flipped = ["map", list(reversed(req["value"][1]))]
                out({"seq": seq, "status": "ok", "hex": smcpy.encode(entry, flipped).hex})
                continue
            if has("crash_encode", vid):
                sys.stderr.write("oracle: crashing while encoding %s\n" % vid)
                sys.stderr.flush()
                os.kill(os.getpid(), signal.SIGSEGV)
            if has("skip", vid):
                out({"seq": seq, "status": "skipped", "reason": "oracle: told to skip"})
                continue
            if hexs is None:
                out(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "not_encodable",
                        "offset": None,
                        "message": "oracle: value not in any vector",
                    }
                )
                continue
            if lies_about(vid):
                out(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "not_encodable",
                        "offset": None,
                        "message": "oracle: lied about a capability",
                    }
                )
                continue
            if has("wrong_bytes", vid):
                hexs = hexs[:-2] + "%02x" % (int(hexs[-2:], 16) ^ 0xFF)
            out({"seq": seq, "status": "ok", "hex": hexs})
            continue
        out(
            {
                "seq": seq,
                "status": "error",
                "class": "bad_notation",
                "offset": None,
                "message": "oracle: unknown op %r" % op,
            }
        )


if __name__ == "__main__":
    main()
