import dev.smc.kit.CodecDescription;
import dev.smc.kit.CodecUnderTest;
import dev.smc.kit.Kit;
import dev.smc.kit.Rejection;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * The runner for FlutterShapedCodec: the whole of what a codec author writes to be judged
 * through the JVM kit (README.md, "Judge your codec in 15 minutes").
 */
public final class MyRunner implements CodecUnderTest {
    private final FlutterShapedCodec codec = FlutterShapedCodec.INSTANCE;

    @Override
    public CodecDescription describe() {
        // What the codec and its host express (PROTOCOL.md P.7, Android's family): a HashMap
        // loses the wire order when decoding, a LinkedHashMap keeps it when encoding; no
        // error classes, no custom types, no largeInt, no strict mode.
        return new CodecDescription("flutter-shaped-java-example", "1.0.0", "Java")
                .decodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists",
                        "nan-payload", "embedded-nul", "depth-limit")
                .encodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists",
                        "nan-payload", "embedded-nul", "map-order", "depth-limit")
                .options("shift");
    }

    @Override
    public Object decodeMessage(ByteBuffer input, boolean strict) {
        return codec.decodeMessage(input);
    }

    @Override
    public byte[] encodeMessage(Object value) {
        ByteBuffer message = codec.encodeMessage(value);
        if (message == null) {
            return null; // no message at all (Android's codec, for a null value)
        }
        byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        return bytes;
    }

    @Override
    public Rejection rejection(Throwable error) {
        // The codec's documented rejections. NumberFormatException is an IllegalArgumentException
        // but not one the codec documents (tag 5 with non-hex text): the kit answers it, like any
        // other Exception, as an unclassified rejection, and an Error (StackOverflowError) as a
        // crash, as Android's dispatcher treats them (runners/PROTOCOL.md P.3).
        if ((error instanceof IllegalArgumentException && !(error instanceof NumberFormatException))
                || error instanceof BufferUnderflowException) {
            return new Rejection();
        }
        return null;
    }

    public static void main(String[] args) {
        Kit.serve(new MyRunner());
    }
}
