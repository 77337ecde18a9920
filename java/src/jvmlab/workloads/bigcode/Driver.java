package jvmlab.workloads.bigcode;

import jvmlab.workloads.CommandLine;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A bigcode run: generate and load the classes, then call their methods from {@code --threads} threads until
 * the duration is over or {@code --ops} calls are made, with status lines meanwhile and a summary at the end.
 *
 * Call number n (thread t makes n = t, t + threads, ...) is drawn from a hash of the seed and n: with
 * probability {@code --hot-share} one of the hot set (a fraction {@code --hot} of all methods, picked with the
 * seed), else any method; its array is filled from the same hash. So each call's result depends on n alone,
 * and the checksum (the sum of the results) of a run of {@code --ops} calls is the same whatever the threads
 * and the JDK.
 */
public final class Driver {
    private final Options o;
    private final PrintStream out;
    private final AtomicReference<Throwable> failure = new AtomicReference<Throwable>();
    private volatile boolean stop;
    private Kernel[] kernels;
    private int[] hot;
    private long hotThreshold;

    private Driver(Options o, PrintStream out) {
        this.o = o;
        this.out = out;
    }

    /** Runs bigcode with a command line; returns the exit status (0 done, 1 failed, 2 bad command line). */
    public static int main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (CommandLine.Invalid e) {
            System.err.println("bigcode: " + e.getMessage());
            return 2;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
            return 0;
        }
        return new Driver(options, System.out).run();
    }

    private int run() throws Exception {
        long start = System.nanoTime();
        Loader loader = new Loader(Driver.class.getClassLoader());
        kernels = loader.defineAll(new Generator(o.classes, o.methods, o.methodSize, o.seed), o.classes);
        hot = hotSet();
        hotThreshold = (long) (o.hotShare * (1L << 24));
        out.printf(Locale.ROOT, "bigcode: %d classes x %d methods = %d, %d hot taking %.0f%% of the calls; "
                        + "%.1f MB of class files (crc %08x) loaded in %.2f s; %d threads, %s%n",
                o.classes, o.methods, o.methodCount(), hot.length, 100 * o.hotShare, loader.bytes() / 1e6,
                loader.crc(), (System.nanoTime() - start) / 1e9, o.threads,
                o.ops > 0 ? o.ops + " calls" : o.durationS + " s");
        out.flush();
        Meter meter = new Meter(out, o.reportMs);
        Worker[] workers = new Worker[o.threads];
        meter.start();
        for (int t = 0; t < workers.length; t++) {
            workers[t] = new Worker(t, meter);
            workers[t].start();
        }
        waitFor(workers);
        meter.stop();
        double seconds = meter.seconds();
        if (failure.get() != null) {
            System.err.println("bigcode: a call failed; stopping");
            failure.get().printStackTrace();
            return 1;
        }
        long checksum = 0;
        for (Worker w : workers) {
            checksum += w.sum;
        }
        long n = meter.ops();
        out.printf(Locale.ROOT, "summary: ops=%d seconds=%.2f rate=%.1f/s checksum=%016x%n", n, seconds,
                n / seconds, checksum);
        return 0;
    }

    private int[] hotSet() {
        long total = o.methodCount();
        int count = (int) Math.max(1, Math.round(o.hot * total));
        int[] picked = new int[count];
        Random random = new Random(o.seed);
        for (int i = 0; i < count; i++) {
            picked[i] = (int) ((random.nextLong() >>> 1) % total);
        }
        return picked;
    }

    private void waitFor(Worker[] workers) throws InterruptedException {
        long deadline = System.nanoTime() + o.durationS * 1000000000L;
        for (Worker w : workers) {
            while (w.isAlive()) {
                long left = deadline - System.nanoTime();
                if (o.ops == 0 && left <= 0) {
                    stop = true;
                }
                w.join(o.ops == 0 && left > 0 ? Math.max(1, left / 1000000L) : 100);
            }
        }
    }

    /** SplitMix64's finalizer (Steele, Lea, Flood 2014): a well-mixed 64-bit hash of n. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private final class Worker extends Thread {
        private final int index;
        private final Meter meter;
        long sum;

        Worker(int index, Meter meter) {
            super("bigcode-" + index);
            setDaemon(true);
            this.index = index;
            this.meter = meter;
        }

        @Override
        public void run() {
            try {
                calls();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                stop = true;
            }
        }

        private void calls() {
            int[] data = new int[o.data];
            long total = o.methodCount();
            int methods = o.methods;
            long limit = o.ops;
            long seed = o.seed * 0x9E3779B97F4A7C15L;
            for (long n = index; limit == 0 || n < limit; n += o.threads) {
                if (stop) {
                    return;
                }
                long h = mix(seed + n);
                long low = h & 0xFFFFFFFFL;
                int g = (h >>> 40) < hotThreshold ? hot[(int) (low % hot.length)] : (int) (low % total);
                for (int q = 0; q < data.length; q++) {
                    data[q] = (int) (h >>> (q & 31)) + q;
                }
                sum += kernels[g / methods].call(g % methods, data, (int) (h >>> 32));
                meter.op();
            }
        }
    }
}
