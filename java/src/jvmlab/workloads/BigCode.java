package jvmlab.workloads;

import jvmlab.workloads.bigcode.Driver;

/**
 * bigcode: a large hot code footprint for the JIT and the code cache, in plain Java (no dependencies;
 * compiles with {@code javac --release 8}, runs on JDK 8 to 25). At start-up it writes the bytecode of
 * {@code --classes} classes with {@code --methods} methods each (its own small class-file writer: no javac or
 * ASM at run time), defines them through a class loader, then calls them from {@code --threads} threads for
 * {@code --duration-s} seconds: a skewed mix where a hot set ({@code --hot} of the methods) takes
 * {@code --hot-share} of the calls and the rest are called rarely. Each method loops over a small array with
 * {@code --method-size} blocks of integer arithmetic and calls a small helper the JIT inlines; even methods
 * also call a method of another class.
 *
 * <pre>
 * java -cp build/java jvmlab.workloads.BigCode --classes 2000 --methods 20 --threads 2 --duration-s 30
 * java -XX:ReservedCodeCacheSize=3m -XX:-UseCodeCacheFlushing -cp build/java jvmlab.workloads.BigCode
 * </pre>
 *
 * With the defaults the compiled hot code is some 20 to 30 MB: the default code cache (240 MB) holds it and
 * the rate becomes steady once the JIT has compiled it (5 to 15 s on 2 CPUs). A small one does not: without
 * flushing it fills, the JVM prints {@code CodeCache is full. Compiler has been disabled.} and what was not
 * compiled stays interpreted; with flushing, hot code is thrown out and compiled again (and the cache fills
 * later, or never). Either way the rate is a fraction of the normal one (docs/workloads.md).
 *
 * Prints {@code bigcode: 2000 classes x 20 methods = 40000, ...} once the classes are loaded (the calls start
 * then), {@code status: t_s=3 ops=123456 rate=41152.0/s} every second (ops: the total; rate: over that
 * second), and at the end {@code summary: ops=N seconds=X rate=X/s checksum=H}; with {@code --ops N} instead
 * of a duration the checksum is the same for a seed whatever the threads and the JDK. {@code --help} lists
 * the options. Exit status 0; 1 when a call fails; 2 for a bad command line.
 */
public final class BigCode {
    private BigCode() {
    }

    public static void main(String[] args) {
        int status = 1;
        try {
            status = Driver.main(args);
        } catch (Throwable t) { // a class the JVM refuses, OutOfMemoryError: say so, and end
            t.printStackTrace();
        } finally {
            System.out.flush();
        }
        System.exit(status);
    }
}
