// A thread in long counted (int-indexed) loops, which C2 compiles without safepoint polls when run with
// -XX:-UseCountedLoopSafepoints (or -XX:LoopStripMiningIter=0 on some JDKs): every safepoint, such as a GC,
// waits until the loop ends. Another thread allocates to cause the GCs. Arguments are key=value:
//   seconds=6        run time
//   iters=400000000  iterations of each counted loop (about 0.7 s with C2 on this machine)
//   rate_mbps=50     allocation rate of the other thread, MB/s
public class CountedLoop {
    static volatile long result;

    public static void main(String[] argv) throws InterruptedException {
        Args args = new Args(argv);
        final double seconds = args.num("seconds", 6);
        final int iters = args.integer("iters", 400_000_000);
        final double rate = args.num("rate_mbps", 50);
        final long end = System.nanoTime() + (long) (seconds * 1e9);
        Thread allocator = new Thread(() -> Churn.churn(seconds, 8 << 20, 1024, 1, rate, false), "allocator");
        allocator.start();
        int loops = 0;
        while (System.nanoTime() < end) {
            result += spin(iters, loops++);
        }
        allocator.join();
        System.out.printf("%d loops of %d iterations%n", loops, iters);
    }

    static long spin(int iters, int seed) {
        long acc = seed;
        for (int i = 0; i < iters; i++) {
            acc = acc * 6364136223846793005L + i;
            acc ^= acc >>> 29;
        }
        return acc;
    }
}
