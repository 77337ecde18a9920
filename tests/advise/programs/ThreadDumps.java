// Thread dumps in a loop, as a monitoring agent polling ThreadMXBean does: `threads` idle threads, each
// `depth` frames deep and holding a lock, and every `interval_ms` a dumpAllThreads(true, true) (the
// ThreadDump VM operation, a safepoint; locked synchronizers make it walk the heap), while one thread
// allocates `rate_mbps` MB/s over a `live_mb` MB live set. Arguments are key=value:
//   seconds=5      run time
//   threads=200    idle threads
//   depth=50       stack depth of each
//   interval_ms=20 pause between dumps (0: back to back)
//   live_mb=50     live set of the allocating thread
//   rate_mbps=50   allocation rate
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

public class ThreadDumps {
    public static void main(String[] argv) throws InterruptedException {
        Args args = new Args(argv);
        final double seconds = args.num("seconds", 5);
        int threads = args.integer("threads", 200);
        final int depth = args.integer("depth", 50);
        long interval = (long) args.num("interval_ms", 20);
        final double rate = args.num("rate_mbps", 50);
        final long live = (long) (args.num("live_mb", 50) * (1 << 20));
        final CountDownLatch done = new CountDownLatch(1);
        final CountDownLatch ready = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread idle = new Thread(() -> idle(depth, ready, done), "idle-" + t);
            idle.setDaemon(true);
            idle.start();
        }
        ready.await();
        Thread allocator = new Thread(() -> Churn.churn(seconds, live, 1024, 4, rate, false), "allocator");
        allocator.start();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        int dumps = 0;
        long frames = 0;
        while (System.nanoTime() < end) {
            for (ThreadInfo info : mx.dumpAllThreads(true, true)) {
                frames += info.getStackTrace().length;
            }
            dumps++;
            if (interval > 0) {
                Thread.sleep(interval);
            }
        }
        done.countDown();
        allocator.join();
        System.out.printf("%d thread dumps of %d threads, %d frames%n", dumps, threads, frames);
    }

    static void idle(int depth, CountDownLatch ready, CountDownLatch done) {
        if (depth > 0) {
            idle(depth - 1, ready, done);
            return;
        }
        ReentrantLock lock = new ReentrantLock();
        lock.lock();
        synchronized (lock) {
            ready.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }
    }
}
