package jvmlab.workloads;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An allocating program for GC tests and the demo. No dependencies; compiles with {@code javac --release 8}.
 *
 * <pre>
 * java -cp build/java jvmlab.workloads.GcChurn [--key=value ...]
 *   --duration-s=10       run time in seconds
 *   --rate-mb-s=0         allocation rate target in MB/s (0: as fast as possible)
 *   --live-mb=32          retained live set, with steady churn (entries survive a few young GCs, then die)
 *   --churn=0.05          fraction of allocated bytes that replaces live-set entries
 *   --humongous=0         fraction of allocated bytes in large (1-4 MB) arrays, humongous under G1
 *   --system-gc-s=0       call System.gc() every N seconds (0: never)
 *   --classes-per-s=0     proxy classes generated per second in fresh class loaders (grows metaspace)
 *   --classes-total=0     stop generating after this many (0: all run; the last 20,000 stay loaded)
 *   --seed=42             random seed
 * </pre>
 *
 * Prints one progress line per second: {@code t_s=3 allocated_mb=1234 rate_mb_s=411 live_mb=32 ...}.
 */
public final class GcChurn {
    private static final int MB = 1 << 20;
    private static final int BATCH_BYTES = 256 * 1024;
    private static final int NURSERY_SLOTS = 256;
    private static final int HUMONGOUS_SLOTS = 2;

    private final Options options;
    private final Random random;
    private final byte[][] live;
    private final Object[] nursery = new Object[NURSERY_SLOTS];
    private final byte[][] humongous = new byte[HUMONGOUS_SLOTS][];
    private long liveBytes;
    private long allocatedBytes;
    private long churnCredit;
    private long humongousCredit;
    private long humongousCount;
    private int nurseryIndex;

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        new GcChurn(options).run();
        System.out.flush();
    }

    private final ClassGenerator classes;

    private GcChurn(Options options) {
        this.options = options;
        this.random = new Random(options.seed);
        this.live = new byte[liveSlots(options.liveMb)][];
        this.classes = new ClassGenerator(options.classesPerS, options.classesTotal);
    }

    private static int liveSlots(long liveMb) {
        long meanEntryBytes = 8 * 1024;
        return (int) Math.max(1, liveMb * MB / meanEntryBytes);
    }

    private void run() throws Exception {
        fillLiveSet();
        Thread generator = new Thread(classes, "class-generator");
        generator.setDaemon(true);
        if (options.classesPerS > 0) {
            generator.start();
        }
        long startNs = System.nanoTime();
        long endNs = startNs + options.durationS * 1_000_000_000L;
        long nextReportNs = startNs + 1_000_000_000L;
        long nextSystemGcNs = startNs + options.systemGcS * 1_000_000_000L;
        long lastReportBytes = 0;
        int second = 0;
        while (System.nanoTime() < endNs) {
            allocateBatch();
            if (options.systemGcS > 0 && System.nanoTime() >= nextSystemGcNs) {
                System.gc();
                nextSystemGcNs += options.systemGcS * 1_000_000_000L;
            }
            if (System.nanoTime() >= nextReportNs) {
                second++;
                report(second, allocatedBytes - lastReportBytes);
                lastReportBytes = allocatedBytes;
                nextReportNs += 1_000_000_000L;
            }
            throttle(startNs, endNs);
        }
        if (allocatedBytes > lastReportBytes) {
            report(second + 1, allocatedBytes - lastReportBytes);
        }
        classes.stop();
        generator.join();
    }

    private void fillLiveSet() {
        for (int i = 0; i < live.length; i++) {
            replaceLiveEntry(i);
        }
    }

    /** Allocates about BATCH_BYTES: short-lived garbage, live-set replacements and large arrays. */
    private void allocateBatch() {
        long target = allocatedBytes + BATCH_BYTES;
        while (allocatedBytes < target) {
            int size = 16 + random.nextInt(1024);
            nursery[nurseryIndex] = new byte[size];
            nurseryIndex = (nurseryIndex + 1) % NURSERY_SLOTS;
            allocatedBytes += size;
        }
        churnCredit += (long) (BATCH_BYTES * options.churn);
        while (churnCredit > 0) {
            churnCredit -= replaceLiveEntry(random.nextInt(live.length));
        }
        humongousCredit += (long) (BATCH_BYTES * options.humongous);
        while (options.humongous > 0 && humongousCredit > 0) {
            humongousCredit -= allocateHumongous();
        }
    }

    private int replaceLiveEntry(int slot) {
        int size = 1024 + random.nextInt(15 * 1024);
        if (live[slot] != null) {
            liveBytes -= live[slot].length;
        }
        live[slot] = new byte[size];
        liveBytes += size;
        allocatedBytes += size;
        return size;
    }

    private int allocateHumongous() {
        int size = MB + random.nextInt(3 * MB);
        humongous[(int) (humongousCount % HUMONGOUS_SLOTS)] = new byte[size];
        humongousCount++;
        allocatedBytes += size;
        return size;
    }


    /** Sleeps while allocation is ahead of --rate-mb-s. */
    private void throttle(long startNs, long endNs) throws InterruptedException {
        if (options.rateMbS <= 0) {
            return;
        }
        double dueS = (double) allocatedBytes / MB / options.rateMbS;
        long dueNs = startNs + (long) (dueS * 1e9);
        long sleepNs = Math.min(dueNs, endNs) - System.nanoTime();
        if (sleepNs > 0) {
            Thread.sleep(sleepNs / 1_000_000L, (int) (sleepNs % 1_000_000L));
        }
    }

    private void report(int second, long bytesThisSecond) {
        System.out.println("t_s=" + second
                + " allocated_mb=" + allocatedBytes / MB
                + " rate_mb_s=" + bytesThisSecond / MB
                + " live_mb=" + liveBytes / MB
                + " humongous=" + humongousCount
                + " classes=" + classes.count());
    }

    /**
     * Grows metaspace on its own thread (class definition is slow, about 1 ms a class): each fresh class
     * loader defines its own proxy class for java.util.List, about 15 KB of metaspace. The most recent
     * MAX_LOADERS loaders stay reachable; older ones can be unloaded.
     */
    private static final class ClassGenerator implements Runnable {
        private static final int MAX_LOADERS = 20000;
        private final Object[] proxies = new Object[MAX_LOADERS];
        private final long classesPerS;
        private final long total;
        private final AtomicLong count = new AtomicLong();
        private volatile boolean stopped;

        ClassGenerator(long classesPerS, long total) {
            this.classesPerS = classesPerS;
            this.total = total;
        }

        long count() {
            return count.get();
        }

        void stop() {
            stopped = true;
        }

        @Override
        public void run() {
            long startNs = System.nanoTime();
            while (!stopped && (total == 0 || count.get() < total)) {
                long n = count.get();
                proxies[(int) (n % MAX_LOADERS)] = newProxyInFreshLoader();
                count.incrementAndGet();
                long dueNs = startNs + (long) ((n + 1) * 1e9 / classesPerS);
                sleepUntil(dueNs);
            }
        }

        private static Object newProxyInFreshLoader() {
            ClassLoader loader = new URLClassLoader(new URL[0], GcChurn.class.getClassLoader());
            return Proxy.newProxyInstance(loader, new Class<?>[] {List.class}, NoOpHandler.INSTANCE);
        }

        private static void sleepUntil(long dueNs) {
            long sleepNs = dueNs - System.nanoTime();
            if (sleepNs <= 0) {
                return;
            }
            try {
                Thread.sleep(sleepNs / 1_000_000L, (int) (sleepNs % 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Proxy handler that returns a neutral value; the proxies are never called in the hot loop. */
    private static final class NoOpHandler implements InvocationHandler {
        static final NoOpHandler INSTANCE = new NoOpHandler();

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            return method.getName().equals("hashCode") ? Integer.valueOf(System.identityHashCode(proxy)) : null;
        }
    }

    /** Command-line options, {@code --key=value}. */
    static final class Options {
        long durationS = 10;
        double rateMbS = 0;
        long liveMb = 32;
        double churn = 0.05;
        double humongous = 0;
        long systemGcS = 0;
        long classesPerS = 0;
        long classesTotal = 0;
        long seed = 42;

        static Options parse(String[] args) {
            Map<String, String> values = new HashMap<String, String>();
            for (String arg : args) {
                int eq = arg.indexOf('=');
                if (!arg.startsWith("--") || eq < 0) {
                    throw new IllegalArgumentException("expected --key=value, got: " + arg);
                }
                values.put(arg.substring(2, eq), arg.substring(eq + 1));
            }
            Options o = new Options();
            o.durationS = Long.parseLong(take(values, "duration-s", "10"));
            o.rateMbS = Double.parseDouble(take(values, "rate-mb-s", "0"));
            o.liveMb = Long.parseLong(take(values, "live-mb", "32"));
            o.churn = Double.parseDouble(take(values, "churn", "0.05"));
            o.humongous = Double.parseDouble(take(values, "humongous", "0"));
            o.systemGcS = Long.parseLong(take(values, "system-gc-s", "0"));
            o.classesPerS = Long.parseLong(take(values, "classes-per-s", "0"));
            o.classesTotal = Long.parseLong(take(values, "classes-total", "0"));
            o.seed = Long.parseLong(take(values, "seed", "42"));
            if (!values.isEmpty()) {
                throw new IllegalArgumentException("unknown options: " + values.keySet());
            }
            return o;
        }

        private static String take(Map<String, String> values, String key, String fallback) {
            String value = values.remove(key);
            return value == null ? fallback : value;
        }
    }
}
