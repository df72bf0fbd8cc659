"""The runner protocol's framing (runners/PROTOCOL.md P.2, P.3) for the judge's Python test
runners: a request is one JSON object on one line of stdin, an answer one JSON object on one
line of stdout, flushed at once (the judge waits for it), and `bye` is the last request.

What a runner answers is its own; only the lines are shared here. The layout of an answer
line is each runner's as before (ascii: non-ASCII escaped as \\uXXXX, which also carries a
lone surrogate a UTF-8 stdout cannot; compact: no spaces), so no runner's bytes change.
Runners that break the framing on purpose (hostile_runner.py, rogue_runner.py) write their
own lines.
"""

import json
import sys


def request_lines(stream=None):
    """(line, request) for each request line of `stream` (stdin): a proxy passes the line on
    as it came."""
    for line in stream if stream is not None else sys.stdin:
        yield line, json.loads(line)


def requests(stream=None):
    """Each request line of `stream` (stdin), parsed."""
    for _line, req in request_lines(stream):
        yield req


def reply(obj, ascii=True, compact=False):
    """One answer line on stdout, flushed."""
    seps = (",", ":") if compact else None
    sys.stdout.write(json.dumps(obj, ensure_ascii=ascii, separators=seps) + "\n")
    sys.stdout.flush()


def serve(answer, ascii=True, compact=False):
    """Answer every request with answer(request) until `bye` (answered too) or EOF."""
    for req in requests():
        reply(answer(req), ascii=ascii, compact=compact)
        if req.get("op") == "bye":
            return
