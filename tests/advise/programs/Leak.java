// A live set that grows steadily: `grow_mbps` MB/s of objects are kept for good (up to `cap_mb`), among a
// churn of medium-lived objects (a ring of `live_mb` MB, as in Churn) and short-lived garbage, so that old
// collections keep happening while what survives them rises. Arguments are key=value:
//   seconds=8     run time
//   grow_mbps=10  leak rate in MB/s
//   cap_mb=1000   the leak stops growing at this size (to end the run without OutOfMemoryError)
//   live_mb=20    ring of medium-lived objects
//   keep=4        store one allocation in `keep` in the ring
//   rate_mbps=100 allocation rate of the churn, MB/s
//   size=1024     payload bytes of each object
import java.util.ArrayList;
import java.util.List;

public class Leak {
    public static void main(String[] argv) {
        Args args = new Args(argv);
        double seconds = args.num("seconds", 8);
        double grow = args.num("grow_mbps", 10);
        long cap = (long) (args.num("cap_mb", 1000) * (1 << 20));
        int size = args.integer("size", 1024);
        int keep = Math.max(1, args.integer("keep", 4));
        double rate = Math.max(1, args.num("rate_mbps", 100));
        Object[] ring = new Object[(int) Math.max(1, args.num("live_mb", 20) * (1 << 20) / (size + 16))];
        List<byte[]> leaked = new ArrayList<>();
        long leakedBytes = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        int perMb = Math.max(1, (1 << 20) / (size + 16));
        long next = 0;
        double mb = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < perMb; i++) {
                byte[] b = new byte[size];
                if (i % keep == 0) {
                    ring[(int) (next++ % ring.length)] = b;
                }
            }
            mb += 1;
            long due = (long) (mb * grow / rate * (1 << 20));
            while (leakedBytes < Math.min(due, cap)) {
                leaked.add(new byte[size]);
                leakedBytes += size + 16;
            }
            Args.pace(start, mb, rate);
        }
        System.out.printf("leaked %d MB, churned %.0f MB%n", leakedBytes >> 20, mb);
    }
}
