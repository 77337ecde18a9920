// Calls System.gc() every 20 ms for the given seconds (default 2), allocating a little in between: run with
// a young generation larger than what it allocates (-Xmn64m), every collection in its JFR recording is a
// System.gc() one. JMC's SystemGc rule (9.1.1) scores the ratio of System.gc() collections to all of them
// in integer arithmetic, so only a recording where that ratio is 1 scores above 0 (docs/jmc.md).
// A single-file program: java SystemGcLoop.java [seconds].
import java.util.ArrayList;
import java.util.List;

public class SystemGcLoop {
    public static void main(String[] args) throws InterruptedException {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 2;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<byte[]> kept = new ArrayList<>();
        long allocatedBytes = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 256; i++) {
                byte[] chunk = new byte[1024 + i];
                allocatedBytes += chunk.length;
                if (i % 64 == 0) {
                    kept.add(chunk);
                }
            }
            if (kept.size() > 4_096) {
                kept.subList(0, 2_048).clear();
            }
            System.gc();
            Thread.sleep(20);
        }
        System.out.println("allocated bytes: " + allocatedBytes + ", kept arrays: " + kept.size());
    }
}
