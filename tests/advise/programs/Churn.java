// Allocation churn over a live set of chosen size and object lifetime: every `keep`-th allocation replaces
// the oldest entry of a ring of `live_mb` MB, the others are garbage at once, so an object in the ring lives
// for live_mb * keep MB of allocation (live_mb * keep / rate_mbps seconds). Arguments are key=value:
//   seconds=6     run time
//   live_mb=30    size of the ring: the live set once it has filled
//   size=1024     payload bytes of each object (a byte[])
//   keep=1        store one allocation in `keep` in the ring
//   rate_mbps=0   allocation rate in MB/s, paced per MB (0: as fast as the threads can)
//   threads=1     allocating threads, each with live_mb / threads of the ring and rate_mbps / threads
//   prefill=0     1: fill the ring before the run, a live set in place from the start (long-lived when keep
//                 is large)
public class Churn {
    static final int CHUNK = 1 << 16;

    public static void main(String[] argv) throws InterruptedException {
        Args args = new Args(argv);
        final double seconds = args.num("seconds", 6);
        final int threads = Math.max(1, args.integer("threads", 1));
        final long liveBytes = (long) (args.num("live_mb", 30) * (1 << 20)) / threads;
        final int size = args.integer("size", 1024);
        final int keep = Math.max(1, args.integer("keep", 1));
        final double rate = args.num("rate_mbps", 0) / threads;
        final boolean prefill = args.num("prefill", 0) != 0;
        final long[] allocated = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int id = t;
            workers[t] = new Thread(() -> allocated[id] = churn(seconds, liveBytes, size, keep, rate, prefill),
                    "churn-" + t);
            workers[t].start();
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            workers[t].join();
            total += allocated[t];
        }
        System.out.printf("allocated %d MB in %.1f s%n", total >> 20, seconds);
    }

    /** Allocates for `seconds` at `rateMbps` (0: flat out), returns the bytes allocated. */
    static long churn(double seconds, long liveBytes, int size, int keep, double rateMbps, boolean prefill) {
        long slots = Math.max(1, liveBytes / (size + 16));
        Object[][] ring = new Object[(int) ((slots + CHUNK - 1) / CHUNK)][];
        for (int c = 0; c < ring.length; c++) {
            ring[c] = new Object[(int) Math.min(CHUNK, slots - (long) c * CHUNK)];
            for (int i = 0; prefill && i < ring[c].length; i++) {
                ring[c][i] = new byte[size];
            }
        }
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long allocated = 0;
        long next = 0;
        int perMb = Math.max(1, (1 << 20) / (size + 16));
        while (System.nanoTime() < end) {
            for (int i = 0; i < perMb; i++) {
                byte[] b = new byte[size];
                b[0] = (byte) i;
                if (i % keep == 0) {
                    long slot = next++ % slots;
                    ring[(int) (slot / CHUNK)][(int) (slot % CHUNK)] = b;
                }
            }
            allocated += (long) perMb * (size + 16);
            Args.pace(start, allocated / (double) (1 << 20), rateMbps);
        }
        return allocated;
    }
}
