// Allocates large arrays (`size_kb`, meant to be at least half a G1 region: humongous objects), keeping the
// last `keep` of them alive, among small-object garbage. Arguments are key=value:
//   seconds=5     run time
//   size_kb=600   bytes of each large array, in KiB
//   keep=40       large arrays kept alive (a ring)
//   rate_mbps=100 allocation rate of large arrays, MB/s
//   small_mbps=20 allocation rate of 256-byte garbage objects, MB/s
public class Humongous {
    public static void main(String[] argv) {
        Args args = new Args(argv);
        double seconds = args.num("seconds", 5);
        int size = args.integer("size_kb", 600) * 1024;
        Object[] ring = new Object[Math.max(1, args.integer("keep", 40))];
        double rate = Math.max(1, args.num("rate_mbps", 100));
        double small = args.num("small_mbps", 20);
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long count = 0;
        double mb = 0;
        long sink = 0;
        while (System.nanoTime() < end) {
            byte[] big = new byte[size];
            big[size - 1] = 1;
            ring[(int) (count++ % ring.length)] = big;
            mb += size / (double) (1 << 20);
            for (long s = (long) (size / rate * small / 256); s > 0; s--) {
                sink += new byte[256].length;
            }
            Args.pace(start, mb, rate);
        }
        System.out.printf("%d arrays of %d KiB, %d small bytes%n", count, size >> 10, sink);
    }
}
