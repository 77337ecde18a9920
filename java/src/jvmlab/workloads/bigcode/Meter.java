package jvmlab.workloads.bigcode;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the calls, and prints {@code status: t_s=3 ops=123456 rate=41152.0/s} every interval from a daemon
 * thread: ops is the running total, rate the calls per second over that interval (so the warm-up shows).
 */
final class Meter implements Runnable {
    private final LongAdder ops = new LongAdder();
    private final PrintStream out;
    private final long intervalNanos;
    private final long startNanos = System.nanoTime();
    private Thread thread;

    Meter(PrintStream out, long intervalMs) {
        this.out = out;
        this.intervalNanos = intervalMs * 1000000L;
    }

    void start() {
        thread = new Thread(this, "bigcode-meter");
        thread.setDaemon(true);
        thread.start();
    }

    /** No status line is printed after this returns. */
    void stop() throws InterruptedException {
        thread.interrupt();
        thread.join(1000);
    }

    void op() {
        ops.increment();
    }

    long ops() {
        return ops.sum();
    }

    double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public void run() {
        long next = startNanos + intervalNanos;
        long lastNanos = startNanos;
        long lastOps = 0;
        while (!Thread.currentThread().isInterrupted()) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1000000L, (int) (wait % 1000000L));
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            next += intervalNanos;
            long now = System.nanoTime();
            long n = ops.sum();
            out.println(String.format(Locale.ROOT, "status: t_s=%d ops=%d rate=%.1f/s",
                    Math.round((now - startNanos) / 1e9), n, (n - lastOps) / ((now - lastNanos) / 1e9)));
            out.flush();
            lastNanos = now;
            lastOps = n;
        }
    }
}
