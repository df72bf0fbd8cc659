package dev.smc.tests

import dev.smc.codec.CustomValue
import dev.smc.codec.CustomValueCodec
import dev.smc.codec.DecodeMode
import dev.smc.codec.ErrorEnvelope
import dev.smc.codec.LargeInt
import dev.smc.codec.MapPairs
import dev.smc.codec.MapStyle
import dev.smc.codec.SmcException
import dev.smc.codec.StandardMessageCodec
import dev.smc.codec.StandardMethodCodec
import dev.smc.runner.Hex
import java.math.BigInteger

/** Hand-written unit tests of the codec; every expectation cites the spec section. */
object CodecTests {
    private val FLUTTER = DecodeMode.FLUTTER
    private val STRICT = DecodeMode.STRICT

    fun run(t: Check) {
        scalars(t)
        strings(t)
        sizes(t)
        largeSizes(t)
        alignment(t)
        padding(t)
        truncation(t)
        tags(t)
        utf8(t)
        depth(t)
        envelopes(t)
        encoderErrors(t)
        floats(t)
        maps(t)
    }

    /** Decodes [hex] in [mode] (at shifts 0 and 5) and compares with [notation]. */
    private fun decodes(t: Check, name: String, hex: String, notation: String, mode: DecodeMode = FLUTTER, entry: String = "message") {
        for (shift in intArrayOf(0, 5)) {
            t.equal("$name (decode, shift $shift)", Cases.canon(notation), Cases.decode(hex, mode, entry, shift))
        }
    }

    /** Both directions: decode(hex) == notation and encode(notation) == hex. */
    private fun both(t: Check, name: String, hex: String, notation: String, entry: String = "message") {
        decodes(t, name, hex, notation, FLUTTER, entry)
        decodes(t, name, hex, notation, STRICT, entry)
        t.equal("$name (encode)", hex, Cases.encode(notation, entry))
    }

    private fun rejects(t: Check, name: String, hex: String, cls: String, offset: Int, mode: DecodeMode = FLUTTER, entry: String = "message") {
        for (shift in intArrayOf(0, 3)) {
            t.equal("$name (${if (mode == STRICT) "strict" else "flutter"}, shift $shift)", "error $cls @$offset", Cases.decode(hex, mode, entry, shift))
        }
    }

    private fun zeros(n: Int): String = "00".repeat(n)

    private fun scalars(t: Check) {
        // spec §4.1, §4.2; literal vectors from wire-format-notes §3.4/§3.5.
        both(t, "null", "00", """["null"]""")
        both(t, "true", "01", """["bool", true]""")
        both(t, "false", "02", """["bool", false]""")
        both(t, "int32", "0378563412", """["i32", 305419896]""")
        both(t, "int32 min", "0300000080", """["i32", -2147483648]""")
        both(t, "int64", "04efcdab9078563412", """["i64", "1311768467294899695"]""")
        both(t, "int64 min", "040000000000000080", """["i64", "-9223372036854775808"]""")
        // spec §4.2: int32 and int64 stay distinct, whatever the number.
        both(t, "small int64 keeps tag 4", "040500000000000000", """["i64", "5"]""")
        val codec = StandardMessageCodec()
        t.equal("Int 5 -> int32", "0305000000", Hex.encode(codec.encodeMessage(5)))
        t.equal("Long 5 -> int64", "040500000000000000", Hex.encode(codec.encodeMessage(5L)))
        t.isTrue("tag 3 decodes to Int", codec.decodeMessage(Hex.decode("0305000000")) is Int)
        t.isTrue("tag 4 decodes to Long", codec.decodeMessage(Hex.decode("040500000000000000")) is Long)
        // Java's codec widens Byte/Short to int32 and Float to float64.
        t.equal("Short -> int32", "03feffffff", Hex.encode(codec.encodeMessage((-2).toShort())))
        t.equal("Float -> float64", "06" + zeros(7) + "000000000000f03f", Hex.encode(codec.encodeMessage(1.0f)))
        both(t, "float64 1.0", "06" + zeros(7) + "000000000000f03f", """["f64", "3ff0000000000000"]""")
    }

    private fun strings(t: Check) {
        // spec §5; literal vectors wire-format-notes §3.3.
        both(t, "empty string", "0700", """["str", ""]""")
        both(t, "hello world", "070b68656c6c6f20776f726c64", """["str", "hello world"]""")
        both(t, "BMP char", "070568e298ba77", """["str", "h\u263aw"]""")
        both(t, "astral char", "070668f09f988277", """["str", "h\ud83d\ude02w"]""")
        both(t, "embedded NUL (spec §5.2)", "0703610062", """["str", "a\u0000b"]""")
        both(t, "u8s", "0804ba5eba11", """["u8s", "ba5eba11"]""")
    }

    private fun sizes(t: Check) {
        // spec §2.2 boundaries; Dart's literal test (wire-format-notes §3.1).
        val cases = listOf(253 to "fd", 254 to "fefe00", 65535 to "feffff", 65536 to "ff00000100")
        for ((n, size) in cases) {
            both(t, "u8s of $n", "08$size${zeros(n)}", """["u8s", "${zeros(n)}"]""")
        }
        // Non-minimal forms: accepted in flutter mode, not_canonical at the escape (spec §2.2).
        decodes(t, "fe form of 2", "07fe02006162", """["str", "ab"]""")
        rejects(t, "fe form of 2", "07fe02006162", "not_canonical", 1, STRICT)
        decodes(t, "ff form of 2", "07ff020000006162", """["str", "ab"]""")
        rejects(t, "ff form of 2", "07ff020000006162", "not_canonical", 1, STRICT)
        decodes(t, "fe form of 253", "08fefd00" + zeros(253), """["u8s", "${zeros(253)}"]""", FLUTTER)
        rejects(t, "fe form of 253", "08fefd00" + zeros(253), "not_canonical", 1, STRICT)
        rejects(t, "ff form of 65535", "08ffffff0000" + zeros(65535), "not_canonical", 1, STRICT)
        decodes(t, "ff form of 65536 is minimal", "08ff00000100" + zeros(65536), """["u8s", "${zeros(65536)}"]""", STRICT)
        // A non-minimal size nested in a list: the offset is the escape byte's (spec §14.1).
        rejects(t, "nested fe form", "0c0200" + "07fe01007a", "not_canonical", 4, STRICT)
    }

    private fun largeSizes(t: Check) {
        // spec §15.2, §14.3: sizes are unsigned 32-bit and checked before allocation; Java
        // reads them as signed (wire-format-notes §8.10) — a map of 2^31 must not be empty.
        for ((tag, what) in listOf("07" to "string", "08" to "u8s", "0c" to "list", "0d" to "map", "05" to "largeint")) {
            for (size in listOf("ffffff7f", "00000080", "ffffffff", "01000080")) {
                rejects(t, "$what size $size", "${tag}ff$size", "truncated", 6)
            }
        }
        for (tag in listOf("09", "0a", "0b", "0e")) {
            rejects(t, "typed list $tag size 2^31", "${tag}ff00000080" + zeros(8), "truncated", 14)
            rejects(t, "typed list $tag size 2^32-1", "${tag}ffffffffff", "truncated", 6)
        }
        rejects(t, "map size 2^31 with one entry", "0dff00000080" + "0000", "truncated", 8)
        // A big declared size in a list of n elements needs n bytes, a map 2n (spec §14.3).
        rejects(t, "list of 3 with 2 bytes", "0c030000", "truncated", 4)
        rejects(t, "map of 2 with 3 bytes", "0d02000000", "truncated", 5)
    }

    private fun alignment(t: Check) {
        // spec §3: padding counts from the message start, not the value or the address.
        both(t, "[null, i32s [], 7]", "0c030009000000000307000000", """["list", [["null"], ["i32s", []], ["i32", 7]]]""")
        both(t, "i32s", "0903000078563412ffffffff00000000", """["i32s", [305419896, -1, 0]]""")
        both(t, "i64s", "0a02000000000000efcdab9078563412ffffffffffffffff", """["i64s", ["1311768467294899695", "-1"]]""")
        both(t, "f32s", "0e020000d80f494000007a44", """["f32s", ["40490fd8", "447a0000"]]""")
        both(t, "f64s empty", "0b00000000000000", """["f64s", []]""")
        both(t, "f32s empty", "0e000000", """["f32s", []]""")
        both(t, "list with unaligned f64", "0c0500070568656c6c6f0600000000001f85eb51b81e0940032f0000000c02032a00000007066e6573746564",
            """["list", [["null"], ["str", "hello"], ["f64", "40091eb851eb851f"], ["i32", 47], ["list", [["i32", 42], ["str", "nested"]]]]]""")
        // Method call and envelopes: the name's first byte / the flag count (spec §3.1).
        both(t, "call m(1.5)", "07016d0600000000000000000000f83f", """["call", "m", ["f64", "3ff8000000000000"]]""", "call")
        both(t, "success(1.0)", "0006000000000000000000000000f03f", """["success", ["f64", "3ff0000000000000"]]""", "envelope")
    }

    private fun padding(t: Check) {
        // spec §3.3: flutter ignores the content of padding, strict rejects non-zero bytes.
        val f64 = "0600ab0000000000" + "000000000000f03f"
        decodes(t, "f64 with non-zero padding", f64, """["f64", "3ff0000000000000"]""")
        rejects(t, "f64 with non-zero padding", f64, "not_canonical", 2, STRICT)
        val i32s = "0901ff0001000000"
        decodes(t, "i32s with non-zero padding", i32s, """["i32s", [1]]""")
        rejects(t, "i32s with non-zero padding", i32s, "not_canonical", 2, STRICT)
        decodes(t, "empty i64s with non-zero padding", "0a00000000000001", """["i64s", []]""")
        rejects(t, "empty i64s with non-zero padding", "0a00000000000001", "not_canonical", 7, STRICT)
        // Missing padding is truncation (spec §3.3), also for empty typed lists (C++ style).
        rejects(t, "f64 without padding", "06000000000000f03f", "truncated", 9)
        rejects(t, "empty i32s without padding", "0900", "truncated", 2)
        // C++ omits it: every reader then skips bytes of the next value (notes §2.4).
        rejects(t, "CPP-style [null, i32s [], 7]", "0c030009000307000000", "trailing_bytes", 9)
        rejects(t, "CPP-style [null, i32s [], 7]", "0c030009000307000000", "not_canonical", 5, STRICT)
    }

    private fun truncation(t: Check) {
        // spec §14.1: truncated at the input length; GLib's literal cases (notes §3.5).
        rejects(t, "empty message (spec §9.2)", "", "truncated", 0)
        for (hex in listOf("03", "0367", "03674523", "04", "04efcdab89674523", "060000000000000000",
            "07", "0705", "070568656c6c", "08", "0805", "09", "09050000", "0905000000",
            "0a05000000000000", "0e050000", "0b0500000000000000", "0c", "0c07", "0c0700", "0d", "0d07", "0d0707",
            "07fe", "07fe05", "07ff050000", "0c02000c01")) {
            rejects(t, "truncated $hex", hex, "truncated", hex.length / 2)
        }
    }

    private fun tags(t: Check) {
        // spec §14.1 unknown_tag at the tag byte.
        rejects(t, "tag 0f", "0f", "unknown_tag", 0)
        rejects(t, "tag 7f in a list", "0c02000f", "unknown_tag", 3)
        // spec §4.4: largeInt decodes in flutter mode, is an unknown tag in strict mode.
        decodes(t, "largeint", "05022d31", """["largeint", "-1"]""")
        rejects(t, "largeint in strict mode", "05022d31", "unknown_tag", 0, STRICT)
        val big = StandardMessageCodec().decodeMessage(Hex.decode("05022d31"))
        t.equal("largeint BigInteger", BigInteger.valueOf(-1), (big as LargeInt).value)
        val notHex = StandardMessageCodec().decodeMessage(Hex.decode("05027a7a")) as LargeInt
        t.isTrue("largeint text kept when not hex", notHex.text == "zz" && notHex.value == null)
        // spec §8.1: without an extension, custom tags are unknown; with one, a nested value.
        val plain = StandardMessageCodec()
        try {
            plain.decodeMessage(Hex.decode("8100"))
            t.fail("base codec custom tag", "decoded")
        } catch (e: SmcException) {
            t.equal("base codec custom tag", "error unknown_tag @0", Cases.errorText(e))
        }
        both(t, "custom 129 int64", "81040100000000000000", """["custom", 129, ["i64", "1"]]""")
        both(t, "custom 255 overflow wrapper", "ff0c02040000000000000000040200000000000000",
            """["custom", 255, ["list", [["i64", "0"], ["i64", "2"]]]]""")
        rejects(t, "custom tag with no payload", "0c0180", "truncated", 3)
    }

    private fun utf8(t: Check) {
        // spec §5.3 / RFC 3629: the first byte of the first ill-formed subsequence.
        val bad = listOf(
            "0702c328" to 2, // c3 followed by a non-continuation
            "0703eda080" to 2, // encoded surrogate U+D800
            "0702c0af" to 2, // overlong '/'
            "0703e08080" to 2, // overlong NUL
            "0704f4908080" to 2, // above U+10FFFF
            "0701ff" to 2,
            "070361e282" to 3, // cut-off sequence at the end of the string
            "07026180" to 3, // stray continuation
            "07056162c3a9f8" to 6
        )
        for ((hex, offset) in bad) {
            rejects(t, "bad utf8 $hex", hex, "bad_utf8", offset)
            rejects(t, "bad utf8 $hex", hex, "bad_utf8", offset, STRICT)
        }
        rejects(t, "bad utf8 in largeint", "05023180", "bad_utf8", 3)
        rejects(t, "bad utf8 in method name", "0702c328" + "00", "bad_utf8", 2, FLUTTER, "call")
        both(t, "max code point", "0704f48fbfbf", """["str", "\udbff\udfff"]""")
        both(t, "U+FFFD", "0703efbfbd", """["str", "\ufffd"]""")
    }

    private fun depth(t: Check) {
        // spec §15.1: 128 levels accepted, the 129th container's tag is depth_limit.
        val ok = "0c01".repeat(127) + "0c00"
        t.isTrue("128 nested lists decode", Cases.decode(ok).startsWith("[\"list\""), Cases.decode(ok).take(80))
        val tooDeep = "0c01".repeat(128) + "0c00"
        rejects(t, "129 nested lists", tooDeep, "depth_limit", 256)
        // No recursion past the limit: a very deep input fails fast with the same error.
        rejects(t, "100000 nested lists", "0c01".repeat(100000) + "00", "depth_limit", 256)
        // Maps and custom values count as levels too.
        val mixed = "0d01000c01".repeat(64) + "8100"
        rejects(t, "129 levels of map/list/custom", mixed, "depth_limit", 5 * 64)
        val shallow = CustomValueCodec(maxDepth = 2)
        try {
            shallow.decodeMessage(Hex.decode("0c010c010c00"))
            t.fail("maxDepth 2", "decoded")
        } catch (e: SmcException) {
            t.equal("maxDepth 2", "error depth_limit @4", Cases.errorText(e))
        }
        // An error inside a container leaves the depth counter irrelevant: a fresh reader per call.
        t.equal("depth limit does not leak across calls", Cases.canon("""["list", []]"""), Cases.decode("0c00"))
    }

    private fun envelopes(t: Check) {
        // spec §10, §11; GLib literal vectors (wire-format-notes §3.5).
        both(t, "call hello(null)", "070568656c6c6f00", """["call", "hello", ["null"]]""", "call")
        both(t, "call hello([count, 42])", "070568656c6c6f0c020705636f756e74032a000000",
            """["call", "hello", ["list", [["str", "count"], ["i32", 42]]]]""", "call")
        rejects(t, "call: empty", "", "truncated", 0, FLUTTER, "call")
        rejects(t, "call: name not a string", "000000", "bad_envelope", 0, FLUTTER, "call")
        rejects(t, "call: name tag 0f", "0f00", "bad_envelope", 0, FLUTTER, "call")
        rejects(t, "call: no arguments", "070568656c6c6f", "truncated", 7, FLUTTER, "call")
        rejects(t, "call: trailing", "070161000000", "trailing_bytes", 4, FLUTTER, "call")
        both(t, "success null", "0000", """["success", ["null"]]""", "envelope")
        both(t, "error(\"\", null, null)", "0107000000", """["error", "", null, ["null"]]""", "envelope")
        both(t, "error message \"\"", "010700070000", """["error", "", "", ["null"]]""", "envelope")
        both(t, "error with details", "0107056572726f7207076d6573736167650c020705636f756e74032a000000",
            """["error", "error", "message", ["list", [["str", "count"], ["i32", 42]]]]""", "envelope")
        both(t, "error with stacktrace", "0107056572726f720704626f6f6d0007027374",
            """["error", "error", "boom", ["null"], "st"]""", "envelope")
        both(t, "error with null stacktrace", "010700000000", """["error", "", null, ["null"], null]""", "envelope")
        rejects(t, "envelope: empty", "", "truncated", 0, FLUTTER, "envelope")
        rejects(t, "envelope: flag 02", "0200", "bad_envelope", 0, FLUTTER, "envelope")
        rejects(t, "envelope: flag ff", "ff", "bad_envelope", 0, FLUTTER, "envelope")
        rejects(t, "envelope: code tag 03", "01032a000000", "bad_envelope", 1, FLUTTER, "envelope")
        rejects(t, "envelope: message tag 03", "010700032a00000000", "bad_envelope", 3, FLUTTER, "envelope")
        rejects(t, "envelope: stacktrace tag 01", "010700000001", "bad_envelope", 5, FLUTTER, "envelope")
        rejects(t, "envelope: after stacktrace", "0107000000000000", "trailing_bytes", 6, FLUTTER, "envelope")
        rejects(t, "envelope: success trailing", "000000", "trailing_bytes", 2, FLUTTER, "envelope")
        rejects(t, "envelope: error without code", "01", "truncated", 1, FLUTTER, "envelope")
        rejects(t, "envelope: error without details", "0107056572726f7200", "truncated", 9, FLUTTER, "envelope")
        rejects(t, "envelope: code with bad tag checked before unknown tag", "010f", "bad_envelope", 1, FLUTTER, "envelope")
        rejects(t, "message: trailing bytes", "0000", "trailing_bytes", 1)
        val method = StandardMethodCodec(StandardMessageCodec())
        val e = method.decodeEnvelope(Hex.decode("010700070000")) as ErrorEnvelope
        t.isTrue("message \"\" is not null", e.message == "" && !e.hasStacktrace)
    }

    private fun encoderErrors(t: Check) {
        val codec = CustomValueCodec()
        val cases = listOf<Pair<String, Any?>>(
            "largeint" to LargeInt("ff"),
            "BigInteger" to BigInteger.TEN,
            "custom tag 300" to CustomValue(300, null),
            "custom tag 127" to CustomValue(127, null),
            "lone surrogate" to String(charArrayOf('a', '\ud800')),
            "arbitrary object" to Any(),
            "nested unsupported" to listOf(1, setOf(2))
        )
        for ((name, value) in cases) {
            try {
                codec.encodeMessage(value)
                t.fail("encode $name", "encoded")
            } catch (e: SmcException) {
                t.equal("encode $name", "not_encodable", e.errorClass)
            }
        }
        t.equal("encode largeint notation", "error not_encodable @-1", Cases.encode("""["largeint", "ff"]"""))
        t.equal("bad notation i32 1.0", "error bad_notation @-1", Cases.encode("""["i32", 1.0]"""))
        t.equal("bad notation upper-case hex", "error bad_notation @-1", Cases.encode("""["f64", "3FF0000000000000"]"""))
        t.equal("bad notation i64 -0", "error bad_notation @-1", Cases.encode("""["i64", "-0"]"""))
        t.equal("bad notation lone surrogate", "error bad_notation @-1", Cases.encode("""["str", "\ud800"]"""))
        t.equal("bad notation custom 127", "error bad_notation @-1", Cases.encode("""["custom", 127, ["null"]]"""))
        t.equal("bad notation extra element", "error bad_notation @-1", Cases.encode("""["null", 1]"""))
        t.equal("bad notation i32 out of range", "error bad_notation @-1", Cases.encode("""["i32", 2147483648]"""))
    }

    private fun floats(t: Check) {
        // spec §4.3: bits preserved, NaN payloads included (Java's own codec canonicalises).
        for (bits in listOf("7ff0000000000001", "fff8000000000001", "7ff4000000000000", "8000000000000000", "fff0000000000000")) {
            val hex = "06" + zeros(7) + Hex.encode(Hex.decode(bits).reversedArray())
            both(t, "f64 $bits", hex, """["f64", "$bits"]""")
        }
        for (bits in listOf("7f800001", "ff800001", "7fa00000", "80000000")) {
            val hex = "0e010000" + Hex.encode(Hex.decode(bits).reversedArray())
            both(t, "f32s $bits", hex, """["f32s", ["$bits"]]""")
        }
        both(t, "f64s NaN payload", "0b01000000000000" + "0100000000f0ff7f", """["f64s", ["7ffff00000000001"]]""")
    }

    private fun maps(t: Check) {
        // spec §7.2, §7.3: wire order and duplicates survive in MapPairs.
        val dup = "0d0207016103010000000701610302000000"
        both(t, "duplicate keys kept", dup, """["map", [[["str", "a"], ["i32", 1]], [["str", "a"], ["i32", 2]]]]""")
        val pairs = StandardMessageCodec().decodeMessage(Hex.decode(dup)) as MapPairs
        t.equal("duplicate keys: LinkedHashMap view keeps last", 2, pairs.toLinkedHashMap()["a"])
        val hashed = StandardMessageCodec(mapStyle = MapStyle.LINKED_HASH_MAP).decodeMessage(Hex.decode(dup)) as Map<*, *>
        t.isTrue("LINKED_HASH_MAP style: last value wins", hashed.size == 1 && hashed["a"] == 2)
        both(t, "map with odd keys", "0d03000c00010d000200",
            """["map", [[["null"], ["list", []]], [["bool", true], ["map", []]], [["bool", false], ["null"]]]]""")
        val ordered = LinkedHashMap<Any?, Any?>()
        ordered["b"] = 1
        ordered["a"] = 2L
        t.equal("LinkedHashMap encodes in iteration order", "0d020701620301000000070161040200000000000000",
            Hex.encode(StandardMessageCodec().encodeMessage(ordered)))
    }
}
