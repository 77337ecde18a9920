package jvmlab.workloads.apiservice;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/1.1 server on java.nio (no com.sun.net.httpserver: the JDK 11 runtime of the CMS experiments
 * lacks it), built like Tomcat's NIO connector: an acceptor thread, a {@link Poller} for idle connections, and
 * a bounded pool of workers ({@code threads}, like maxThreads) with a bounded queue of ready connections
 * ({@code queue}); beyond it, 503.
 */
final class HttpServer implements Runnable {
    private static final int BACKLOG = 1024;
    private static final long DRAIN_MS = 3000;

    final Router router;
    final Stats stats;
    final long idleTimeoutMs;
    final long maxBodyBytes;
    private final ThreadPoolExecutor workers;
    private final Poller poller;
    private final ServerSocketChannel server;
    private final Thread acceptor = new Thread(this, "http-acceptor");
    private volatile boolean running = true;

    HttpServer(Config config, Router router, Stats stats) throws IOException {
        this.router = router;
        this.stats = stats;
        this.idleTimeoutMs = config.idleTimeoutMs;
        this.maxBodyBytes = config.maxBodyBytes;
        this.workers = new ThreadPoolExecutor(config.threads, config.threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<Runnable>(config.queue), new Workers());
        workers.allowCoreThreadTimeOut(true);
        this.poller = new Poller(workers, config.idleTimeoutMs);
        this.server = ServerSocketChannel.open();
        server.socket().setReuseAddress(true);
        server.socket().bind(new InetSocketAddress(config.host, config.port), BACKLOG);
    }

    /** Starts accepting; returns the port. */
    int start() {
        poller.start();
        acceptor.start();
        return server.socket().getLocalPort();
    }

    @Override
    public void run() {
        boolean reported = false;
        while (running) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) { // out of file descriptors, say: the client waits in the backlog
                if (!reported) {
                    System.err.println("ApiService: accept failed (reported once): " + e);
                    reported = true;
                }
                pause();
                continue;
            }
            accept(channel);
        }
    }

    private void accept(SocketChannel channel) {
        try {
            channel.configureBlocking(false);
            channel.socket().setTcpNoDelay(true);
        } catch (IOException e) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // gone anyway
            }
            return;
        }
        stats.opened();
        poller.watch(new Connection(channel, this));
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void watch(Connection c) {
        poller.watch(c);
    }

    boolean running() {
        return running;
    }

    /**
     * Stops accepting, lets the requests under way finish (at most 3 s; they close their connections), closes
     * the rest.
     */
    void stop() {
        running = false;
        try {
            server.close();
            acceptor.join(1000);
        } catch (IOException e) {
            // closed anyway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.shutdown();
        try {
            workers.awaitTermination(DRAIN_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        poller.stop();
        workers.shutdownNow();
    }

    private static final class Workers implements ThreadFactory {
        private final AtomicInteger next = new AtomicInteger(1);

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "http-worker-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        }
    }
}
