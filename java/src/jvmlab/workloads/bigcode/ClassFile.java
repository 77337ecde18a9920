package jvmlab.workloads.bigcode;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * A minimal class-file writer (JVMS chapter 4): a constant pool of the entries bigcode needs (UTF-8, Integer,
 * Class, NameAndType, Methodref), methods with a Code attribute, and nothing else. The version is 49 (Java
 * 5), whose methods need no StackMapTable: the JVM verifies them by type inference, on JDK 8 to 25 alike.
 */
final class ClassFile {
    static final int VERSION = 49;
    static final int ACC_PUBLIC = 0x0001;
    static final int ACC_STATIC = 0x0008;
    static final int ACC_FINAL = 0x0010;
    static final int ACC_SUPER = 0x0020;

    private final Bytes pool = new Bytes();
    private final Map<String, Integer> entries = new HashMap<String, Integer>();
    private int poolCount = 1;
    private final Bytes methods = new Bytes();
    private int methodCount;
    private final String name;
    private final String superName;
    private final String[] interfaces;

    ClassFile(String name, String superName, String... interfaces) {
        this.name = name;
        this.superName = superName;
        this.interfaces = interfaces;
    }

    String name() {
        return name;
    }

    int utf8(String s) {
        Integer known = entries.get("U" + s);
        if (known != null) {
            return known;
        }
        pool.u1(1).utf(s);
        return add("U" + s);
    }

    int integer(int value) {
        Integer known = entries.get("I" + value);
        if (known != null) {
            return known;
        }
        pool.u1(3).u4(value);
        return add("I" + value);
    }

    int classRef(String internalName) {
        Integer known = entries.get("C" + internalName);
        if (known != null) {
            return known;
        }
        int n = utf8(internalName);
        pool.u1(7).u2(n);
        return add("C" + internalName);
    }

    int methodRef(String owner, String method, String descriptor) {
        String key = "M" + owner + '.' + method + descriptor;
        Integer known = entries.get(key);
        if (known != null) {
            return known;
        }
        int c = classRef(owner);
        int nt = nameAndType(method, descriptor);
        pool.u1(10).u2(c).u2(nt);
        return add(key);
    }

    private int nameAndType(String method, String descriptor) {
        String key = "N" + method + ' ' + descriptor;
        Integer known = entries.get(key);
        if (known != null) {
            return known;
        }
        int n = utf8(method);
        int d = utf8(descriptor);
        pool.u1(12).u2(n).u2(d);
        return add(key);
    }

    private int add(String key) {
        if (poolCount >= 0xFFFF) {
            throw new IllegalStateException(name + ": more than 65534 constants; use smaller --methods or --method-size");
        }
        entries.put(key, poolCount);
        return poolCount++;
    }

    /** A method with its code ({@link Code#bytes()}), stack and locals sizes. */
    void method(int access, String method, String descriptor, Code code) {
        int nameIndex = utf8(method);
        int descriptorIndex = utf8(descriptor);
        int codeIndex = utf8("Code");
        byte[] body = code.bytes();
        if (body.length >= 65536) {
            throw new IllegalStateException(name + "." + method + ": " + body.length + " bytes of code, over 65535");
        }
        methods.u2(access).u2(nameIndex).u2(descriptorIndex).u2(1);
        methods.u2(codeIndex).u4(12 + body.length);
        methods.u2(code.maxStack).u2(code.maxLocals).u4(body.length).raw(body);
        methods.u2(0).u2(0); // no exception table, no attributes
        methodCount++;
    }

    byte[] bytes() {
        int thisIndex = classRef(name);
        int superIndex = classRef(superName);
        int[] interfaceIndexes = new int[interfaces.length];
        for (int i = 0; i < interfaces.length; i++) {
            interfaceIndexes[i] = classRef(interfaces[i]);
        }
        Bytes out = new Bytes();
        out.u4(0xCAFEBABE).u2(0).u2(VERSION).u2(poolCount).raw(pool.toByteArray());
        out.u2(ACC_PUBLIC | ACC_FINAL | ACC_SUPER).u2(thisIndex).u2(superIndex).u2(interfaces.length);
        for (int index : interfaceIndexes) {
            out.u2(index);
        }
        out.u2(0); // no fields
        out.u2(methodCount).raw(methods.toByteArray());
        out.u2(0); // no attributes
        return out.toByteArray();
    }

    /** The code of one method: instructions as bytes, with the helpers bigcode's generator uses. */
    static final class Code {
        final Bytes code = new Bytes();
        int maxStack;
        int maxLocals;

        Code(int maxStack, int maxLocals) {
            this.maxStack = maxStack;
            this.maxLocals = maxLocals;
        }

        int position() {
            return code.size();
        }

        Code op(int... opcodes) {
            for (int op : opcodes) {
                code.u1(op);
            }
            return this;
        }

        Code u2(int value) {
            code.u2(value);
            return this;
        }

        Code u4(int value) {
            code.u4(value);
            return this;
        }

        /** A branch (goto, if_icmpge, ...) to {@code target}, a position already known. */
        Code branch(int opcode, int target) {
            int at = position();
            return op(opcode).u2(target - at);
        }

        /** A forward branch: returns where its offset goes, for {@link #patch}. */
        int forward(int opcode) {
            int at = position();
            op(opcode).u2(0);
            return at;
        }

        /** Points the forward branch at {@code at} to the current position. */
        void patch(int at) {
            code.set2(at + 1, position() - at);
        }

        byte[] bytes() {
            return code.toByteArray();
        }
    }

    /** A growable big-endian byte buffer. */
    static final class Bytes extends ByteArrayOutputStream {
        Bytes u1(int v) {
            write(v);
            return this;
        }

        Bytes u2(int v) {
            write(v >>> 8);
            write(v);
            return this;
        }

        Bytes u4(int v) {
            return u2(v >>> 16).u2(v & 0xFFFF);
        }

        Bytes raw(byte[] b) {
            write(b, 0, b.length);
            return this;
        }

        /** Modified UTF-8 (JVMS 4.4.7); bigcode's names are ASCII. */
        Bytes utf(String s) {
            u2(s.length());
            for (int i = 0; i < s.length(); i++) {
                write(s.charAt(i));
            }
            return this;
        }

        void set2(int at, int v) {
            buf[at] = (byte) (v >>> 8);
            buf[at + 1] = (byte) v;
        }
    }
}
