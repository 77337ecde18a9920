package jvmlab.workloads.chunkgen;

import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Named Binary Tag, the saved format of chunks: a tree of typed tags written big-endian, names and strings
 * in modified UTF-8 ({@link DataOutput#writeUTF}). Built as objects, then written, as game servers do.
 */
final class Nbt {
    static final byte END = 0;
    static final byte BYTE = 1;
    static final byte INT = 3;
    static final byte LONG = 4;
    static final byte BYTE_ARRAY = 7;
    static final byte STRING = 8;
    static final byte LIST = 9;
    static final byte COMPOUND = 10;
    static final byte INT_ARRAY = 11;
    static final byte LONG_ARRAY = 12;

    private Nbt() {
    }

    abstract static class Tag {
        abstract byte type();

        abstract void write(DataOutput out) throws IOException;
    }

    static final class Compound extends Tag {
        private final Map<String, Tag> entries = new LinkedHashMap<String, Tag>();

        Compound put(String name, Tag tag) {
            entries.put(name, tag);
            return this;
        }

        Compound putByte(String name, int value) {
            return put(name, new Scalar(BYTE, value));
        }

        Compound putInt(String name, int value) {
            return put(name, new Scalar(INT, value));
        }

        Compound putLong(String name, long value) {
            return put(name, new Scalar(LONG, value));
        }

        Compound putString(String name, String value) {
            return put(name, new Text(value));
        }

        @Override
        byte type() {
            return COMPOUND;
        }

        @Override
        void write(DataOutput out) throws IOException {
            for (Map.Entry<String, Tag> e : entries.entrySet()) {
                out.writeByte(e.getValue().type());
                out.writeUTF(e.getKey());
                e.getValue().write(out);
            }
            out.writeByte(END);
        }

        /** As the root of a file: a compound with an empty name. */
        void writeRoot(DataOutput out) throws IOException {
            out.writeByte(COMPOUND);
            out.writeUTF("");
            write(out);
        }
    }

    static final class ListTag extends Tag {
        private final byte elementType;
        private final List<Tag> items = new ArrayList<Tag>();

        ListTag(byte elementType) {
            this.elementType = elementType;
        }

        ListTag add(Tag tag) {
            if (tag.type() != elementType) {
                throw new IllegalArgumentException("list of type " + elementType + " given a tag of type " + tag.type());
            }
            items.add(tag);
            return this;
        }

        @Override
        byte type() {
            return LIST;
        }

        @Override
        void write(DataOutput out) throws IOException {
            out.writeByte(items.isEmpty() ? END : elementType);
            out.writeInt(items.size());
            for (Tag t : items) {
                t.write(out);
            }
        }
    }

    static final class Scalar extends Tag {
        private final byte type;
        private final long value;

        Scalar(byte type, long value) {
            this.type = type;
            this.value = value;
        }

        @Override
        byte type() {
            return type;
        }

        @Override
        void write(DataOutput out) throws IOException {
            switch (type) {
                case BYTE: out.writeByte((int) value); break;
                case INT: out.writeInt((int) value); break;
                case LONG: out.writeLong(value); break;
                default: throw new IllegalStateException("not a scalar tag type: " + type);
            }
        }
    }

    static final class Text extends Tag {
        private final String value;

        Text(String value) {
            this.value = value;
        }

        @Override
        byte type() {
            return STRING;
        }

        @Override
        void write(DataOutput out) throws IOException {
            out.writeUTF(value);
        }
    }

    static final class ByteArray extends Tag {
        private final byte[] value;

        ByteArray(byte[] value) {
            this.value = value;
        }

        @Override
        byte type() {
            return BYTE_ARRAY;
        }

        @Override
        void write(DataOutput out) throws IOException {
            out.writeInt(value.length);
            out.write(value);
        }
    }

    static final class IntArray extends Tag {
        private final int[] value;

        IntArray(int[] value) {
            this.value = value;
        }

        @Override
        byte type() {
            return INT_ARRAY;
        }

        @Override
        void write(DataOutput out) throws IOException {
            out.writeInt(value.length);
            for (int v : value) {
                out.writeInt(v);
            }
        }
    }

    static final class LongArray extends Tag {
        private final long[] value;

        LongArray(long[] value) {
            this.value = value;
        }

        @Override
        byte type() {
            return LONG_ARRAY;
        }

        @Override
        void write(DataOutput out) throws IOException {
            out.writeInt(value.length);
            for (long v : value) {
                out.writeLong(v);
            }
        }
    }
}
