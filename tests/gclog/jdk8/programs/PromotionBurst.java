// Bursts of objects that outlive a young collection, among short-lived garbage, over a long-lived base:
// between bursts young collections promote nearly nothing (so the collector's average of promoted bytes
// falls and it attempts the next promotion), then a burst of `burst_mb` MB survives at once, more than the
// old generation still has free: a promotion failure. Arguments are key=value:
//   seconds=2     run time
//   base_mb=12    live for the whole run
//   burst_mb=14   kept from one burst until the next
//   period=0.3    seconds between bursts
//   rate_mbps=300 allocation rate, MB/s
//   size=1024     payload bytes of each object
import java.util.ArrayList;
import java.util.List;

public class PromotionBurst {
    static volatile Object sink;

    public static void main(String[] argv) {
        Args args = new Args(argv);
        double seconds = args.num("seconds", 2);
        long base = (long) (args.num("base_mb", 12) * (1 << 20));
        long burst = (long) (args.num("burst_mb", 14) * (1 << 20));
        double period = args.num("period", 0.3);
        double rate = args.num("rate_mbps", 300);
        int size = args.integer("size", 1024);
        int perMb = Math.max(1, (1 << 20) / (size + 16));
        List<byte[]> kept = new ArrayList<>();
        for (long b = 0; b < base; b += size + 16) {
            kept.add(new byte[size]);
        }
        List<byte[]> held = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long nextBurst = start + (long) (period * 1e9);
        double mb = 0;
        int bursts = 0;
        while (System.nanoTime() < end) {
            if (System.nanoTime() >= nextBurst) {
                held = new ArrayList<>();
                for (long b = 0; b < burst; b += size + 16) {
                    held.add(new byte[size]);
                }
                bursts++;
                nextBurst += (long) (period * 1e9);
            }
            for (int i = 0; i < perMb; i++) {
                sink = new byte[size];
            }
            mb += 1;
            Args.pace(start, mb, rate);
        }
        System.out.printf("%d bursts, %d long-lived, %d held%n", bursts, kept.size(), held.size());
    }
}
