"""The table of spec §16.3: which divergence row explains each vector Flutter's Linux engine
does not pass. Read by expected.py (every such vector must be in it) and matrix.py (the
divergences docs/flutter-codecs.md shows)."""

import os
import re

SPEC = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "..",
    "..",
    "..",
    "spec",
    "standard-message-codec.md",
)
ROW_RE = re.compile(r"^\| (D\d+) \| (.*?) \| (.*?) \| (.*?) \|$")
# a vector id (s05.2-nul-end), or a complexity family's (c15-map-distinct-keys, §15.4)
ID_RE = re.compile(r"`([sc][0-9][0-9.]*-[a-z0-9.*-]+)`")


def rows(spec=SPEC):
    """[(row, [vector or family id, or prefix*], verdict, what)] of §16.3, in the spec's order."""
    with open(spec, encoding="utf-8") as f:
        text = f.read()
    start = text.index("### 16.3 ")
    end = text.index("\n## ", start)
    out = []
    for line in text[start:end].splitlines():
        m = ROW_RE.match(line)
        if m:
            out.append((m.group(1), ID_RE.findall(m.group(2)), m.group(3), m.group(4)))
    return out


def row_of(vector_id, table):
    """The row citing `vector_id` (exactly, or by a prefix ending in *), or None."""
    for row, ids, _, _ in table:
        for i in ids:
            if i == vector_id or (i.endswith("*") and vector_id.startswith(i[:-1])):
                return row
    return None
