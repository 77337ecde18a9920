// Grows Metaspace by defining classes, each in a class loader of its own: the class bytes are generated here
// (a class `Gen` of `methods` static methods of `code` bytes of bytecode each, about methods * (code + 150)
// bytes of class metadata), and the last `keep` loaders stay reachable (0: all of them, a class loader
// leak). Dropped loaders are unloaded by the GC. A leak under -XX:MaxMetaspaceSize ends in OutOfMemoryError:
// Metaspace: the program then says so and exits with status 3. Arguments are key=value:
//   seconds=5     run time
//   per_s=400     classes defined per second (0: as fast as possible)
//   methods=50    methods per class
//   code=1000     bytecode bytes per method
//   keep=100      loaders kept alive (a ring); 0 keeps all
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

public class ClassLoading {
    static final class Loader extends ClassLoader {
        Loader() {
            super(null);
        }

        Class<?> define(byte[] bytes) {
            return defineClass("Gen", bytes, 0, bytes.length);
        }
    }

    public static void main(String[] argv) throws IOException {
        Args args = new Args(argv);
        double seconds = args.num("seconds", 5);
        double perSecond = args.num("per_s", 400);
        int keep = args.integer("keep", 100);
        byte[] bytes = classFile(args.integer("methods", 50), args.integer("code", 1000));
        List<Class<?>> kept = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long defined = 0;
        while (System.nanoTime() < end) {
            try {
                kept.add(new Loader().define(bytes));
            } catch (OutOfMemoryError e) {
                int held = kept.size();
                kept.clear(); // room for what printing needs
                System.out.println("OutOfMemoryError: " + e.getMessage() + " after " + defined + " classes, "
                        + held + " kept");
                System.exit(3);
            }
            if (keep > 0 && kept.size() > keep) {
                kept.remove(0);
            }
            defined++;
            Args.pace(start, defined, perSecond);
        }
        System.out.printf("%d classes defined, %d kept, %d bytes each%n", defined, kept.size(), bytes.length);
    }

    /** A class file (Java 8, version 52) of public class Gen with `methods` static void methods m0..mN, each
     * `code` bytes of iconst_0/pop pairs and a return: straight-line code needs no StackMapTable. */
    static byte[] classFile(int methods, int code) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buf);
        out.writeInt(0xCAFEBABE);
        out.writeShort(0);
        out.writeShort(52);
        out.writeShort(7 + methods); // constant pool count: entries 1..6 and the method names
        utf8(out, "Gen"); // 1
        out.writeByte(7); // 2: Class Gen
        out.writeShort(1);
        utf8(out, "java/lang/Object"); // 3
        out.writeByte(7); // 4: Class java/lang/Object
        out.writeShort(3);
        utf8(out, "Code"); // 5
        utf8(out, "()V"); // 6
        for (int m = 0; m < methods; m++) {
            utf8(out, "m" + m); // 7 + m
        }
        out.writeShort(0x21); // public super
        out.writeShort(2);
        out.writeShort(4);
        out.writeShort(0); // interfaces
        out.writeShort(0); // fields
        out.writeShort(methods);
        int pairs = Math.max(0, (code - 1) / 2);
        for (int m = 0; m < methods; m++) {
            out.writeShort(0x09); // public static
            out.writeShort(7 + m);
            out.writeShort(6);
            out.writeShort(1); // attributes: Code
            out.writeShort(5);
            out.writeInt(12 + pairs * 2 + 1);
            out.writeShort(1); // max stack
            out.writeShort(0); // max locals
            out.writeInt(pairs * 2 + 1);
            for (int p = 0; p < pairs; p++) {
                out.writeByte(0x03); // iconst_0
                out.writeByte(0x57); // pop
            }
            out.writeByte(0xB1); // return
            out.writeShort(0); // exception table
            out.writeShort(0); // attributes
        }
        out.writeShort(0); // class attributes
        return buf.toByteArray();
    }

    static void utf8(DataOutputStream out, String s) throws IOException {
        out.writeByte(1);
        out.writeUTF(s);
    }
}
