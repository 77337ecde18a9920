// Fills the JIT's code cache: defines `classes` classes (each in a class loader of its own, all kept), each
// an IntUnaryOperator whose applyAsInt is `ops` multiply/xor steps of straight-line bytecode, and calls each
// `calls` times so that the compilers compile every one of them. With a small -XX:ReservedCodeCacheSize and
// -XX:-UseCodeCacheFlushing the code cache fills and the JVM turns its compilers off; the program stops when
// the compilers have done nothing for `idle` seconds (while they work, every new class gives them work).
// Arguments are key=value:
//   seconds=10    stop after this long at most
//   idle=2        seconds without compilation (the compilers are off) before it stops
//   classes=5000  classes defined
//   ops=200       multiply/xor steps per method (10 bytes of bytecode each)
//   calls=20000   calls of each method (C1 compiles after 200, C2 after 5000 and more)
//   garbage_kb=0  KB of short-lived garbage allocated per class (for some collections in the GC log)
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

public class HotMethods {
    static final class Loader extends ClassLoader {
        Loader() {
            super(HotMethods.class.getClassLoader());
        }

        Class<?> define(byte[] bytes) {
            return defineClass("Hot", bytes, 0, bytes.length);
        }
    }

    static volatile int sink;
    static volatile Object garbage;

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        double seconds = args.num("seconds", 10);
        int classes = args.integer("classes", 5000);
        int calls = args.integer("calls", 20000);
        int garbageKb = args.integer("garbage_kb", 0);
        long idle = (long) (args.num("idle", 2) * 1e9);
        byte[] bytes = classFile(args.integer("ops", 200));
        List<IntUnaryOperator> ops = new ArrayList<>();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long compiledMs = -1;
        long compiledAt = System.nanoTime();
        int acc = 1;
        while (ops.size() < classes && System.nanoTime() < end) {
            long now = System.nanoTime();
            if (jit.getTotalCompilationTime() != compiledMs) {
                compiledMs = jit.getTotalCompilationTime();
                compiledAt = now;
            } else if (now - compiledAt > idle) {
                break;
            }
            Class<?> hot = new Loader().define(bytes);
            IntUnaryOperator op = (IntUnaryOperator) hot.getDeclaredConstructor().newInstance();
            ops.add(op);
            for (int kb = 0; kb < garbageKb; kb++) {
                garbage = new byte[1024];
            }
            for (int i = 0; i < calls; i++) {
                acc = op.applyAsInt(acc + i);
            }
        }
        sink = acc;
        System.out.printf("%d classes, each called %d times; %d ms of compilation%n", ops.size(), calls,
                jit.getTotalCompilationTime());
    }

    /** A class file (version 49: no StackMapTable needed) of public class Hot implements IntUnaryOperator,
     * with a constructor and applyAsInt(int) = `ops` steps of x = x * k ^ j. */
    static byte[] classFile(int ops) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buf);
        out.writeInt(0xCAFEBABE);
        out.writeShort(0);
        out.writeShort(49);
        out.writeShort(16); // constant pool count: entries 1..15
        utf8(out, "Hot"); // 1
        classRef(out, 1); // 2
        utf8(out, "java/lang/Object"); // 3
        classRef(out, 3); // 4
        utf8(out, "java/util/function/IntUnaryOperator"); // 5
        classRef(out, 5); // 6
        utf8(out, "<init>"); // 7
        utf8(out, "()V"); // 8
        out.writeByte(12); // 9: NameAndType <init> ()V
        out.writeShort(7);
        out.writeShort(8);
        out.writeByte(10); // 10: Methodref Object.<init>
        out.writeShort(4);
        out.writeShort(9);
        utf8(out, "Code"); // 11
        utf8(out, "applyAsInt"); // 12
        utf8(out, "(I)I"); // 13
        utf8(out, "unused"); // 14
        utf8(out, "unused2"); // 15
        out.writeShort(0x21); // public super
        out.writeShort(2);
        out.writeShort(4);
        out.writeShort(1); // interfaces
        out.writeShort(6);
        out.writeShort(0); // fields
        out.writeShort(2); // methods
        // public Hot() { super(); }
        out.writeShort(0x01);
        out.writeShort(7);
        out.writeShort(8);
        out.writeShort(1);
        out.writeShort(11);
        out.writeInt(12 + 5);
        out.writeShort(1);
        out.writeShort(1);
        out.writeInt(5);
        out.writeByte(0x2A); // aload_0
        out.writeByte(0xB7); // invokespecial #10
        out.writeShort(10);
        out.writeByte(0xB1); // return
        out.writeShort(0);
        out.writeShort(0);
        // public int applyAsInt(int x) { x = x * k ^ j; ... return x; }
        int code = ops * 10 + 2;
        out.writeShort(0x01);
        out.writeShort(12);
        out.writeShort(13);
        out.writeShort(1);
        out.writeShort(11);
        out.writeInt(12 + code);
        out.writeShort(2); // max stack
        out.writeShort(2); // max locals: this, x
        out.writeInt(code);
        for (int i = 0; i < ops; i++) {
            out.writeByte(0x1B); // iload_1
            out.writeByte(0x11); // sipush k
            out.writeShort(31 + 2 * i);
            out.writeByte(0x68); // imul
            out.writeByte(0x11); // sipush j
            out.writeShort(7 * i + 1);
            out.writeByte(0x82); // ixor
            out.writeByte(0x3C); // istore_1
        }
        out.writeByte(0x1B); // iload_1
        out.writeByte(0xAC); // ireturn
        out.writeShort(0);
        out.writeShort(0);
        out.writeShort(0); // class attributes
        return buf.toByteArray();
    }

    static void classRef(DataOutputStream out, int name) throws IOException {
        out.writeByte(7);
        out.writeShort(name);
    }

    static void utf8(DataOutputStream out, String s) throws IOException {
        out.writeByte(1);
        out.writeUTF(s);
    }
}
