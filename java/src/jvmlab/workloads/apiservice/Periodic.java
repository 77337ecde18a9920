package jvmlab.workloads.apiservice;

/**
 * A background job run at a fixed rate on a daemon thread of its own (the next run is due one interval after
 * the last one was due, so runs do not drift); a run that fails is reported on stderr and the job goes on;
 * {@link #stop} ends it and waits for a run under way.
 */
abstract class Periodic implements Runnable {
    private final long intervalNanos;
    private final Thread thread;
    private volatile boolean stopped;

    Periodic(String name, long intervalNanos) {
        this.intervalNanos = intervalNanos;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    /** One run; interrupted only by {@link #stop}. */
    abstract void tick() throws InterruptedException;

    final void start() {
        thread.start();
    }

    final boolean stopped() {
        return stopped;
    }

    @Override
    public final void run() {
        long due = System.nanoTime() + intervalNanos;
        try {
            while (!stopped) {
                long waitNanos = due - System.nanoTime();
                if (waitNanos > 0) {
                    Thread.sleep(waitNanos / 1000000L, (int) (waitNanos % 1000000L));
                    continue;
                }
                try {
                    tick();
                } catch (RuntimeException | Error e) { // OutOfMemoryError, say: said, and the next run may do
                    System.err.println("ApiService: " + thread.getName() + " failed: " + e);
                }
                due += intervalNanos;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    final void stop() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
