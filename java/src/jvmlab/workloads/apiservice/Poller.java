package jvmlab.workloads.apiservice;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * Watches the idle connections on one selector thread (as Tomcat's NIO poller does): a connection with bytes
 * to read goes to the worker pool, or gets 503 when the pool's queue is full (is closed once the pool stops);
 * one idle longer than the timeout is closed.
 */
final class Poller implements Runnable {
    private static final long SWEEP_MS = 1000;

    private final Selector selector;
    private final Queue<Connection> toWatch = new ConcurrentLinkedQueue<Connection>();
    private final ExecutorService workers;
    private final long idleTimeoutNanos;
    private final Thread thread;
    private volatile boolean running = true;

    Poller(ExecutorService workers, long idleTimeoutMs) throws IOException {
        this.selector = Selector.open();
        this.workers = workers;
        this.idleTimeoutNanos = idleTimeoutMs * 1000000L;
        this.thread = new Thread(this, "http-poller");
    }

    void start() {
        thread.start();
    }

    /** Watches the connection for its next request: a new one, or one whose requests were served. */
    void watch(Connection c) {
        toWatch.add(c);
        selector.wakeup();
    }

    @Override
    public void run() {
        long nextSweep = System.nanoTime() + SWEEP_MS * 1000000L;
        while (running) {
            try {
                selector.select(SWEEP_MS);
            } catch (IOException e) {
                System.err.println("ApiService: the poller's select failed: " + e);
            }
            for (Connection c; (c = toWatch.poll()) != null;) {
                arm(c);
            }
            dispatchReady();
            long now = System.nanoTime();
            if (now - nextSweep >= 0) {
                closeIdle(now);
                nextSweep = now + SWEEP_MS * 1000000L;
            }
        }
        closeAll();
    }

    private void arm(Connection c) {
        try {
            if (c.key == null) {
                c.key = c.channel.register(selector, SelectionKey.OP_READ, c);
            } else {
                c.key.interestOps(SelectionKey.OP_READ);
            }
            c.idleSinceNanos = System.nanoTime();
        } catch (ClosedChannelException | CancelledKeyException e) {
            c.close();
        }
    }

    private void dispatchReady() {
        Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
        while (ready.hasNext()) {
            SelectionKey key = ready.next();
            ready.remove();
            Connection c = (Connection) key.attachment();
            try {
                key.interestOps(0);
            } catch (CancelledKeyException e) {
                c.close();
                continue;
            }
            try {
                workers.execute(c);
            } catch (RejectedExecutionException e) {
                if (workers.isShutdown()) {
                    c.close(); // stopping: no new request is taken
                } else {
                    c.reject();
                }
            }
        }
    }

    /** Closes the connections that have waited for a request longer than the idle timeout. */
    private void closeIdle(long now) {
        for (SelectionKey key : selector.keys()) {
            Connection c = (Connection) key.attachment();
            try {
                if (key.interestOps() != 0 && now - c.idleSinceNanos > idleTimeoutNanos) {
                    c.close();
                }
            } catch (CancelledKeyException e) {
                c.close(); // closed meanwhile
            }
        }
    }

    private void closeAll() {
        for (SelectionKey key : selector.keys()) {
            ((Connection) key.attachment()).close();
        }
        for (Connection c; (c = toWatch.poll()) != null;) {
            c.close();
        }
        try {
            selector.close();
        } catch (IOException e) {
            // closed anyway
        }
    }

    void stop() {
        running = false;
        selector.wakeup();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
