#!/usr/bin/env python3
"""Write (or check) the benchmark payloads in bench/payloads/ and the manifest bench/payloads.json.

Two kinds of payload:
  * shared: the canonical set of ../shared/bench-payloads (Pigeon-shaped traffic whose
    Flutter reference timings are in bench/budget.json). They are copied byte for byte and
    pinned by SHA-256, so figures stay comparable across codecs and over time.
  * generated: built here from the value notation with vectors/gen/smcpy.py (an encoder
    written from the spec, independent of the C reference). Deterministic: no clock, no
    `random`, a fixed xorshift stream, so every run writes the same bytes.

Usage:
  gen_payloads.py [--shared DIR]   write bench/payloads/*.bin and bench/payloads.json
  gen_payloads.py --check          exit 1 if any file differs from what would be written
                                   (shared files are checked against their pinned SHA-256)
Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "vectors", "gen"))
import smcpy  # noqa: E402  (path set above)

PAYLOAD_DIR = os.path.join(HERE, "payloads")
MANIFEST = os.path.join(HERE, "payloads.json")
# The shared set lives beside the checkout (../shared/bench-payloads); the copies in
# payloads/ are what every benchmark reads.
DEFAULT_SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bench-payloads")
RECORD_NOTATION = "b_anr_1.notation.json"

# The shared set, pinned: (file, SHA-256, description). Reference timings for these are in
# budget.json; a file that changes would make them meaningless, so --check compares hashes.
SHARED = [
    (
        "a_list100_i32.bin",
        "4beec0da0fc8efd8e5c7694a7e20814f4b2c4be3b677a79e5353a9ef3bfdcf7c",
        "List of 100 int32",
    ),
    (
        "a_list1000_i32.bin",
        "ee06f88599cb1838b0cba01b6689889186194c44c15140efa869ca9dd7ff321d",
        "List of 1,000 int32",
    ),
    (
        "a_list10000_i32.bin",
        "28854fe541b11fab6803e92c0cfbdead0db23d5fc1cf4b743397586532457280",
        "List of 10,000 int32",
    ),
    (
        "b_anr_1.bin",
        "db3303b68caa2aefc1d19c4eb540ab8b3448542b64f7b5fb30b0146ad9e9407c",
        "one AllNullableTypes-like record (custom 129 wrapping a 31-field list)",
    ),
    (
        "b_anr_1000.bin",
        "78ff2104c0ea7c4e14987ba23ab738b8810e2c81be735660c8b43375af373dd8",
        "List of 1,000 AllNullableTypes-like records",
    ),
    (
        "c_latlng_1000.bin",
        "ce5cd13547be8bf52123298d26a85eded65bcb368eaac5d1157e7005eeec01a7",
        "List of 1,000 LatLng-like records (custom 131 wrapping [f64, f64])",
    ),
    (
        "d_u8s_1MiB.bin",
        "32de623cbf05551038b0c21c6a93de79765a5e54a017bc0a43275f483556bec1",
        "one Uint8List of 1 MiB",
    ),
    (
        "e_f64s_131072.bin",
        "3512bef53464f965e6ddb0718bff69a6b2aeb6c9f241fce683f1fb966f97aca4",
        "one Float64List of 131,072 elements",
    ),
]


class Xorshift32:
    """A fixed pseudo-random stream (Marsaglia xorshift32): identical on every Python."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF or 1

    def next_u32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def next_i32(self):
        return struct.unpack("<i", struct.pack("<I", self.next_u32()))[0]


def hexfloats_to_bits(v):
    """The shared record notation writes floats as C99 hex-float strings ("0x1.8p+0");
    spec/notation.md wants 16-digit bit patterns. Convert f64 scalars and f64s elements."""
    t = v[0]
    if t == "f64":
        return ["f64", smcpy.f64_bits(float.fromhex(v[1]))]
    if t == "f64s":
        return ["f64s", [smcpy.f64_bits(float.fromhex(x)) for x in v[1]]]
    if t == "list":
        return ["list", [hexfloats_to_bits(e) for e in v[1]]]
    if t == "map":
        return ["map", [[hexfloats_to_bits(k), hexfloats_to_bits(x)] for k, x in v[1]]]
    if t == "custom":
        return ["custom", v[1], hexfloats_to_bits(v[2])]
    return v


def load_record(shared_dir):
    """The AllNullableTypes-like record, from the shared notation file, or from our copy."""
    for d in (shared_dir, PAYLOAD_DIR):
        path = os.path.join(d, RECORD_NOTATION)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f), f.name
    raise SystemExit(
        "gen_payloads: %s not found in %s or %s" % (RECORD_NOTATION, shared_dir, PAYLOAD_DIR)
    )


def generated_payloads(record):
    """(file, entry, notation, description) of every generated payload, in manifest order."""
    rng = Xorshift32(0x5EED1234)
    ints10 = ["list", [["i32", rng.next_i32()] for _ in range(10)]]

    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    big_map = [
        "map",
        [
            [
                ["str", "key-%05d" % i],
                ["str", "%s-%s-%08x" % (words[i % 8], words[(i >> 3) % 8], rng.next_u32())],
            ]
            for i in range(10000)
        ],
    ]

    # A MethodChannel call as a plugin would send it: a map of named arguments, one of them
    # a record and one a byte buffer.
    call = [
        "call",
        "updateRecordsAndNotify",
        [
            "map",
            [
                [["str", "requestId"], ["i64", "1700000000123"]],
                [["str", "records"], ["list", [record, record]]],
                [
                    ["str", "tags"],
                    [
                        "list",
                        [["str", "sync"], ["str", "priority"], ["str", "\u00fcber-\U0001f680"]],
                    ],
                ],
                [["str", "timeoutMs"], ["i32", 2500]],
                [["str", "checksum"], ["u8s", bytes(range(32)).hex()]],
                [["str", "dryRun"], ["bool", False]],
            ],
        ],
    ]

    # An error envelope with structured details and a stacktrace (spec §11.3).
    frames = "\n".join(
        "    at com.example.plugin.Worker.step%d(Worker.kt:%d)" % (i, 100 + 7 * i)
        for i in range(12)
    )
    error = [
        "error",
        "STORAGE_FULL",
        "Could not persist 2 records: device storage is full",
        [
            "map",
            [
                [["str", "freeBytes"], ["i64", "524288"]],
                [["str", "neededBytes"], ["i64", "3145728"]],
                [["str", "failedIds"], ["i32s", [17, 18, 4096, -1]]],
                [["str", "retryAfterSeconds"], ["f64", smcpy.f64_bits(2.5)]],
                [["str", "record"], record],
                [["null"], ["str", "a null key is legal (spec §7.2)"]],
            ],
        ],
        "java.io.IOException: ENOSPC\n" + frames,
    ]

    return [
        ("g_list10_i32.bin", "message", ints10, "List of 10 int32"),
        (
            "g_anr_10.bin",
            "message",
            ["list", [record] * 10],
            "List of 10 AllNullableTypes-like records",
        ),
        (
            "g_anr_100.bin",
            "message",
            ["list", [record] * 100],
            "List of 100 AllNullableTypes-like records",
        ),
        ("g_map10000_str.bin", "message", big_map, "Map of 10,000 string -> string"),
        (
            "g_call_records.bin",
            "call",
            call,
            "method call: a name and a map of arguments (2 records, bytes, ...)",
        ),
        (
            "g_error_envelope.bin",
            "envelope",
            error,
            "error envelope: code, message, details (a map with a record), stacktrace",
        ),
        # Small siblings of the shared 1 MiB payloads: the zero-copy view mode must cost the
        # same for both sizes (O(1) in the payload size), owned decodes must not.
        (
            "g_u8s_1KiB.bin",
            "message",
            ["u8s", bytes((i * 7 + 3) & 0xFF for i in range(1024)).hex()],
            "one Uint8List of 1 KiB (zero-copy scaling check vs d_u8s_1MiB)",
        ),
        (
            "g_f64s_128.bin",
            "message",
            ["f64s", [smcpy.f64_bits(i * 0.5 - 17.25) for i in range(128)]],
            "one Float64List of 128 elements (zero-copy scaling check vs e_f64s_131072)",
        ),
    ]


# Custom tags of the records of the typed benchmark (bench/README.md "Typed records").
RECORD_CLASSES = {129: "AnrRecord", 131: "LatLng"}


def typed_shape(data):
    """The record class a message payload holds ("AnrRecord", or "[LatLng]" for a List of
    them, judged from the first element), or None: the typed ops run on these payloads only.
    The benches apply the same rule (bench_typed_shape in bench_typed.c)."""
    if data and data[0] in RECORD_CLASSES:
        return RECORD_CLASSES[data[0]]
    if len(data) >= 3 and data[0] == 0x0C:
        first = 2 if data[1] < 254 else 4 if data[1] == 254 else 6
        if first < len(data) and data[first] in RECORD_CLASSES:
            return "[%s]" % RECORD_CLASSES[data[first]]
    return None


def with_typed(entry, data):
    """The manifest entry with its "typed" field when the payload holds records."""
    shape = typed_shape(data) if entry["entry"] == "message" else None
    if shape is not None:
        entry["typed"] = shape
    return entry


def build(shared_dir):
    """Everything that belongs in bench/payloads/: {file name: bytes}, and the manifest."""
    files = {}
    manifest = []
    for name, digest, description in SHARED:
        files[name] = None  # copied, checked by hash
        manifest.append(
            with_typed(
                {
                    "file": name,
                    "entry": "message",
                    "description": description,
                    "source": "shared:" + name,
                    "sha256": digest,
                },
                read_shared_or_copy(shared_dir, name),
            )
        )
    record_notation, _ = load_record(shared_dir)
    record = hexfloats_to_bits(record_notation)
    # Our encoder must reproduce the shared record byte for byte, or the generated payloads
    # would not contain "the same record".
    shared_record = read_shared_or_copy(shared_dir, "b_anr_1.bin")
    if smcpy.encode_message(record).data != shared_record:
        raise SystemExit("gen_payloads: smcpy does not reproduce b_anr_1.bin from its notation")
    for name, entry, value, description in generated_payloads(record):
        data = smcpy.encode(entry, value).data
        # Cross-check with smcpy's own decoder: the bytes must decode back to the value.
        decoded = smcpy.decode(entry, data)
        if not smcpy.same(decoded, value):
            raise SystemExit("gen_payloads: %s does not decode back to its value" % name)
        files[name] = data
        manifest.append(
            with_typed(
                {
                    "file": name,
                    "entry": entry,
                    "description": description,
                    "source": "bench/gen_payloads.py",
                    "sha256": hashlib.sha256(data).hexdigest(),
                },
                data,
            )
        )
    return files, manifest


def read_shared_or_copy(shared_dir, name):
    for d in (shared_dir, PAYLOAD_DIR):
        path = os.path.join(d, name)
        if os.path.exists(path):
            with open(path, "rb") as f:
                return f.read()
    raise SystemExit("gen_payloads: %s not found in %s or %s" % (name, shared_dir, PAYLOAD_DIR))


def manifest_text(manifest):
    doc = {
        "about": "Benchmark payloads (bench/README.md). Written by bench/gen_payloads.py; do not edit.",
        "payloads": manifest,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check(shared_dir):
    files, manifest = build(shared_dir)
    problems = []
    for entry in manifest:
        path = os.path.join(PAYLOAD_DIR, entry["file"])
        if not os.path.exists(path):
            problems.append("missing " + entry["file"])
        elif sha256_file(path) != entry["sha256"]:
            problems.append("differs " + entry["file"])
    if not os.path.exists(os.path.join(PAYLOAD_DIR, RECORD_NOTATION)):
        problems.append("missing " + RECORD_NOTATION)
    try:
        with open(MANIFEST, encoding="utf-8") as f:
            if f.read() != manifest_text(manifest):
                problems.append("differs payloads.json")
    except OSError:
        problems.append("missing payloads.json")
    for p in problems:
        print("gen_payloads --check: " + p, file=sys.stderr)
    if not problems:
        print("gen_payloads --check: %d payloads up to date" % len(manifest))
    return 1 if problems else 0


def write(shared_dir):
    files, manifest = build(shared_dir)
    os.makedirs(PAYLOAD_DIR, exist_ok=True)
    for name, digest, _ in SHARED:
        dst = os.path.join(PAYLOAD_DIR, name)
        src = os.path.join(shared_dir, name)
        if os.path.exists(src) and os.path.abspath(src) != os.path.abspath(dst):
            shutil.copyfile(src, dst)
        if not os.path.exists(dst) or sha256_file(dst) != digest:
            raise SystemExit(
                "gen_payloads: %s missing or not the pinned bytes (need --shared DIR)" % name
            )
    src = os.path.join(shared_dir, RECORD_NOTATION)
    if os.path.exists(src):
        shutil.copyfile(src, os.path.join(PAYLOAD_DIR, RECORD_NOTATION))
    for name, data in files.items():
        if data is not None:
            with open(os.path.join(PAYLOAD_DIR, name), "wb") as f:
                f.write(data)
    with open(MANIFEST, "w", encoding="utf-8") as f:
        f.write(manifest_text(manifest))
    print("gen_payloads: wrote %d payloads to %s" % (len(manifest), PAYLOAD_DIR))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="verify instead of writing")
    ap.add_argument(
        "--shared",
        default=DEFAULT_SHARED,
        help="directory of the shared payload set (default %(default)s); "
        "bench/payloads/ holds a pinned copy when it is absent",
    )
    args = ap.parse_args()
    return check(args.shared) if args.check else write(args.shared)


if __name__ == "__main__":
    sys.exit(main())
