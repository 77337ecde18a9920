package jvmlab.workloads.bigcode;

import java.util.Random;

/**
 * The generated code: class {@code G<i>} of {@code --classes} has {@code --methods} static methods
 * {@code int m<k>(int[] data, int x)} and the {@link Kernel} dispatcher. Each method loops over the data
 * array; its body is {@code --method-size} blocks of integer arithmetic (multiply-add, xor-shift, rotate,
 * add-xor, and every fifth block or so a call to the class's small helper {@code h(int)}, which the JIT
 * inlines), chosen and given constants from a generator seeded with {@code --seed} and the class number. The
 * loop writes the running value back into the array; after it, every even method calls the next odd method
 * of another class (a call the JIT compiles but does not inline: the callee is too big), so the code that is
 * hot is about one and a half times the methods the driver calls. The same seed and sizes give the same
 * bytes.
 */
final class Generator {
    static final String PACKAGE = "jvmlab/workloads/bigcode/gen/";
    static final String KERNEL = "jvmlab/workloads/bigcode/Kernel";
    static final String METHOD = "([II)I";

    // opcodes (JVMS 6.5)
    private static final int ICONST_0 = 0x03;
    private static final int BIPUSH = 0x10;
    private static final int LDC_W = 0x13;
    private static final int ILOAD = 0x15;
    private static final int ILOAD_0 = 0x1a;
    private static final int ILOAD_1 = 0x1b;
    private static final int ILOAD_2 = 0x1c;
    private static final int ILOAD_3 = 0x1d;
    private static final int ALOAD_0 = 0x2a;
    private static final int ALOAD_2 = 0x2c;
    private static final int IALOAD = 0x2e;
    private static final int ISTORE = 0x36;
    private static final int ISTORE_2 = 0x3d;
    private static final int ISTORE_3 = 0x3e;
    private static final int IASTORE = 0x4f;
    private static final int IADD = 0x60;
    private static final int IMUL = 0x68;
    private static final int ISHL = 0x78;
    private static final int IUSHR = 0x7c;
    private static final int IOR = 0x80;
    private static final int IXOR = 0x82;
    private static final int IINC = 0x84;
    private static final int IF_ICMPGE = 0xa2;
    private static final int GOTO = 0xa7;
    private static final int TABLESWITCH = 0xaa;
    private static final int IRETURN = 0xac;
    private static final int RETURN = 0xb1;
    private static final int INVOKESPECIAL = 0xb7;
    private static final int INVOKESTATIC = 0xb8;
    private static final int ARRAYLENGTH = 0xbe;

    private final int classes;
    private final int methods;
    private final int blocks;
    private final long seed;

    Generator(int classes, int methods, int blocks, long seed) {
        this.classes = classes;
        this.methods = methods;
        this.blocks = blocks;
        this.seed = seed;
    }

    static String className(int i) {
        return PACKAGE + "G" + i;
    }

    /** The class file of class {@code i}. */
    byte[] generate(int i) {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + i);
        ClassFile cf = new ClassFile(className(i), "java/lang/Object", KERNEL);
        cf.method(ClassFile.ACC_PUBLIC, "<init>", "()V", constructor(cf));
        cf.method(ClassFile.ACC_PUBLIC, "call", "(I[II)I", dispatcher(cf));
        cf.method(ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, "h", "(I)I", helper(cf, random));
        for (int k = 0; k < methods; k++) {
            int callee = k % 2 == 0 && k + 1 < methods ? random.nextInt(classes) : -1;
            cf.method(ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, "m" + k, METHOD, body(cf, random, k, callee));
        }
        return cf.bytes();
    }

    private static ClassFile.Code constructor(ClassFile cf) {
        ClassFile.Code c = new ClassFile.Code(1, 1);
        c.op(ALOAD_0, INVOKESPECIAL).u2(cf.methodRef("java/lang/Object", "<init>", "()V")).op(RETURN);
        return c;
    }

    /** {@code call(k, data, x)}: {@code tableswitch} on k to {@code return m<k>(data, x)}; else x. */
    private ClassFile.Code dispatcher(ClassFile cf) {
        ClassFile.Code c = new ClassFile.Code(2, 4);
        c.op(ILOAD_1);
        int at = c.position();
        c.op(TABLESWITCH);
        while (c.position() % 4 != 0) {
            c.op(0);
        }
        int table = c.position();
        c.u4(0).u4(0).u4(methods - 1);
        for (int k = 0; k < methods; k++) {
            c.u4(0);
        }
        int[] targets = new int[methods];
        for (int k = 0; k < methods; k++) {
            targets[k] = c.position() - at;
            c.op(ALOAD_2, ILOAD_3, INVOKESTATIC).u2(cf.methodRef(cf.name(), "m" + k, METHOD)).op(IRETURN);
        }
        int fallback = c.position() - at;
        c.op(ILOAD_3, IRETURN);
        byte[] patched = c.bytes(); // write the offsets now that they are known
        ClassFile.Code out = new ClassFile.Code(2, 4);
        out.code.write(patched, 0, table);
        out.u4(fallback).u4(0).u4(methods - 1);
        for (int target : targets) {
            out.u4(target);
        }
        int rest = table + 12 + 4 * methods;
        out.code.write(patched, rest, patched.length - rest);
        return out;
    }

    /** {@code h(v)}: {@code v * c ^ v >>> 15}, small enough to be inlined everywhere. */
    private static ClassFile.Code helper(ClassFile cf, Random random) {
        ClassFile.Code c = new ClassFile.Code(3, 1);
        c.op(ILOAD_0, LDC_W).u2(cf.integer(random.nextInt() | 1)).op(IMUL);
        c.op(ILOAD_0, BIPUSH, 15, IUSHR, IXOR, IRETURN);
        return c;
    }

    /**
     * {@code m<k>(data, x)}: locals 0 data, 1 x, 2 acc, 3 i, 4 v. {@code acc = x; for (i = 0; i < data.length;
     * i++) { v = data[i]; blocks...; data[i] = acc; } [acc += G<callee>.m<k+1>(data, acc);] return acc;}
     */
    private ClassFile.Code body(ClassFile cf, Random random, int k, int callee) {
        ClassFile.Code c = new ClassFile.Code(4, 5);
        c.op(ILOAD_1, ISTORE_2, ICONST_0, ISTORE_3);
        int loop = c.position();
        c.op(ILOAD_3, ALOAD_0, ARRAYLENGTH);
        int exit = c.forward(IF_ICMPGE);
        c.op(ALOAD_0, ILOAD_3, IALOAD, ISTORE, 4);
        for (int b = 0; b < blocks; b++) {
            block(cf, c, random);
        }
        c.op(ALOAD_0, ILOAD_3, ILOAD_2, IASTORE, IINC, 3, 1);
        c.branch(GOTO, loop);
        c.patch(exit);
        if (callee >= 0) {
            c.op(ILOAD_2, ALOAD_0, ILOAD_2, INVOKESTATIC).u2(cf.methodRef(className(callee), "m" + (k + 1), METHOD));
            c.op(IADD, ISTORE_2);
        }
        c.op(ILOAD_2, IRETURN);
        return c;
    }

    private static void block(ClassFile cf, ClassFile.Code c, Random random) {
        int kind = random.nextInt(5);
        if (kind == 0) { // acc = acc * c + v
            c.op(ILOAD_2, LDC_W).u2(cf.integer(random.nextInt() | 1)).op(IMUL, ILOAD, 4, IADD, ISTORE_2);
        } else if (kind == 1) { // acc ^= acc >>> s; v += acc
            c.op(ILOAD_2, ILOAD_2, BIPUSH, 1 + random.nextInt(30), IUSHR, IXOR, ISTORE_2);
            c.op(ILOAD, 4, ILOAD_2, IADD, ISTORE, 4);
        } else if (kind == 2) { // acc = rotl(acc, s) ^ c
            int s = 1 + random.nextInt(30);
            c.op(ILOAD_2, BIPUSH, s, ISHL, ILOAD_2, BIPUSH, 32 - s, IUSHR, IOR);
            c.op(LDC_W).u2(cf.integer(random.nextInt())).op(IXOR, ISTORE_2);
        } else if (kind == 3) { // acc += v ^ c
            c.op(ILOAD_2, ILOAD, 4, LDC_W).u2(cf.integer(random.nextInt())).op(IXOR, IADD, ISTORE_2);
        } else { // acc = h(acc + v)
            c.op(ILOAD_2, ILOAD, 4, IADD, INVOKESTATIC).u2(cf.methodRef(cf.name(), "h", "(I)I")).op(ISTORE_2);
        }
    }
}
