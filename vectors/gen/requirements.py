"""The requirements of spec/standard-message-codec.md and the tier each one gives a vector
(spec §1.1, vectors.md V.2 `requirements`).

Read from the spec text itself, so the spec stays the one place where a rule's keyword and
the list of implementation-defined rules live:

* every `**[Rn.m-k]**` marks the end of one normative sentence; its RFC 2119 keyword is the
  one in the text between the previous marker (or the start of the paragraph or list item)
  and this one, or, for a list item without a keyword, in the sentence that introduces the
  list ("A decoder MUST:");
* the implementation-defined rules are the ids in the bulleted list that follows the line
  "The implementation-defined tier is used for exactly these requirements" in §1.1.

A vector's tier: implementation-defined if any of its requirements is in that list, else
recommended if any is a SHOULD, else required. A MAY outside the list backs no vector."""

import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "spec", "standard-message-codec.md")

MARK_RE = re.compile(r"\*\*\[(R\d+(?:\.\d+)?-\d+)\]\*\*")
ID_RE = re.compile(r"\bR\d+(?:\.\d+)?-\d+\b")
KEYWORD_RE = re.compile(r"\b(MUST NOT|MUST|REQUIRED|SHOULD NOT|SHOULD|RECOMMENDED|MAY|OPTIONAL)\b")
FAMILY = {
    "MUST NOT": "MUST",
    "MUST": "MUST",
    "REQUIRED": "MUST",
    "SHOULD NOT": "SHOULD",
    "SHOULD": "SHOULD",
    "RECOMMENDED": "SHOULD",
    "MAY": "MAY",
    "OPTIONAL": "MAY",
}
IMPLDEF_LEAD = "The implementation-defined tier is used for exactly these requirements"


class SpecError(SystemExit):
    pass


def _paragraph_start(text, pos):
    """Start of the paragraph or list item that contains pos."""
    return max(text.rfind("\n\n", 0, pos), text.rfind("\n* ", 0, pos), 0)


def _lead_in(text, pos):
    """For a list item: the last sentence before the list ("A decoder MUST:")."""
    lines = text[:pos].split("\n")
    i = len(lines) - 1
    if not lines[i].startswith("* ") and not any(
        lines[j].startswith("* ") for j in range(max(i - 3, 0), i + 1)
    ):
        return ""
    # back over the items (and their indented continuation lines) and blank lines
    while i >= 0 and (lines[i].startswith("* ") or lines[i].startswith("  ") or not lines[i]):
        i -= 1
    start = i
    while start > 0 and lines[start - 1].strip():
        start -= 1
    return "\n".join(lines[start : i + 1])


class Requirements:
    def __init__(self, path=SPEC):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.path = path
        self.family = {}  # id -> "MUST" | "SHOULD" | "MAY" | "MUST+MAY" ...
        self.order = []
        prev_end = 0
        for m in MARK_RE.finditer(text):
            rid = m.group(1)
            if rid in self.family:
                raise SpecError("%s: requirement %s is marked twice" % (path, rid))
            seg = text[max(prev_end, _paragraph_start(text, m.start())) : m.start()]
            kws = KEYWORD_RE.findall(seg)
            if not kws:
                kws = KEYWORD_RE.findall(_lead_in(text, m.start()))
            if not kws:
                raise SpecError(
                    "%s: requirement %s has no RFC 2119 keyword in its sentence" % (path, rid)
                )
            self.family[rid] = "+".join(sorted({FAMILY[k] for k in kws}))
            self.order.append(rid)
            prev_end = m.end()
        self.impldef = self._impldef_list(text)
        for rid in self.impldef:
            if rid not in self.family:
                raise SpecError("%s §1.1 lists %s, which is not a requirement" % (path, rid))

    def _impldef_list(self, text):
        at = text.find(IMPLDEF_LEAD)
        if at < 0:
            raise SpecError("%s: §1.1 has no line starting %r" % (self.path, IMPLDEF_LEAD))
        body = text[at:]
        lines = body.split("\n")[1:]
        out = []
        seen_item = False
        for line in lines:
            if line.startswith("* "):
                seen_item = True
                out.extend(ID_RE.findall(line.split("—")[0]))
            elif line.strip() == "" and not seen_item:
                continue
            else:
                break
        if not out:
            raise SpecError("%s: the implementation-defined list of §1.1 is empty" % self.path)
        return tuple(out)

    def tier_of(self, rid):
        if rid not in self.family:
            raise KeyError(rid)
        if rid in self.impldef:
            return "implementation-defined"
        fam = self.family[rid]
        if "SHOULD" in fam.split("+"):
            return "recommended"
        if fam == "MUST":
            return "required"
        raise ValueError(
            "%s is a %s outside the implementation-defined list of §1.1; it cannot "
            "back a vector" % (rid, fam)
        )

    def derive(self, ids):
        """The tier a vector testing `ids` has (spec §1.1)."""
        if not ids:
            raise ValueError("a vector names at least one requirement")
        tiers = {self.tier_of(r) for r in ids}
        for t in ("implementation-defined", "recommended", "required"):
            if t in tiers:
                return t
        raise AssertionError(tiers)


_CACHE = []


def get():
    if not _CACHE:
        _CACHE.append(Requirements())
    return _CACHE[0]


def sort_key(rid):
    sec, n = rid[1:].split("-")
    return tuple(int(x) for x in sec.split(".")) + (int(n),)
