import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A small message codec with the API shape of Flutter's Android StandardMessageCodec
 * (encodeMessage / decodeMessage, and writeValue / readValueOfType hooks for subclasses),
 * written from this repository's spec for the JVM kit's example (README.md). Host types: null,
 * Boolean, Integer (int32), Long (int64), Double, String, byte[], int[], long[], double[],
 * float[], List, Map; decoded maps are HashMaps, as Android's are.
 *
 * Decoded maps merge NaN keys of different payloads, since Double.equals compares
 * doubleToLongBits (spec §7.3 keeps them apart): its runner lists those two vectors as
 * expected failures (my-xfail.txt).
 *
 * Malformed input is rejected with IllegalArgumentException("Message corrupted"), or
 * BufferUnderflowException when it ends early; an unsupported value with
 * IllegalArgumentException. Unlike Android's codec it rejects invalid UTF-8 and nesting deeper
 * than 128 (spec §5.2, §15.1) instead of replacing characters or running out of stack.
 */
public class FlutterShapedCodec {
    public static final FlutterShapedCodec INSTANCE = new FlutterShapedCodec();

    /** Containers nested deeper are rejected (spec R15.1-3). */
    public static final int MAX_DEPTH = 128;

    private static final byte NULL = 0, TRUE = 1, FALSE = 2, INT = 3, LONG = 4, DOUBLE = 6,
            STRING = 7, BYTE_ARRAY = 8, INT_ARRAY = 9, LONG_ARRAY = 10, DOUBLE_ARRAY = 11,
            LIST = 12, MAP = 13, FLOAT_ARRAY = 14;

    private int depth;

    /**
     * The message for a value. A null value is the message 00 (spec §9.3); Android's codec
     * returns no message at all for it (divergence D24).
     */
    public ByteBuffer encodeMessage(Object message) {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        depth = 0;
        writeValue(stream, message);
        return ByteBuffer.wrap(stream.toByteArray());
    }

    /** The value of a message from its position to its limit; null for no message. */
    public Object decodeMessage(ByteBuffer message) {
        if (message == null) {
            return null;
        }
        message.order(ByteOrder.LITTLE_ENDIAN);
        depth = 0;
        Object value = readValue(message);
        if (message.hasRemaining()) {
            throw new IllegalArgumentException("Message corrupted");
        }
        return value;
    }

    /** Writes one value: its tag, then its payload. Override to add custom types (tag >= 128). */
    protected void writeValue(ByteArrayOutputStream stream, Object value) {
        if (value == null) {
            stream.write(NULL);
        } else if (value instanceof Boolean) {
            stream.write((Boolean) value ? TRUE : FALSE);
        } else if (value instanceof Integer) {
            stream.write(INT);
            writeInt(stream, (Integer) value);
        } else if (value instanceof Long) {
            stream.write(LONG);
            writeLong(stream, (Long) value);
        } else if (value instanceof Double) {
            stream.write(DOUBLE);
            writeAlignment(stream, 8);
            writeLong(stream, Double.doubleToRawLongBits((Double) value));
        } else if (value instanceof String) {
            stream.write(STRING);
            writeBytes(stream, utf8((String) value));
        } else if (value instanceof byte[]) {
            stream.write(BYTE_ARRAY);
            writeBytes(stream, (byte[]) value);
        } else if (value instanceof int[]) {
            int[] array = (int[]) value;
            stream.write(INT_ARRAY);
            writeSize(stream, array.length);
            writeAlignment(stream, 4);
            for (int n : array) {
                writeInt(stream, n);
            }
        } else if (value instanceof long[]) {
            long[] array = (long[]) value;
            stream.write(LONG_ARRAY);
            writeSize(stream, array.length);
            writeAlignment(stream, 8);
            for (long n : array) {
                writeLong(stream, n);
            }
        } else if (value instanceof double[]) {
            double[] array = (double[]) value;
            stream.write(DOUBLE_ARRAY);
            writeSize(stream, array.length);
            writeAlignment(stream, 8);
            for (double d : array) {
                writeLong(stream, Double.doubleToRawLongBits(d));
            }
        } else if (value instanceof float[]) {
            float[] array = (float[]) value;
            stream.write(FLOAT_ARRAY);
            writeSize(stream, array.length);
            writeAlignment(stream, 4);
            for (float f : array) {
                writeInt(stream, Float.floatToRawIntBits(f));
            }
        } else if (value instanceof List) {
            List<?> list = (List<?>) value;
            stream.write(LIST);
            writeSize(stream, list.size());
            enter();
            for (Object item : list) {
                writeValue(stream, item);
            }
            depth--;
        } else if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            stream.write(MAP);
            writeSize(stream, map.size());
            enter();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                writeValue(stream, entry.getKey());
                writeValue(stream, entry.getValue());
            }
            depth--;
        } else {
            throw new IllegalArgumentException("Unsupported value: " + value.getClass().getName());
        }
    }

    /** Reads one value: its tag, then {@link #readValueOfType}. */
    protected final Object readValue(ByteBuffer buffer) {
        return readValueOfType(buffer.get(), buffer);
    }

    /** Reads the payload of a value of tag `type`. Override to add custom types (tag >= 128). */
    protected Object readValueOfType(byte type, ByteBuffer buffer) {
        switch (type) {
            case NULL:
                return null;
            case TRUE:
                return true;
            case FALSE:
                return false;
            case INT:
                return buffer.getInt();
            case LONG:
                return buffer.getLong();
            case DOUBLE:
                readAlignment(buffer, 8);
                return buffer.getDouble();
            case STRING:
                return fromUtf8(readBytes(buffer));
            case BYTE_ARRAY:
                return readBytes(buffer);
            case INT_ARRAY: {
                int[] array = new int[readCount(buffer, 4)];
                readAlignment(buffer, 4);
                buffer.asIntBuffer().get(array);
                buffer.position(buffer.position() + 4 * array.length);
                return array;
            }
            case LONG_ARRAY: {
                long[] array = new long[readCount(buffer, 8)];
                readAlignment(buffer, 8);
                buffer.asLongBuffer().get(array);
                buffer.position(buffer.position() + 8 * array.length);
                return array;
            }
            case DOUBLE_ARRAY: {
                double[] array = new double[readCount(buffer, 8)];
                readAlignment(buffer, 8);
                buffer.asDoubleBuffer().get(array);
                buffer.position(buffer.position() + 8 * array.length);
                return array;
            }
            case FLOAT_ARRAY: {
                float[] array = new float[readCount(buffer, 4)];
                readAlignment(buffer, 4);
                buffer.asFloatBuffer().get(array);
                buffer.position(buffer.position() + 4 * array.length);
                return array;
            }
            case LIST: {
                int count = readCount(buffer, 1);
                enter();
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    list.add(readValue(buffer));
                }
                depth--;
                return list;
            }
            case MAP: {
                int count = readCount(buffer, 2);
                enter();
                Map<Object, Object> map = new HashMap<>();
                for (int i = 0; i < count; i++) {
                    Object key = readValue(buffer);
                    map.put(key, readValue(buffer));
                }
                depth--;
                return map;
            }
            default:
                throw new IllegalArgumentException("Message corrupted");
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw new IllegalArgumentException("Message corrupted: nested deeper than " + MAX_DEPTH);
        }
    }

    // ---- sizes, numbers and padding (spec §2, §3) ----

    protected static void writeSize(ByteArrayOutputStream stream, int size) {
        if (size < 254) {
            stream.write(size);
        } else if (size <= 0xffff) {
            stream.write(254);
            stream.write(size);
            stream.write(size >>> 8);
        } else {
            stream.write(255);
            writeInt(stream, size);
        }
    }

    protected static void writeInt(ByteArrayOutputStream stream, int value) {
        for (int shift = 0; shift < 32; shift += 8) {
            stream.write(value >>> shift);
        }
    }

    protected static void writeLong(ByteArrayOutputStream stream, long value) {
        for (int shift = 0; shift < 64; shift += 8) {
            stream.write((int) (value >>> shift));
        }
    }

    protected static void writeBytes(ByteArrayOutputStream stream, byte[] bytes) {
        writeSize(stream, bytes.length);
        stream.write(bytes, 0, bytes.length);
    }

    /** Zero bytes up to a multiple of `alignment`, counted from the message's first byte. */
    protected static void writeAlignment(ByteArrayOutputStream stream, int alignment) {
        while (stream.size() % alignment != 0) {
            stream.write(0);
        }
    }

    /** A size; 0..2^32-1, so the 5-byte form may exceed an int. */
    protected static long readSize(ByteBuffer buffer) {
        int b = buffer.get() & 0xff;
        if (b < 254) {
            return b;
        }
        if (b == 254) {
            return buffer.getShort() & 0xffff;
        }
        return buffer.getInt() & 0xffffffffL;
    }

    /** A size that at least `minBytes` bytes each must follow: checked before allocating. */
    private static int readCount(ByteBuffer buffer, int minBytes) {
        long count = readSize(buffer);
        if (count * minBytes > buffer.remaining()) {
            throw new BufferUnderflowException();
        }
        return (int) count;
    }

    protected static byte[] readBytes(ByteBuffer buffer) {
        byte[] bytes = new byte[readCount(buffer, 1)];
        buffer.get(bytes);
        return bytes;
    }

    /** Skips padding to a multiple of `alignment`, counted from the buffer's position 0. */
    protected static void readAlignment(ByteBuffer buffer, int alignment) {
        int pad = (alignment - buffer.position() % alignment) % alignment;
        if (pad > buffer.remaining()) {
            throw new BufferUnderflowException();
        }
        buffer.position(buffer.position() + pad);
    }

    private static byte[] utf8(String s) {
        try {
            ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(s));
            byte[] out = new byte[bytes.remaining()];
            bytes.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("Unsupported value: a string that is not Unicode text", e);
        }
    }

    private static String fromUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("Message corrupted: invalid UTF-8", e);
        }
    }
}
