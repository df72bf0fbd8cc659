#!/usr/bin/env python3
"""A runner that answers the handshake correctly and then its first requests with one kind
of garbage each (in SEQUENCE order, kept in a state file across the judge's restarts), then
"skipped" for the rest. The judge must turn each into protocol_error (restarting when the stream is broken)
and never crash.

usage: hostile_runner.py STATE_FILE"""

import json
import os
import sys
import time

# the order of the kinds below; 3, 4, 5, 6 and 8 break the stream (the judge restarts us)
SEQUENCE = [0, 1, 2, 3, 4, 7, 5, 8, 9, 6]
BREAKING = {3, 4, 5, 6, 8}

STATE = sys.argv[1]


def next_kind():
    try:
        with open(STATE) as f:
            n = int(f.read())
    except (OSError, ValueError):
        n = 0
    # atomic, because the judge may SIGKILL this process at any moment
    with open(STATE + ".tmp", "w") as f:
        f.write(str(n + 1))
    os.replace(STATE + ".tmp", STATE)
    return n


out = sys.stdout.buffer


def send(b):
    out.write(b + b"\n")
    out.flush()


for raw in sys.stdin.buffer:
    req = json.loads(raw)
    seq = req["seq"]
    if req["op"] == "hello":
        send(
            json.dumps(
                {
                    "seq": 0,
                    "status": "ok",
                    "protocol": 1,
                    "codec": {"name": "hostile", "version": "0", "language": "Python"},
                    "entries": ["message", "call", "envelope"],
                    "capabilities": {
                        "decode": [
                            "int32",
                            "int64",
                            "float64",
                            "embedded-nul",
                            "map-order",
                            "method-codec",
                            "strict-mode",
                            "largeint",
                            "duplicate-map-keys",
                            "depth-limit",
                        ],
                        "encode": [
                            "int32",
                            "int64",
                            "float64",
                            "embedded-nul",
                            "map-order",
                            "method-codec",
                            "duplicate-map-keys",
                            "depth-limit",
                        ],
                    },
                    "options": ["error-offsets", "shift"],
                }
            ).encode()
        )
        continue
    if req["op"] == "bye":
        send(b'{"seq": %d, "status": "ok"}' % seq)
        break
    n = next_kind()
    k = SEQUENCE[n] if n < len(SEQUENCE) else None
    if k is None:
        send(b'{"seq": %d, "status": "skipped", "reason": "hostile: done"}' % seq)
    elif k == 0:
        send(b'{"seq": %d, "status": "ok"}' % seq)  # no value / no hex
    elif k == 1:
        send(
            b'{"seq": %d, "status": "ok", "value": ["i32", 1.5], "hex": "zz"}' % seq
        )  # not notation
    elif k == 2:
        send(b'{"seq": %d, "status": "error", "class": 5, "offset": -1}' % seq)
    elif k == 3:
        send(b'{"seq": %d, "status": "ok", "value": ' % seq + b"[" * 50000 + b"]" * 50000 + b"}")
    elif k == 4:
        send(b'{"seq": %d, "status": "ok", "value": ["str", "\\ud800"], "hex": "ABC"}' % seq)
    elif k == 5:
        send(b'{"seq": %d, "status": "ok", "value": ["str", "\xff\xfe"]}' % seq)  # invalid UTF-8
    elif k == 6:
        send(b"x" * (3 << 20))  # longer than --max-line
    elif k == 7:
        send(
            b'{"seq": %d, "status": "error", "class": "truncated\\u0000x", "offset": 99999999999999999999}'
            % seq
        )
    elif k == 8:
        send(b"[1, 2, 3]")  # JSON, not an object
    else:
        send(
            b'{"seq": %d, "status": "ok", "value": ["custom", 300, ["null"]], "hex": ""}' % seq
        )  # tag > 255
    if k in BREAKING:
        # wait to be killed, so requests already in flight do not use up the sequence
        time.sleep(3600)
