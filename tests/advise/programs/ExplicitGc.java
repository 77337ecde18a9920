// Calls System.gc() every `interval_ms` while allocating modestly, as a library or RMI's distributed GC
// does. Arguments are key=value: seconds=5, interval_ms=500, live_mb=20, rate_mbps=20, size=1024.
public class ExplicitGc {
    public static void main(String[] argv) {
        Args args = new Args(argv);
        double seconds = args.num("seconds", 5);
        long interval = (long) (args.num("interval_ms", 500) * 1e6);
        int size = args.integer("size", 1024);
        double rate = Math.max(1, args.num("rate_mbps", 20));
        Object[] ring = new Object[(int) Math.max(1, args.num("live_mb", 20) * (1 << 20) / (size + 16))];
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long nextGc = start + interval;
        int perMb = Math.max(1, (1 << 20) / (size + 16));
        long next = 0;
        int gcs = 0;
        double mb = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < perMb; i++) {
                ring[(int) (next++ % ring.length)] = new byte[size];
            }
            mb += 1;
            if (System.nanoTime() >= nextGc) {
                System.gc();
                gcs++;
                nextGc += interval;
            }
            Args.pace(start, mb, rate);
        }
        System.out.printf("%d System.gc() calls, %.0f MB allocated%n", gcs, mb);
    }
}
