package jvmlab.workloads.tlsbench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The client JVM a server starts against itself: a separate process, so that its flags (the Extended Master
 * Secret switch above all) are its own. Its output is relayed line by line, prefixed {@code client: }. It is
 * stopped with the server; should the server die without its shutdown hook (SIGKILL), the client's stdin
 * closes and it exits by itself.
 */
final class ClientProcess {
    private final Process process;
    private final Thread[] relays;

    private ClientProcess(Process process) {
        this.process = process;
        this.relays = new Thread[] {
            relay(process.getInputStream(), System.out, "tls-client-stdout"),
            relay(process.getErrorStream(), System.err, "tls-client-stderr"),
        };
    }

    /** Starts the client against the server's port; {@code onEnd} gets its exit status once it has ended. */
    static ClientProcess start(Settings settings, int port, final IntConsumer onEnd) throws IOException {
        String java = settings.clientJava.isEmpty()
                ? System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"
                : settings.clientJava;
        List<String> command = new ArrayList<String>();
        command.add(java);
        command.addAll(settings.clientOpts);
        if (settings.client.equals("noems")) {
            command.add("-Djdk.tls.useExtendedMasterSecret=false"); // the client does not send the extension
        }
        command.add("-Dtls.host=" + settings.connectHost());
        command.add("-Dtls.port=" + port);
        command.add("-Dtls.durationS=" + settings.durationS);
        command.add("-Dtls.connections=" + settings.connections);
        command.add("-Dtls.logIntervalS=" + settings.logIntervalS);
        if (!settings.keystore.isEmpty()) {
            command.add("-Dtls.keystore=" + settings.keystore);
        }
        command.add("-Dtls.password=" + settings.password);
        command.add("-Dtls.exitOnStdinEof=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("jvmlab.workloads.TlsBench");
        command.add("client");
        System.out.println("TlsBench: starting the client: " + String.join(" ", command));
        System.out.flush();
        final ClientProcess client = new ClientProcess(new ProcessBuilder(command).start());
        Thread waiter = Server.daemons("tls-client-wait").newThread(new Runnable() {
            @Override
            public void run() {
                if (client.awaitEnd()) {
                    onEnd.accept(client.process.exitValue());
                }
            }
        });
        waiter.start();
        return client;
    }

    /** Waits for the process and its relayed output; false if interrupted. */
    private boolean awaitEnd() {
        try {
            process.waitFor();
            for (Thread relay : relays) {
                relay.join(5000);
            }
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** Asks the client to stop (it prints its summary), then ends it by force if it is still there. */
    void stop() {
        try {
            if (process.isAlive()) {
                try {
                    OutputStream in = process.getOutputStream();
                    in.write("stop\n".getBytes(StandardCharsets.US_ASCII));
                    in.flush();
                } catch (IOException e) {
                    // it is ending already
                }
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    System.err.println("TlsBench: the client did not stop in 5 s: killing it");
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
            for (Thread relay : relays) {
                relay.join(2000);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
        }
    }

    private static Thread relay(final InputStream from, final PrintStream to, String name) {
        Thread t = Server.daemons(name).newThread(new Runnable() {
            @Override
            public void run() {
                BufferedReader reader = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8));
                try {
                    for (String line; (line = reader.readLine()) != null;) {
                        to.println("client: " + line);
                        to.flush();
                    }
                } catch (IOException e) {
                    // the process has gone
                }
            }
        });
        t.start();
        return t;
    }
}
