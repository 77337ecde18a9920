package jvmlab.workloads.tlsbench;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Connection counts, and the status line printed every interval by a daemon thread:
 * {@code status: t_s=3 connections=4816 rate=1603.2/s resumed=99.9% failed=0 handshake_ms=0.41}, where rate,
 * resumed share and mean handshake time are those of the interval.
 */
final class Meter implements Runnable {
    final long startNanos = System.nanoTime();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong resumed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong handshakeNanos = new AtomicLong();
    private final PrintStream out;
    private final long intervalNanos;
    private long lastNanos = startNanos;
    private long lastConnections;
    private long lastResumed;
    private long lastHandshakeNanos;

    Meter(PrintStream out, int intervalS) {
        this.out = out;
        this.intervalNanos = intervalS * 1000000000L;
    }

    private Thread thread;

    void start(String name) {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** No more status lines (before the summary). */
    void stop() throws InterruptedException {
        if (thread != null) {
            thread.interrupt();
            thread.join(1000);
        }
    }

    /** One connection served (or made), whether its session was resumed, and its handshake time. */
    void connection(boolean wasResumed, long handshake) {
        handshakeNanos.addAndGet(handshake);
        if (wasResumed) {
            resumed.incrementAndGet();
        }
        connections.incrementAndGet();
    }

    void failure() {
        failed.incrementAndGet();
    }

    long connections() {
        return connections.get();
    }

    long failures() {
        return failed.get();
    }

    double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public void run() {
        long next = startNanos + intervalNanos;
        while (true) {
            long wait = next - System.nanoTime();
            if (Thread.currentThread().isInterrupted()) {
                return;
            } else if (wait > 0) {
                try {
                    Thread.sleep(wait / 1000000L, (int) (wait % 1000000L));
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            next += intervalNanos;
            long now = System.nanoTime();
            long r = resumed.get();
            long h = handshakeNanos.get();
            long n = connections.get();
            long dn = n - lastConnections;
            out.println(String.format(Locale.ROOT,
                    "status: t_s=%d connections=%d rate=%.1f/s resumed=%.1f%% failed=%d handshake_ms=%.3f",
                    Math.round((now - startNanos) / 1e9), n, dn / ((now - lastNanos) / 1e9),
                    percent(r - lastResumed, dn), failed.get(), dn == 0 ? 0.0 : (h - lastHandshakeNanos) / 1e6 / dn));
            out.flush();
            lastNanos = now;
            lastConnections = n;
            lastResumed = r;
            lastHandshakeNanos = h;
        }
    }

    /** The totals: {@code connections=N resumed=N (X%) failed=N}. */
    String totals() {
        long n = connections.get();
        long r = resumed.get();
        return String.format(Locale.ROOT, "connections=%d resumed=%d (%.1f%%) failed=%d", n, r, percent(r, n),
                failed.get());
    }

    String meanHandshakeMs() {
        long n = connections.get();
        return String.format(Locale.ROOT, "%.3f", n == 0 ? 0.0 : handshakeNanos.get() / 1e6 / n);
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0.0 : 100.0 * part / whole;
    }
}
