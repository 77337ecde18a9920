package jvmlab.workloads.tlsbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/**
 * The TLS 1.2 server: an accept thread hands each connection to a handler thread, which does the handshake,
 * reads one request line, writes one response line and closes. A session is counted resumed when it was
 * created before this connection's handshake began (a resumed session keeps its creation time, through the
 * session cache and through TLS 1.2 session tickets alike).
 */
public final class Server {
    private static final byte[] RESPONSE = "hello from tlsbench\n".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_FAILURE_LOGS = 5;

    private final Settings settings;
    private final SSLServerSocket listener;
    private final Meter meter;
    private final ExecutorService handlers;
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile int exitStatus;
    private volatile ClientProcess client;

    private Server(Settings settings, SSLContext context) throws IOException {
        this.settings = settings;
        this.listener = (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
        this.meter = new Meter(System.out, settings.logIntervalS);
        this.handlers = Executors.newFixedThreadPool(settings.threads, daemons("tls-handler-"));
    }

    public static int main(Settings settings) throws Exception {
        Server server = new Server(settings, Tls.server(settings));
        int port;
        try {
            port = server.listen();
        } catch (IOException e) {
            System.err.println("TlsBench: cannot listen on " + settings.host + ":" + settings.port + ": " + e);
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                server.stop();
            }
        }, "tls-shutdown"));
        System.out.println("TlsBench server: java " + System.getProperty("java.version") + ", " + Tls.PROTOCOL
                + " only, jdk.tls.useExtendedMasterSecret="
                + System.getProperty("jdk.tls.useExtendedMasterSecret", "(default: true)") + ", threads="
                + settings.threads + ", client=" + settings.client);
        System.out.println("TlsBench listening on port " + port);
        System.out.flush();
        server.meter.start("tls-server-status");
        server.startAccepting();
        if (!settings.client.equals("none")) {
            server.client = ClientProcess.start(settings, port, new IntConsumer() {
                @Override
                public void accept(int status) {
                    server.clientEnded(status);
                }
            });
        }
        server.watchStdin();
        server.done.await();
        return server.exitStatus;
    }

    private int listen() throws IOException {
        listener.setEnabledProtocols(Tls.PROTOCOLS);
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getByName(settings.host), settings.port), 1024);
        return listener.getLocalPort();
    }

    private void startAccepting() {
        Thread t = daemons("tls-accept").newThread(new Runnable() {
            @Override
            public void run() {
                while (!stopped.get()) {
                    final Socket socket;
                    try {
                        socket = listener.accept();
                    } catch (IOException e) {
                        if (!stopped.get()) {
                            System.err.println("TlsBench: accept failed: " + e);
                        }
                        continue;
                    }
                    handlers.execute(new Runnable() {
                        @Override
                        public void run() {
                            serve((SSLSocket) socket);
                        }
                    });
                }
            }
        });
        t.start();
    }

    private void serve(SSLSocket socket) {
        try {
            try {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(10000);
                long startMillis = System.currentTimeMillis();
                long start = System.nanoTime();
                socket.startHandshake();
                long handshake = System.nanoTime() - start;
                SSLSession session = socket.getSession();
                readLine(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                out.write(RESPONSE);
                out.flush();
                meter.connection(session.getCreationTime() < startMillis, handshake);
            } finally {
                socket.close();
            }
        } catch (IOException | RuntimeException e) {
            if (stopped.get()) {
                return;
            }
            meter.failure();
            long failures = meter.failures();
            if (failures <= MAX_FAILURE_LOGS || failures % 1000 == 0) {
                System.err.println("TlsBench: connection failed (" + failures + " so far): " + e);
            }
        }
    }

    private static void readLine(InputStream in) throws IOException {
        for (int b; (b = in.read()) != '\n';) {
            if (b < 0) {
                throw new IOException("the client closed the connection before its request");
            }
        }
    }

    /** The client JVM has ended (its output relayed): the run is over. */
    private void clientEnded(int status) {
        System.out.println("TlsBench: the client exited with status " + status);
        exitStatus = status == 0 ? 0 : 1;
        done.countDown();
    }

    /** Reads commands until {@code stop}, or the end of stdin (the server goes on). */
    private void watchStdin() {
        Thread t = daemons("tls-stdin").newThread(new Runnable() {
            @Override
            public void run() {
                BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                try {
                    for (String line; (line = reader.readLine()) != null;) {
                        if (line.trim().equals("stop")) {
                            done.countDown();
                            return;
                        } else if (!line.trim().isEmpty()) {
                            System.err.println("TlsBench: unknown command '" + line.trim() + "' (the command is: stop)");
                        }
                    }
                } catch (IOException e) {
                    System.err.println("TlsBench: stdin unreadable, no commands: " + e.getMessage());
                }
            }
        });
        t.start();
    }

    /** Stops the client JVM first (its summary relayed), then the server; prints the totals. Once. */
    private void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        ClientProcess c = client;
        if (c != null) {
            c.stop();
        }
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        handlers.shutdownNow();
        try {
            meter.stop();
        } catch (InterruptedException e) {
            // the totals anyway
        }
        System.out.println(String.format(Locale.ROOT, "TlsBench stopped: %s uptime_s=%.1f", meter.totals(),
                meter.seconds()));
        System.out.flush();
    }

    static ThreadFactory daemons(final String prefix) {
        final AtomicInteger count = new AtomicInteger();
        return new ThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
                Thread t = new Thread(r, prefix.endsWith("-") ? prefix + count.incrementAndGet() : prefix);
                t.setDaemon(true);
                return t;
            }
        };
    }
}
