/*
 * Literal upstream vectors (shared/wire-format-notes.md §3.1–§3.5) and derived vectors
 * (§3.6, §4.4) as value/bytes pairs. TS_BOTH rows are asserted byte for byte in both
 * directions (the upstream tests assert both, or the bytes are canonical by spec §13);
 * TS_DECODE_ONLY rows are accepted-but-not-canonical encodings.
 *
 * Not expressible in the Pigeon convention (spec §8: a custom tag is followed by exactly
 * one nested value), hence left out: C++'s test-only custom types Point (`80 09000000
 * 10000000`) and SomeData (`81 06000102030405 0704 74657374`), and GLib's test custom codec
 * (`800568656c6c6f`, `0c02800568656c6c6f81`): their payloads are raw bytes, not values.
 * C++'s 48-byte map is included in the one entry order (std::map's) that gives 48 bytes;
 * the large Uint8List boundary cases of §3.1 are built at run time by test_s02_sizes.c.
 */
#include "test_support.h"

#define PI "\"400921fb54442d18\""

const ts_vector_t ts_vectors[] = {
    /* spec §4.1 null and booleans */
    {"s04.1-null", "flutter-glib-test EncodeNull; objc NSNull; cpp", "[\"null\"]", "00", TS_BOTH},
    {"s04.1-true", "flutter-glib-test EncodeTrue; objc @YES", "[\"bool\", true]", "01", TS_BOTH},
    {"s04.1-false", "flutter-glib-test EncodeFalse; objc @NO", "[\"bool\", false]", "02", TS_BOTH},

    /* spec §4.2 integers */
    {"s04.2-i32-zero", "flutter-glib-test EncodeIntZero", "[\"i32\", 0]", "0300000000", TS_BOTH},
    {"s04.2-i32-one", "flutter-glib-test EncodeIntOne", "[\"i32\", 1]", "0301000000", TS_BOTH},
    {"s04.2-i32-01234567", "flutter-glib-test EncodeInt32", "[\"i32\", 19088743]", "0367452301",
     TS_BOTH},
    {"s04.2-i32-min", "flutter-glib-test EncodeInt32Min; dart boundary", "[\"i32\", -2147483648]",
     "0300000080", TS_BOTH},
    {"s04.2-i32-max", "flutter-glib-test EncodeInt32Max; dart boundary", "[\"i32\", 2147483647]",
     "03ffffff7f", TS_BOTH},
    {"s04.2-i64-0123456789abcdef", "flutter-glib-test EncodeInt64",
     "[\"i64\", \"81985529216486895\"]", "04efcdab8967452301", TS_BOTH},
    {"s04.2-i64-min", "flutter-glib-test EncodeInt64Min; dart boundary",
     "[\"i64\", \"-9223372036854775808\"]", "040000000000000080", TS_BOTH},
    {"s04.2-i64-max", "flutter-glib-test EncodeInt64Max; dart boundary",
     "[\"i64\", \"9223372036854775807\"]", "04ffffffffffffff7f", TS_BOTH},
    {"s04.2-i64-below-i32-min", "dart should encode integers correctly at boundary cases",
     "[\"i64\", \"-2147483649\"]", "04ffffff7fffffffff", TS_BOTH},
    {"s04.2-i64-above-i32-max", "dart should encode integers correctly at boundary cases",
     "[\"i64\", \"2147483648\"]", "040000008000000000", TS_BOTH},
    {"s04.2-i32-uint8-fe", "objc UInt8 0xfe", "[\"i32\", 254]", "03fe000000", TS_BOTH},
    {"s04.2-i32-uint16-fedc", "objc UInt16 0xfedc", "[\"i32\", 65244]", "03dcfe0000", TS_BOTH},
    {"s04.2-i64-uint32-fedcba09", "objc UInt32 0xfedcba09", "[\"i64\", \"4275878409\"]",
     "0409badcfe00000000", TS_BOTH},
    {"s04.2-i64-uint64-bits", "objc UInt64 0xfffffffffffffffa", "[\"i64\", \"-6\"]",
     "04faffffffffffffff", TS_BOTH},
    {"s04.2-i32-sint8-fe", "objc SInt8 0xfe", "[\"i32\", -2]", "03feffffff", TS_BOTH},
    {"s04.2-i32-sint16-fedc", "objc SInt16 0xfedc", "[\"i32\", -292]", "03dcfeffff", TS_BOTH},
    {"s04.2-i32-12345678", "objc @(0x12345678); cpp int32", "[\"i32\", 305419896]", "0378563412",
     TS_BOTH},
    {"s04.2-i64-1234567890abcdef", "objc; cpp int64", "[\"i64\", \"1311768467294899695\"]",
     "04efcdab9078563412", TS_BOTH},

    /* spec §4.3 float64 (aligned to 8 from the message start) */
    {"s04.3-f64-zero", "flutter-glib-test EncodeFloatZero", "[\"f64\", \"0000000000000000\"]",
     "06000000000000000000000000000000", TS_BOTH},
    {"s04.3-f64-one", "flutter-glib-test EncodeFloatOne; dart should align doubles",
     "[\"f64\", \"3ff0000000000000\"]", "0600000000000000000000000000f03f", TS_BOTH},
    {"s04.3-f64-minus-one", "flutter-glib-test EncodeFloatMinusOne",
     "[\"f64\", \"bff0000000000000\"]", "0600000000000000000000000000f0bf", TS_BOTH},
    {"s04.3-f64-half", "flutter-glib-test EncodeFloatHalf", "[\"f64\", \"3fe0000000000000\"]",
     "0600000000000000000000000000e03f", TS_BOTH},
    {"s04.3-f64-pi", "flutter-glib-test EncodeFloatPi; objc; cpp", "[\"f64\", " PI "]",
     "0600000000000000182d4454fb210940", TS_BOTH},
    {"s04.3-f64-minus-zero", "flutter-glib-test EncodeFloatMinusZero",
     "[\"f64\", \"8000000000000000\"]", "06000000000000000000000000000080", TS_BOTH},
    {"s04.3-f64-nan", "flutter-glib-test EncodeFloatNaN", "[\"f64\", \"7ff8000000000000\"]",
     "0600000000000000000000000000f87f", TS_BOTH},
    {"s04.3-f64-infinity", "flutter-glib-test EncodeFloatInfinity",
     "[\"f64\", \"7ff0000000000000\"]", "0600000000000000000000000000f07f", TS_BOTH},
    {"s04.3-f64-float32-pi", "objc @3.1415927f (widened)", "[\"f64\", \"400921fb60000000\"]",
     "0600000000000000 00000060fb210940", TS_BOTH},
    {"s04.3-f64-nan-payload", "derived (spec §4.3: bits preserved)",
     "[\"f64\", \"7ff0000000000001\"]", "0600000000000000010000000000f07f", TS_BOTH},

    /* spec §5 strings */
    {"s05.1-empty", "flutter-glib-test EncodeEmptyString; cpp", "[\"str\", \"\"]", "0700", TS_BOTH},
    {"s05.1-hello", "flutter-glib-test EncodeString", "[\"str\", \"hello\"]", "070568656c6c6f",
     TS_BOTH},
    {"s05.1-sized-Hello", "flutter-glib-test EncodeStringSized", "[\"str\", \"Hello\"]",
     "070548656c6c6f", TS_BOTH},
    {"s05.1-hello-world", "objc @\"hello world\"; cpp", "[\"str\", \"hello world\"]",
     "070b68656c6c6f20776f726c64", TS_BOTH},
    {"s05.1-bmp", "objc @\"h\\u263Aw\"; cpp", "[\"str\", \"h\\u263aw\"]", "070568e298ba77",
     TS_BOTH},
    {"s05.1-astral", "objc @\"h\\U0001F602w\"; cpp", "[\"str\", \"h\\ud83d\\ude02w\"]",
     "070668f09f988277", TS_BOTH},
    {"s05.3-replacement-char", "derived §3.6 (what Dart writes for a lone surrogate)",
     "[\"str\", \"\\ufffd\"]", "0703efbfbd", TS_BOTH},
    {"s05.1-non-minimal-size", "derived §3.6 (accepted by every decoder)", "[\"str\", \"ab\"]",
     "07fe02006162", TS_DECODE_ONLY},
    {"s05.1-non-minimal-size-u32", "derived (spec §2.2)", "[\"str\", \"ab\"]", "07ff020000006162",
     TS_DECODE_ONLY},

    /* spec §6 byte arrays and typed lists */
    {"s06.1-u8s-empty", "flutter-glib-test EncodeUint8ListEmpty", "[\"u8s\", \"\"]", "0800",
     TS_BOTH},
    {"s06.1-u8s-01234", "flutter-glib-test EncodeUint8List", "[\"u8s\", \"0001020304\"]",
     "08050001020304", TS_BOTH},
    {"s06.1-u8s-ba5eba11", "cpp uint8; objc NSData (inferred)", "[\"u8s\", \"ba5eba11\"]",
     "0804ba5eba11", TS_BOTH},
    {"s06.2-i32s-empty", "flutter-glib-test EncodeInt32ListEmpty", "[\"i32s\", []]", "09000000",
     TS_BOTH},
    {"s06.2-i32s-five", "flutter-glib-test EncodeInt32List", "[\"i32s\", [0, -1, 2, -3, 4]]",
     "0905000000000000ffffffff02000000fdffffff04000000", TS_BOTH},
    {"s06.2-i32s-cpp", "cpp int32 vector", "[\"i32s\", [305419896, -1, 0]]",
     "0903 0000 78563412 ffffffff 00000000", TS_BOTH},
    {"s06.3-i64s-empty", "flutter-glib-test EncodeInt64ListEmpty", "[\"i64s\", []]",
     "0a00000000000000", TS_BOTH},
    {"s06.3-i64s-five", "flutter-glib-test EncodeInt64List",
     "[\"i64s\", [\"0\", \"-1\", \"2\", \"-3\", \"4\"]]",
     "0a050000000000000000000000000000ffffffffffffffff0200000000000000fdffffffffffffff0400000000000"
     "000",
     TS_BOTH},
    {"s06.3-i64s-cpp", "cpp int64 vector", "[\"i64s\", [\"1311768467294899695\", \"-1\"]]",
     "0a02 000000000000 efcdab9078563412 ffffffffffffffff", TS_BOTH},
    {"s06.4-f64s-empty", "flutter-glib-test EncodeFloat64ListEmpty", "[\"f64s\", []]",
     "0b00000000000000", TS_BOTH},
    {"s06.4-f64s-five", "flutter-glib-test EncodeFloat64List",
     "[\"f64s\", [\"0000000000000000\", \"bfe0000000000000\", \"3fd0000000000000\", "
     "\"bfc0000000000000\", \"3f7999999999999a\"]]",
     "0b050000000000000000000000000000000000000000e0bf000000000000d03f000000000000c0bf9a99999999997"
     "93f",
     TS_BOTH},
    {"s06.4-f64s-cpp", "cpp float64 vector", "[\"f64s\", [" PI ", \"408f400000000000\"]]",
     "0b02 000000000000 182d4454fb210940 0000000000408f40", TS_BOTH},
    {"s06.5-f32s-empty", "flutter-glib-test EncodeFloat32ListEmpty; derived §3.6", "[\"f32s\", []]",
     "0e000000", TS_BOTH},
    {"s06.5-f32s-five", "flutter-glib-test EncodeFloat32List",
     "[\"f32s\", [\"00000000\", \"bf000000\", \"3e800000\", \"be000000\", \"3bcccccd\"]]",
     "0e05000000000000000000bf0000803e000000becdcccc3b", TS_BOTH},
    {"s06.5-f32s-cpp", "cpp float32 vector", "[\"f32s\", [\"40490fd8\", \"447a0000\"]]",
     "0e02 0000 d80f4940 00007a44", TS_BOTH},
    {"s06.4-dart-composite-unaligned",
     "derived from dart 'should encode and decode composite message' (round-trip only upstream: "
     "two nulls push the Float64List off alignment)",
     "[\"list\", [[\"u8s\", \"0102\"], [\"i32s\", [1, 2]], [\"null\"], [\"null\"], [\"f64s\", "
     "[\"fff0000000000000\", \"ffefffffffffffff\", \"8000000000000001\", \"8000000000000000\", "
     "\"0000000000000000\", \"0000000000000001\", \"7fefffffffffffff\", \"7ff0000000000000\", "
     "\"7ff8000000000000\"]]]]",
     "0c05080201020902010000000200000000000b0900000000000000000000f0ffffffffffffffefff0100000000000"
     "080000000000000008000000000000000000100000000000000ffffffffffffef7f000000000000f07f0000000000"
     "00f87f",
     TS_BOTH},
    {"s06.5-java-float-array", "derived from java itEncodesFloatArrays (round-trip only upstream)",
     "[\"f32s\", [\"3f800000\", \"400ccccd\", \"40a9999a\"]]", "0e0300000000803fcdcc0c409a99a940",
     TS_BOTH},
    {"s06.6-empty-i32s-in-list", "derived §3.6 [null, Int32List[]]",
     "[\"list\", [[\"null\"], [\"i32s\", []]]]", "0c02000900000000", TS_BOTH},
    {"s06.6-empty-i32s-then-int", "derived §3.6 [null, Int32List[], 7]",
     "[\"list\", [[\"null\"], [\"i32s\", []], [\"i32\", 7]]]", "0c030009000000000307000000",
     TS_BOTH},

    /* spec §7 lists and maps */
    {"s07.1-list-empty", "flutter-glib-test EncodeEmptyList; cpp", "[\"list\", []]", "0c00",
     TS_BOTH},
    {"s07.1-list-null", "java itEncodesNullLiterals", "[\"list\", [[\"null\"]]]", "0c0100",
     TS_BOTH},
    {"s07.1-list-bools", "java itEncodesBooleans",
     "[\"list\", [[\"bool\", true], [\"bool\", false]]]", "0c020102", TS_BOTH},
    {"s07.1-list-cpp", "cpp standard_message_codec_unittests list",
     "[\"list\", [[\"null\"], [\"str\", \"hello\"], [\"f64\", \"40091eb851eb851f\"], [\"i32\", "
     "47], [\"list\", [[\"i32\", 42], [\"str\", \"nested\"]]]]]",
     "0c05 00 070568656c6c6f 06 0000000000 1f85eb51b81e0940 032f000000 0c02 032a000000 "
     "07066e6573746564",
     TS_BOTH},
    {"s07.1-list-glib-mixed", "flutter-glib-test EncodeListTypes",
     "[\"list\", [[\"null\"], [\"bool\", true], [\"i32\", 42], [\"f64\", " PI
     "], [\"str\", \"hello\"], [\"list\", []], [\"map\", []]]]",
     "0c070001032a00000006000000000000182d4454fb210940070568656c6c6f0c000d00", TS_BOTH},
    {"s07.1-list-glib-nested", "flutter-glib-test EncodeListNested",
     "[\"list\", [[\"list\", [[\"i32\", 0], [\"i32\", 2], [\"i32\", 4], [\"i32\", 6], [\"i32\", "
     "8]]], [\"list\", [[\"i32\", 1], [\"i32\", 3], [\"i32\", 5], [\"i32\", 7], [\"i32\", 9]]]]]",
     "0c020c05030000000003020000000304000000030600000003080000000c050301000000030300000003050000000"
     "3070000000309000000",
     TS_BOTH},
    {"s07.2-map-empty", "flutter-glib-test EncodeEmptyMap", "[\"map\", []]", "0d00", TS_BOTH},
    {"s07.2-map-glib-key-types", "flutter-glib-test EncodeMapKeyTypes",
     "[\"map\", [[[\"null\"], [\"str\", \"null\"]], [[\"bool\", true], [\"str\", \"bool\"]], "
     "[[\"i32\", 42], [\"str\", \"int\"]], [[\"f64\", " PI
     "], [\"str\", \"float\"]], [[\"str\", \"hello\"], [\"str\", \"string\"]], [[\"list\", []], "
     "[\"str\", \"list\"]], [[\"map\", []], [\"str\", \"map\"]]]]",
     "0d070007046e756c6c010704626f6f6c032a0000000703696e74060000000000182d4454fb2109400705666c6f617"
     "4070568656c6c6f0706737472696e670c0007046c6973740d0007036d6170",
     TS_BOTH},
    {"s07.2-map-glib-value-types", "flutter-glib-test EncodeMapValueTypes",
     "[\"map\", [[[\"str\", \"null\"], [\"null\"]], [[\"str\", \"bool\"], [\"bool\", true]], "
     "[[\"str\", \"int\"], [\"i32\", 42]], [[\"str\", \"float\"], [\"f64\", " PI
     "]], [[\"str\", \"string\"], [\"str\", \"hello\"]], [[\"str\", \"list\"], [\"list\", []]], "
     "[[\"str\", \"map\"], [\"map\", []]]]]",
     "0d0707046e756c6c000704626f6f6c010703696e74032a0000000705666c6f617406000000000000182d4454fb210"
     "9400706737472696e67070568656c6c6f07046c6973740c0007036d61700d00",
     TS_BOTH},
    {"s07.2-map-glib-nested", "flutter-glib-test EncodeMapNested",
     "[\"map\", [[[\"str\", \"str-to-int\"], [\"map\", [[[\"str\", \"zero\"], [\"i32\", 0]], "
     "[[\"str\", \"one\"], [\"i32\", 1]], [[\"str\", \"two\"], [\"i32\", 2]], [[\"str\", "
     "\"three\"], [\"i32\", 3]]]]],"
     " [[\"str\", \"int-to-str\"], [\"map\", [[[\"i32\", 0], [\"str\", \"zero\"]], [[\"i32\", 1], "
     "[\"str\", \"one\"]], [[\"i32\", 2], [\"str\", \"two\"]], [[\"i32\", 3], [\"str\", "
     "\"three\"]]]]]]]",
     "0d02070a7374722d746f2d696e740d0407047a65726f030000000007036f6e650301000000070374776f030200000"
     "0070574687265650303000000070a696e742d746f2d7374720d04030000000007047a65726f030100000007036f6e"
     "650302000000070374776f030300000007057468726565",
     TS_BOTH},
    {"s07.2-map-cpp-sorted-48-bytes",
     "cpp map test (asserts 0d04 and 48 bytes; this entry order is the one C++'s std::map yields)",
     "[\"map\", [[[\"null\"], [\"null\"]], [[\"f64\", \"40091eb851eb851f\"], [\"list\", [[\"str\", "
     "\"nested\"]]]], [[\"str\", \"a\"], [\"f64\", \"40091eb851eb851f\"]], [[\"str\", \"b\"], "
     "[\"i32\", 47]]]]",
     "0d04 0000 06 000000 1f85eb51b81e0940 0c01 07066e6573746564 070161 06 0000 1f85eb51b81e0940 "
     "070162 032f000000",
     TS_BOTH},
    {"s07.3-map-duplicate-keys", "derived §3.6 (the reference keeps every entry)",
     "[\"map\", [[[\"str\", \"a\"], [\"i32\", 1]], [[\"str\", \"a\"], [\"i32\", 2]]]]",
     "0d0207016103010000000701610302000000", TS_BOTH},

    /* spec §8 custom values (Pigeon convention), derived from wire-format-notes §4.4 */
    {"s08.5-enum-int64-dart", "derived §4.4 (Dart enum index 1, tag 129)",
     "[\"custom\", 129, [\"i64\", \"1\"]]", "81040100000000000000", TS_BOTH},
    {"s08.5-enum-int32-java", "derived §4.4 (Java enum index 1, tag 129)",
     "[\"custom\", 129, [\"i32\", 1]]", "810301000000", TS_BOTH},
    {"s08.4-class-dart", "derived §4.4 (class [1, \"x\"], tag 130)",
     "[\"custom\", 130, [\"list\", [[\"i64\", \"1\"], [\"str\", \"x\"]]]]",
     "820c02040100000000000000070178", TS_BOTH},
    {"s08.3-overflow-dart", "derived §4.4 (overflow type 0 wrapping enum index 2)",
     "[\"custom\", 255, [\"list\", [[\"i64\", \"0\"], [\"i64\", \"2\"]]]]",
     "ff0c02040000000000000000040200000000000000", TS_BOTH},
    {"s08.4-empty-class", "derived (spec §8.4: empty class 0c00)",
     "[\"custom\", 135, [\"list\", []]]", "870c00", TS_BOTH},
    {"s08.2-proxy-ref", "derived (spec §8.2: tag 128, int identifier)",
     "[\"custom\", 128, [\"i64\", \"7\"]]", "80040700000000000000", TS_BOTH},
    {"s08.1-custom-f64-payload", "derived (alignment inside a custom payload)",
     "[\"custom\", 200, [\"f64\", \"3ff0000000000000\"]]", "c806000000000000000000000000f03f",
     TS_BOTH},
};

const size_t ts_vector_count = sizeof ts_vectors / sizeof ts_vectors[0];
