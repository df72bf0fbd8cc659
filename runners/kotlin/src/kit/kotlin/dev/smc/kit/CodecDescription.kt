package dev.smc.kit

/**
 * What a codec declares in the hello (runners/PROTOCOL.md P.1), built step by step so Java and
 * Kotlin write it the same way:
 *
 *     new CodecDescription("my-codec", "1.0", "Java")
 *         .decodes("int32", "int64", "int64-distinct", "float64")
 *         .encodes("int32", "int64", "int64-distinct", "float64")
 *         .options("shift");
 *
 * Feature words are those of spec/vectors.md V.3: declare what the codec and its host can
 * express; every vector is sent anyway (P.5). Option words: error-classes, error-offsets,
 * shift, borrows-input, pigeon-int64. Entry points: [entries].
 */
class CodecDescription(val name: String, val version: String, val language: String) {
    val decodeCapabilities = ArrayList<String>()
    val encodeCapabilities = ArrayList<String>()
    val options = LinkedHashSet<String>()
    val entries = arrayListOf("message")

    fun decodes(vararg words: String): CodecDescription = apply { decodeCapabilities.addAll(words) }

    fun encodes(vararg words: String): CodecDescription = apply { encodeCapabilities.addAll(words) }

    /**
     * The entry points judged: "message" (the default), "call", "envelope"; the last two
     * need a [MethodCodecUnderTest].
     */
    fun entries(vararg names: String): CodecDescription = apply {
        for (name in names) require(name in ENTRY_NAMES) { "unknown entry \"$name\" (known: ${ENTRY_NAMES.joinToString()})" }
        entries.clear()
        entries.addAll(names)
    }

    /** Throws IllegalArgumentException for a word the kit does not know (a typo never turns a check off). */
    fun options(vararg words: String): CodecDescription = apply {
        for (word in words) {
            require(word in OPTION_WORDS) { "unknown option \"$word\" (known: ${OPTION_WORDS.joinToString()})" }
            options.add(word)
        }
    }

    companion object {

        val ENTRY_NAMES = listOf("message", "call", "envelope")
        val OPTION_WORDS = listOf("error-classes", "error-offsets", "shift", "borrows-input", "pigeon-int64")
    }
}
