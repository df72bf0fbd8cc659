"""spec §7: lists (7.1), maps in wire order (7.2), duplicate keys (7.3, implementation-
defined), keys of any type (7.4)."""

from caselib import (
    V0_2,
    V03,
    b,
    custom,
    f32s,
    f64,
    f64s,
    i32,
    i32s,
    i64,
    i64s,
    lst,
    mp,
    notes,
    null,
    origin,
    s,
    tests,
    u8s,
    valid,
    with_alternatives,
)

SECTION = "7"
FILE = "s07-lists-maps"
TITLE = "Lists and maps"

GLIB = "fl_standard_message_codec_test.cc (wire-format-notes.md §3.5)"
CPP = "standard_message_codec_unittests.cc (wire-format-notes.md §3.4)"
JAVA = "StandardMessageCodecTest.java"
PI = "400921fb54442d18"

DUP_NOTES = notes(
    "The value model keeps every entry in wire order, duplicates included (spec §7.3); a "
    "host map may keep the first or the last; encoders should not write duplicates.",
    ("last value wins, at the first key's position", ["DART", "GLIB"]),
    ("last value wins (HashMap.put), hash order", ["JAVA"]),
    ("first value wins", ["OBJC", "CPP"]),
)
MERGE_NOTES = notes(
    "Keys with different encodings are different keys (spec §7.2, §7.4); they SHOULD stay "
    "separate entries even where the host's map equality merges them (R7.3-3).",
    ("merge 0.0 and -0.0 into one key", ["GLIB", "CPP", "DART"]),
    ("keep them apart (Double.equals compares bits)", ["JAVA"]),
)
NFC_NOTES = notes(
    '"\\u00e9" (c3a9) and "e\\u0301" (65cc81) are different strings (spec §5.1: no '
    "normalisation) and so different keys; both entries stay (R7.3-3).",
    (
        "String == compares canonical equivalence, so a Dictionary keyed by String keeps one "
        "entry (observed in a third-party Swift port)",
        ["SWIFT-PORT"],
    ),
)
NAN_PAYLOAD_NOTES = notes(
    "NaNs with different bit patterns are different values and so different keys (spec §7.3); "
    "both entries stay (R7.3-3).",
    (
        "HashMap<Object, Object> with Double keys: Double.equals compares doubleToLongBits, which "
        "canonicalises NaN, so one entry is kept (observed)",
        ["JAVA"],
    ),
)
NUMBER_KEY_NOTES = notes(
    "Keys of different types are different keys (spec §7.4), also when they are equal as "
    "numbers; both entries stay (R7.3-3, D17).",
    (
        "int and double keys compare as numbers (1 == 1.0, 0 == -0.0): one entry, the last "
        "value (observed)",
        ["DART"],
    ),
    (
        "int32 and int64 are one FlValue int, floats compare with ==: one entry (observed for "
        "i32 1 and i64 1)",
        ["GLIB"],
    ),
    ("NSNumber isEqual: compares numbers and booleans by value: one entry (unverified)", ["OBJC"]),
)
NAN_KEY_NOTES = notes(
    "A NaN key and a key with other bits are different keys in every host (spec §7.4): "
    "decoders keep both entries (R7.4-2).",
    (
        "std::map<EncodableValue, ...> orders doubles with <, so the NaN is equivalent to every "
        "key and one entry is dropped (observed)",
        ["CPP"],
    ),
)


WITH_ALTERNATIVES = [
    "s07.1-cpp-mixed",
    "s07.1-glib-mixed",
    "s07.2-glib-value-types-as-keys",
    "s07.2-glib-nested-maps",
]


REQUIREMENTS = {
    "7.1": ("R7.1-1",),
    "7.2": ("R7.2-1", "R7.2-2", "R7.2-3"),
    "7.3": ("R7.3-2",),
    "7.4": ("R7.4-2",),
}
# Keys that are distinct values but may be equal in a host's map (R7.3-3, a SHOULD).
HOST_MERGE = ("R7.2-1", "R7.3-3")


def cases(registry):
    with tests.per_section(REQUIREMENTS):
        return with_alternatives(_cases(), WITH_ALTERNATIVES)


def _cases():
    out = [
        valid(
            "s07.1-empty",
            "empty list",
            lst(),
            expect_hex="0c00",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s07.1-cpp-empty",
            "empty list (C++ test)",
            lst(),
            expect_hex="0c00",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s07.1-java-null",
            "[null] (Java itEncodesNullLiterals; also itEncodesNullObjects, "
            "an object equal to null)",
            lst(null()),
            expect_hex="0c0100",
            origin=origin(
                "flutter-java-test", JAVA + " itEncodesNullLiterals, itEncodesNullObjects"
            ),
        ),
        valid(
            "s07.1-java-booleans",
            "[true, false]",
            lst(b(True), b(False)),
            expect_hex="0c020102",
            origin=origin("flutter-java-test", JAVA + " itEncodesBooleans"),
        ),
        valid(
            "s07.1-cpp-mixed",
            '[null, "hello", 3.14, 47, [42, "nested"]]',
            lst(null(), s("hello"), f64(3.14), i32(47), lst(i32(42), s("nested"))),
            expect_hex="0c0500070568656c6c6f0600000000001f85eb51b81e0940032f0000000c02032a"
            "00000007066e6573746564",
            focus="$[2]",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s07.1-glib-mixed",
            '[null, true, 42, pi, "hello", [], {}]',
            lst(null(), b(True), i32(42), f64(PI), s("hello"), lst(), mp()),
            expect_hex="0c070001032a00000006000000000000182d4454fb210940070568656c6c6f0c000d00",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s07.1-glib-nested",
            "[[0,2,4,6,8],[1,3,5,7,9]]",
            lst(lst(*[i32(x) for x in (0, 2, 4, 6, 8)]), lst(*[i32(x) for x in (1, 3, 5, 7, 9)])),
            expect_hex="0c020c05030000000003020000000304000000030600000003080000000c050301"
            "0000000303000000030500000003070000000309000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s07.1-every-type",
            "a list holding one value of every type",
            lst(
                null(),
                b(True),
                b(False),
                i32(-1),
                i64(-1),
                f64(-1.5),
                s("s"),
                u8s("00ff"),
                i32s([1]),
                i64s([2]),
                f64s([3.0]),
                lst(),
                mp(),
                f32s([4.0]),
                custom(200, null()),
            ),
        ),
        valid(
            "s07.1-list-of-empties",
            '[[], {}, "", Uint8List[], Int32List[]]',
            lst(lst(), mp(), s(""), u8s(""), i32s([])),
        ),
        valid(
            "s07.1-nested-5", "five nested single-element lists", lst(lst(lst(lst(lst(i32(1))))))
        ),
        valid(
            "s07.2-empty",
            "empty map",
            mp(),
            expect_hex="0d00",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s07.2-glib-value-types-as-keys",
            '{null:"null", true:"bool", 42:"int", pi:"float", "hello":"string", '
            '[]:"list", {}:"map"}',
            mp(
                (null(), s("null")),
                (b(True), s("bool")),
                (i32(42), s("int")),
                (f64(PI), s("float")),
                (s("hello"), s("string")),
                (lst(), s("list")),
                (mp(), s("map")),
            ),
            expect_hex="0d070007046e756c6c010704626f6f6c032a0000000703696e7406000000000018"
            "2d4454fb2109400705666c6f6174070568656c6c6f0706737472696e670c0007046c"
            "6973740d0007036d6170",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s07.2-glib-value-types-as-values",
            '{"null":null, "bool":true, "int":42, "float":pi, "string":"hello", '
            '"list":[], "map":{}}',
            mp(
                (s("null"), null()),
                (s("bool"), b(True)),
                (s("int"), i32(42)),
                (s("float"), f64(PI)),
                (s("string"), s("hello")),
                (s("list"), lst()),
                (s("map"), mp()),
            ),
            expect_hex="0d0707046e756c6c000704626f6f6c010703696e74032a0000000705666c6f6174"
            "06000000000000182d4454fb2109400706737472696e67070568656c6c6f07046c69"
            "73740c0007036d61700d00",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s07.2-glib-nested-maps",
            '{"str-to-int":{zero:0,one:1,two:2,three:3}, "int-to-str":{0:"zero",...}}',
            mp(
                (
                    s("str-to-int"),
                    mp(
                        (s("zero"), i32(0)),
                        (s("one"), i32(1)),
                        (s("two"), i32(2)),
                        (s("three"), i32(3)),
                    ),
                ),
                (
                    s("int-to-str"),
                    mp(
                        (i32(0), s("zero")),
                        (i32(1), s("one")),
                        (i32(2), s("two")),
                        (i32(3), s("three")),
                    ),
                ),
            ),
            expect_hex="0d02070a7374722d746f2d696e740d0407047a65726f030000000007036f6e650301"
            "000000070374776f0302000000070574687265650303000000070a696e742d746f2d"
            "7374720d04030000000007047a65726f030100000007036f6e650302000000070374"
            "776f030300000007057468726565",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s07.2-cpp-map-48-bytes",
            '{null:null, 3.14:["nested"], "a":3.14, "b":47}: the C++ test map in the '
            "order C++ writes it (std::map sorts by type, then value); only this order gives "
            "the 48 bytes the test asserts (alignment of the doubles depends on order)",
            mp(
                (null(), null()),
                (f64(3.14), lst(s("nested"))),
                (s("a"), f64(3.14)),
                (s("b"), i32(47)),
            ),
            origin=origin("flutter-cpp-test", CPP + " (only the 48-byte length is asserted)"),
        ),
        valid(
            "s07.2-order-ab",
            '{"a":1, "b":2} in this order',
            mp((s("a"), i32(1)), (s("b"), i32(2))),
            expect_hex="0d02 070161 0301000000 070162 0302000000",
        ),
        valid(
            "s07.2-order-ba",
            '{"b":2, "a":1}: same entries, other wire order, other bytes',
            mp((s("b"), i32(2)), (s("a"), i32(1))),
            expect_hex="0d02 070162 0302000000 070161 0301000000",
        ),
        valid(
            "s07.2-order-descending-ints",
            "int keys 5,4,3,2,1 (not sorted)",
            mp(*[(i32(k), s(str(k))) for k in (5, 4, 3, 2, 1)]),
        ),
        valid(
            "s07.2-order-mixed-types",
            "keys string, int32, null, bool (C++ would sort them by type)",
            mp((s("z"), null()), (i32(1), null()), (null(), null()), (b(False), null())),
        ),
        valid(
            "s07.2-map-of-maps",
            "map value is a map, key is a map",
            mp((mp((s("k"), s("v"))), mp((i32(1), i32(2))))),
        ),
        valid(
            "s07.2-i32-and-i64-keys",
            "keys int32 1 and int64 1 are different keys; a host with one integer type (GLIB, "
            "DART) holds one entry for both, a duplicate key there (R7.3-2, D17)",
            mp((i32(1), s("int32")), (i64(1), s("int64"))),
            requirements=HOST_MERGE,
        ),
        valid(
            "s07.2-map-count-bytes",
            "a map of 3 pairs: the size counts pairs, not values",
            mp((i32(1), null()), (i32(2), null()), (i32(3), null())),
            expect_hex="0d03 0301000000 00 0302000000 00 0303000000 00",
        ),
    ]
    # spec §7.4: keys of every type.
    key_types = [
        ("null", null()),
        ("true", b(True)),
        ("false", b(False)),
        ("i32", i32(-5)),
        ("i64", i64(2**40)),
        ("f64", f64(0.5)),
        ("f64-nan", f64("7ff8000000000000")),
        ("f64-minus-zero", f64(-0.0)),
        ("str", s("key")),
        ("str-empty", s("")),
        ("u8s", u8s("0102")),
        ("i32s", i32s([1, 2])),
        ("i64s", i64s([3])),
        ("f64s", f64s([1.0])),
        ("f32s", f32s([1.0])),
        ("list", lst(i32(1), s("a"))),
        ("list-empty", lst()),
        ("map", mp((s("a"), s("b")))),
        ("custom", custom(129, i64(0))),
    ]
    for slug, key in key_types:
        out.append(
            valid(
                "s07.4-key-%s" % slug,
                "map with a %s key" % slug,
                mp((key, s("v")), (s("after"), i32(1))),
                focus="$<0>",
            )
        )
    out.append(
        valid(
            "s07.4-all-key-types",
            "one map with a key of every type",
            mp(*[(k, i32(i)) for i, (_, k) in enumerate(key_types)]),
        )
    )
    # A NaN key next to another float64 key, on its own (CPP's std::map drops one; D40).
    nan, half = f64("7ff8000000000000"), f64(0.5)
    for slug, pairs in (
        ("after", ((half, i32(1)), (nan, i32(2)))),
        ("before", ((nan, i32(1)), (half, i32(2)))),
    ):
        out.append(
            valid(
                "s07.4-nan-key-%s-f64" % slug,
                "{%s}: a NaN key %s the key 0.5; both "
                "entries stay"
                % (
                    ", ".join("%s: %d" % ("NaN" if k is nan else "0.5", v[1]) for k, v in pairs),
                    slug,
                ),
                mp(*pairs),
                notes=NAN_KEY_NOTES,
                since=V0_2,
                origin=origin("observed", "CPP decodes one entry (issue 13)"),
            )
        )
    # spec §7.3: duplicate keys (identical encodings) are kept in wire order.
    out += [
        valid(
            "s07.3-dup-str",
            "{'a':1, 'a':2}: duplicate key, both entries kept",
            mp((s("a"), i32(1)), (s("a"), i32(2))),
            expect_hex="0d0207016103010000000701610302000000",
            tier="implementation-defined",
            notes=DUP_NOTES,
            origin=origin("derived", "wire-format-notes.md §3.6 duplicate key"),
        ),
        valid(
            "s07.3-dup-null",
            "two null keys",
            mp((null(), i32(1)), (null(), i32(2))),
            tier="implementation-defined",
            notes=DUP_NOTES,
        ),
        valid(
            "s07.3-dup-nan",
            "two NaN keys with the same bits (GLib keeps both, C++ the first, Java the last)",
            mp((f64("7ff8000000000000"), i32(1)), (f64("7ff8000000000000"), i32(2))),
            tier="implementation-defined",
            notes=DUP_NOTES,
        ),
        valid(
            "s07.3-dup-list",
            "two identical list keys",
            mp((lst(i32(1)), s("x")), (lst(i32(1)), s("y"))),
            tier="implementation-defined",
            notes=DUP_NOTES,
        ),
        valid(
            "s07.3-dup-three",
            "three entries with key 'k', one other key between",
            mp((s("k"), i32(1)), (s("o"), i32(0)), (s("k"), i32(2)), (s("k"), i32(3))),
            tier="implementation-defined",
            notes=DUP_NOTES,
        ),
        valid(
            "s07.3-zero-and-minus-zero",
            "keys 0.0 and -0.0: different encodings, so not "
            "duplicates, but several hosts merge them",
            mp((f64(0.0), s("plus")), (f64(-0.0), s("minus"))),
            requirements=HOST_MERGE,
            notes=MERGE_NOTES,
        ),
    ]
    # R7.3-3 where a host's key equality is wider than the value model's (D17).
    for slug, pairs in (
        ("nfc-nfd", ((s("\u00e9"), i32(1)), (s("e\u0301"), i32(2)))),
        ("nfd-nfc", ((s("e\u0301"), i32(1)), (s("\u00e9"), i32(2)))),
    ):
        out.append(
            valid(
                "s07.3-keys-%s" % slug,
                'keys "%s" then "%s": canonically '
                "equivalent, different strings; both entries stay"
                % tuple(ascii(k[1])[1:-1] for k, _ in pairs),
                mp(*pairs),
                requirements=HOST_MERGE,
                notes=NFC_NOTES,
                since=V0_2,
                origin=origin("observed", "a Swift port keeps one entry (issue 13)"),
            )
        )
    # R7.3-3 for keys that are equal as numbers (D17): 1 and 1.0 and their kin.
    one, zero = (i32(1), i64(1), f64(1.0)), (i32(0), f64(-0.0), f64(0.0), b(False))
    for slug, keys, why in (
        ("i32-1-f64-1", (one[0], one[2]), "int32 1 and float64 1.0"),
        ("f64-1-i32-1", (one[2], one[0]), "float64 1.0 and int32 1"),
        ("i64-1-f64-1", (one[1], one[2]), "int64 1 and float64 1.0"),
        ("i32-i64-f64-1", one, "int32 1, int64 1 and float64 1.0"),
        ("i32-0-f64-minus-zero", (zero[0], zero[1]), "int32 0 and float64 -0.0"),
        ("i32-0-f64-zero", (zero[0], zero[2]), "int32 0 and float64 0.0"),
        ("false-i32-0", (zero[3], zero[0]), "false and int32 0"),
        ("true-i32-1", (b(True), one[0]), "true and int32 1"),
    ):
        pairs = [(k, s(chr(ord("a") + i))) for i, k in enumerate(keys)]
        out.append(
            valid(
                "s07.3-keys-%s" % slug,
                "keys %s: different types, so different keys; every entry stays" % why,
                mp(*pairs),
                requirements=HOST_MERGE,
                notes=NUMBER_KEY_NOTES,
                since=V03,
                origin=origin("observed", "DART keeps one entry for 1 and 1.0 (issue 31)")
                if slug == "i32-1-f64-1"
                else None,
            )
        )
    for slug, pairs in (
        (
            "quiet-then-payload",
            ((f64("7ff8000000000000"), i32(1)), (f64("7ff0000000000001"), i32(2))),
        ),
        (
            "payload-then-quiet",
            ((f64("7ff8000000000001"), i32(1)), (f64("7ff8000000000000"), i32(2))),
        ),
    ):
        out.append(
            valid(
                "s07.3-nan-keys-%s" % slug,
                "two NaN keys with different payloads: different keys; both entries stay",
                mp(*pairs),
                requirements=HOST_MERGE,
                notes=NAN_PAYLOAD_NOTES,
                since=V0_2,
                origin=origin("observed", "JAVA keeps one entry (issue 13)"),
            )
        )
    return out
