// A live set that rises and falls in waves: for `period` seconds it grows to `live_mb` MB, then it is dropped
// and rises again, among `rate_mbps` MB/s of short-lived garbage. A heap allowed to grow and shrink (-Xms
// below -Xmx) follows it up and down. Arguments are key=value:
//   seconds=8     run time
//   period=2      seconds of one wave (rise, then drop)
//   live_mb=200   live set at the top of a wave
//   rate_mbps=200 allocation rate, MB/s (of which the live set takes its share)
//   size=1024     payload bytes of each object
import java.util.ArrayList;
import java.util.List;

public class Waves {
    static volatile Object sink;

    public static void main(String[] argv) {
        Args args = new Args(argv);
        double seconds = args.num("seconds", 8);
        double period = args.num("period", 2);
        long live = (long) (args.num("live_mb", 200) * (1 << 20));
        double rate = args.num("rate_mbps", 200);
        int size = args.integer("size", 1024);
        int perMb = Math.max(1, (1 << 20) / (size + 16));
        List<byte[]> kept = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long waveStart = start;
        int waves = 0;
        double mb = 0;
        long peak = 0;
        while (System.nanoTime() < end) {
            long now = System.nanoTime();
            if (now - waveStart > period * 1e9) {
                kept = new ArrayList<>();
                waveStart = now;
                waves++;
            }
            // The live set this far into the wave: it rises linearly to `live_mb` over the wave.
            long target = (long) (live * Math.min(1.0, (now - waveStart) / (period * 1e9)));
            for (int i = 0; i < perMb; i++) {
                byte[] b = new byte[size];
                if ((long) kept.size() * (size + 16) < target) {
                    kept.add(b);
                } else {
                    sink = b;
                }
            }
            peak = Math.max(peak, (long) kept.size() * (size + 16));
            mb += 1;
            Args.pace(start, mb, rate);
        }
        System.out.printf("%d waves up to %d MB in %.1f s%n", waves + 1, peak >> 20, seconds);
    }
}
