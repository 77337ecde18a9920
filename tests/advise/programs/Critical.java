// JNI critical regions without native code of our own: threads run a JDK native over a large byte[] (Adler32,
// Deflater, Inflater: their C code holds the array with GetPrimitiveArrayCritical) while other threads
// allocate garbage, so collections are requested while a critical region is held: the GCLocker delays them
// and starts one when the region ends. CRC32 is there for contrast: on x86 the JIT replaces its native with
// an intrinsic that holds no critical region, so once compiled it causes none. Arguments are key=value:
//   seconds=5     run time
//   op=adler      adler | deflate | inflate | crc
//   critical=2    threads in critical regions
//   array_mb=16   the byte[] each of them hands to the native
//   threads=2     allocating threads
//   size=1024     bytes of each allocated object
//   rate_mbps=0   allocation rate of all allocating threads in MB/s (0: flat out)
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

public class Critical {
    static volatile Object sink;

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        final double seconds = args.num("seconds", 5);
        final String op = opArg(argv);
        final int critical = args.integer("critical", 2);
        final int arrayBytes = (int) (args.num("array_mb", 16) * (1 << 20));
        final int threads = args.integer("threads", 2);
        final int size = args.integer("size", 1024);
        final double rate = args.num("rate_mbps", 0) / Math.max(1, threads);
        final long end = System.nanoTime() + (long) (seconds * 1e9);
        final AtomicLong calls = new AtomicLong();
        Thread[] all = new Thread[critical + threads];
        for (int t = 0; t < critical; t++) {
            all[t] = new Thread(() -> calls.addAndGet(holdRegions(op, arrayBytes, end)), "critical-" + t);
        }
        for (int t = 0; t < threads; t++) {
            all[critical + t] = new Thread(() -> allocate(size, rate, end), "alloc-" + t);
        }
        for (Thread t : all) {
            t.start();
        }
        for (Thread t : all) {
            t.join();
        }
        System.out.printf("%d %s calls over %d MB arrays in %.1f s%n", calls.get(), op, arrayBytes >> 20,
                seconds);
    }

    static String opArg(String[] argv) {
        for (String a : argv) {
            if (a.startsWith("op=")) {
                return a.substring(3);
            }
        }
        return "adler";
    }

    /** Calls the native over the array until `end`; returns the number of calls. */
    static long holdRegions(String op, int arrayBytes, long end) {
        byte[] data = new byte[arrayBytes];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + (i >>> 9));
        }
        byte[] out = new byte[arrayBytes + (arrayBytes >> 4) + 64];
        byte[] packed = null;
        if (op.equals("inflate")) {
            Deflater d = new Deflater(1);
            d.setInput(data);
            d.finish();
            int n = d.deflate(out);
            d.end();
            packed = java.util.Arrays.copyOf(out, n);
        }
        long calls = 0;
        Adler32 adler = new Adler32();
        CRC32 crc = new CRC32();
        while (System.nanoTime() < end) {
            switch (op) {
                case "adler":
                    adler.update(data, 0, data.length);
                    break;
                case "crc":
                    crc.update(data, 0, data.length);
                    break;
                case "deflate": {
                    Deflater d = new Deflater(1);
                    d.setInput(data);
                    d.finish();
                    d.deflate(out);
                    d.end();
                    break;
                }
                case "inflate": {
                    Inflater inf = new Inflater();
                    inf.setInput(packed);
                    try {
                        inf.inflate(out);
                    } catch (java.util.zip.DataFormatException e) {
                        throw new IllegalStateException(e);
                    }
                    inf.end();
                    break;
                }
                default:
                    throw new IllegalArgumentException("op=" + op);
            }
            calls++;
        }
        sink = adler.getValue() + crc.getValue();
        return calls;
    }

    static void allocate(int size, double rateMbps, long end) {
        long start = System.nanoTime();
        long allocated = 0;
        int perMb = Math.max(1, (1 << 20) / (size + 16));
        while (System.nanoTime() < end) {
            for (int i = 0; i < perMb; i++) {
                sink = new byte[size];
            }
            allocated += (long) perMb * (size + 16);
            Args.pace(start, allocated / (double) (1 << 20), rateMbps);
        }
    }
}
