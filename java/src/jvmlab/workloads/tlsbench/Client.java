package jvmlab.workloads.tlsbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Sequential TLS 1.2 connections at full speed from one SSLContext, whose client session cache offers the
 * last session of this host and port to the next connection. Each connection: handshake, one request line,
 * one response line, close. A connection is counted resumed when its session id is the previous one's.
 */
public final class Client {
    private static final byte[] REQUEST = "hello tlsbench\n".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_FAILURE_LOGS = 5;
    private static final int MAX_FAILURES_IN_A_ROW = 20;

    private final Settings settings;
    private final SSLSocketFactory factory;
    private final Meter meter;
    private volatile boolean stopping;

    private Client(Settings settings, SSLContext context) {
        this.settings = settings;
        this.factory = context.getSocketFactory();
        this.meter = new Meter(System.out, settings.logIntervalS);
    }

    public static int main(Settings settings) throws Exception {
        if (settings.port == 0) {
            throw new IllegalArgumentException("tls.port: the server's port is needed");
        }
        Client client = new Client(settings, Tls.client(settings));
        System.out.println("TlsBench client: pid " + ManagementFactory.getRuntimeMXBean().getName().split("@")[0]
                + ", java " + System.getProperty("java.version") + ", " + Tls.PROTOCOL + " to "
                + settings.connectHost() + ":" + settings.port + ", jdk.tls.useExtendedMasterSecret="
                + System.getProperty("jdk.tls.useExtendedMasterSecret", "(default: true)") + ", duration_s="
                + settings.durationS + ", connections=" + (settings.connections == 0 ? "any" : settings.connections));
        client.watchStdin();
        return client.run();
    }

    private int run() throws InterruptedException {
        meter.start("tls-client-status");
        long end = settings.durationS == 0 ? Long.MAX_VALUE : meter.startNanos + settings.durationS * 1000000000L;
        byte[] previous = null;
        long attempts = 0;
        int failedInARow = 0;
        while (!stopping && System.nanoTime() < end
                && (settings.connections == 0 || attempts < settings.connections)) {
            attempts++;
            try {
                previous = connect(previous);
                failedInARow = 0;
            } catch (IOException | RuntimeException e) {
                previous = null;
                meter.failure();
                long failures = meter.failures();
                if (failures <= MAX_FAILURE_LOGS || failures % 1000 == 0) {
                    System.err.println("TlsBench client: connection failed (" + failures + " so far): " + e);
                }
                if (++failedInARow == MAX_FAILURES_IN_A_ROW) {
                    System.err.println("TlsBench client: " + failedInARow + " connections failed in a row, giving up");
                    break;
                }
            }
        }
        double seconds = meter.seconds();
        meter.stop();
        long n = meter.connections();
        System.out.println(String.format(Locale.ROOT, "summary: %s seconds=%.2f rate=%.1f/s handshake_ms=%s",
                meter.totals(), seconds, n / seconds, meter.meanHandshakeMs()));
        System.out.flush();
        return n > 0 && meter.failures() == 0 ? 0 : 1;
    }

    /** One connection; returns its session id. */
    private byte[] connect(byte[] previous) throws IOException {
        SSLSocket socket = (SSLSocket) factory.createSocket(settings.connectHost(), settings.port);
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10000);
            socket.setEnabledProtocols(Tls.PROTOCOLS);
            long start = System.nanoTime();
            socket.startHandshake();
            long handshake = System.nanoTime() - start;
            byte[] id = socket.getSession().getId();
            OutputStream out = socket.getOutputStream();
            out.write(REQUEST);
            out.flush();
            readLine(socket.getInputStream());
            meter.connection(previous != null && id.length > 0 && Arrays.equals(previous, id), handshake);
            return id;
        } finally {
            socket.close();
        }
    }

    private static void readLine(InputStream in) throws IOException {
        for (int b; (b = in.read()) != '\n';) {
            if (b < 0) {
                throw new IOException("the server closed the connection before its response");
            }
        }
    }

    /** {@code stop} on stdin ends the run (a summary is printed); with tls.exitOnStdinEof, so does its end. */
    private void watchStdin() {
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                try {
                    for (String line; (line = reader.readLine()) != null;) {
                        if (line.trim().equals("stop")) {
                            stopping = true;
                            return;
                        }
                    }
                } catch (IOException e) {
                    // as the end of stdin
                }
                if (settings.exitOnStdinEof) { // the server that started this JVM is gone
                    System.err.println("TlsBench client: stdin closed, exiting");
                    Runtime.getRuntime().halt(1);
                }
            }
        }, "tls-client-stdin");
        t.setDaemon(true);
        t.start();
    }
}
