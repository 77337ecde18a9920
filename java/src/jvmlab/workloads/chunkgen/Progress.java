package jvmlab.workloads.chunkgen;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress lines at a fixed interval, with the rate over that interval (so the warm-up shows):
 * {@code Processed: 1234 chunks (29.2%), Rate: 31.5 cps, ETA: 0:00:41}.
 */
final class Progress implements Runnable {
    private final long total;
    private final long intervalMs;
    private final PrintStream out;
    private final AtomicLong done = new AtomicLong();
    private final long startNanos = System.nanoTime();
    private final Thread thread;
    private volatile boolean stopped;

    Progress(long total, long intervalMs, PrintStream out) {
        this.total = total;
        this.intervalMs = intervalMs;
        this.out = out;
        thread = new Thread(this, "chunkgen-progress");
        thread.setDaemon(true);
    }

    Progress start() {
        thread.start();
        return this;
    }

    void chunkDone() {
        done.incrementAndGet();
    }

    long done() {
        return done.get();
    }

    double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public void run() {
        long lastCount = 0;
        long lastNanos = startNanos;
        long next = startNanos + intervalMs * 1000000L;
        while (!stopped) {
            long wait = (next - System.nanoTime()) / 1000000L;
            if (wait > 0) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            long now = System.nanoTime();
            long count = done.get();
            double rate = (count - lastCount) / ((now - lastNanos) / 1e9);
            if (!stopped) {
                out.println(line(count, rate));
            }
            lastCount = count;
            lastNanos = now;
            next += intervalMs * 1000000L;
        }
    }

    private String line(long count, double rate) {
        double overall = count / elapsedSeconds();
        String eta = overall > 0 ? clock((long) ((total - count) / overall)) : "?";
        return String.format(Locale.ROOT, "Processed: %d chunks (%.1f%%), Rate: %.1f cps, ETA: %s",
                count, 100.0 * count / total, rate, eta);
    }

    static String clock(long seconds) {
        return String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    /** Stops the lines; none is printed after this returns. */
    void stop() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
