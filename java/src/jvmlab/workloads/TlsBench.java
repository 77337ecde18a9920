package jvmlab.workloads;

import jvmlab.workloads.tlsbench.Client;
import jvmlab.workloads.tlsbench.Server;
import jvmlab.workloads.tlsbench.Settings;

/**
 * tlsbench: TLS 1.2 connections per second and the share of resumed sessions, in plain Java (no
 * dependencies; compiles with {@code javac --release 8}, runs on JDK 11+). It reproduces a field report: after
 * a JDK upgrade, TLS sessions were no longer resumed because the server enforces the Extended Master Secret
 * extension (RFC 7627) and the clients did not send it, so every connection paid a full handshake (the JDK
 * logs "abort session resumption, missing Extended Master Secret extension" with {@code -Djavax.net.debug}).
 *
 * <pre>
 * java -Dtls.client=noems -cp build/java jvmlab.workloads.TlsBench server   # server + a client JVM, one run
 * java -Dtls.port=8443 -cp build/java jvmlab.workloads.TlsBench server      # server only
 * java -Dtls.port=8443 -Djdk.tls.useExtendedMasterSecret=false -cp build/java jvmlab.workloads.TlsBench client
 * </pre>
 *
 * {@code server} listens (TLS 1.2 only; the bundled self-signed certificate, CN=localhost) and answers one small
 * request per connection. With {@code tls.client=ems} or {@code noems} it starts the client as a separate JVM
 * (the same java, so that the server's flags are the JVM under test and the client's are its own), relays its
 * output prefixed {@code client: }, and ends when the client ends. {@code noems} gives the client
 * {@code -Djdk.tls.useExtendedMasterSecret=false}: it does not send the extension, like old OpenSSL clients.
 * The client JVM is ended with the server (shutdown hook), and ends by itself if the server dies (its stdin
 * closes).
 *
 * {@code client} makes sequential connections at full speed from one SSLContext (so that sessions can be
 * resumed), trusting the bundled certificate only; a connection is resumed when its session id is the
 * previous connection's.
 *
 * Settings are system properties (defaults shown; {@code --help} prints them):
 * <ul>
 * <li>{@code tls.host=127.0.0.1}: server: the address to listen on; client: the server's address</li>
 * <li>{@code tls.port=0}: server: the TCP port (0 picks a free one, printed on the listening line); client: required</li>
 * <li>{@code tls.threads=2}: server: connection handler threads</li>
 * <li>{@code tls.client=none}: server: {@code ems} or {@code noems} starts a client JVM against this server</li>
 * <li>{@code tls.clientJava=}: server: the client's java (default: this JVM's)</li>
 * <li>{@code tls.clientOpts=-Xmx128m}: server: the client JVM's options, separated by spaces</li>
 * <li>{@code tls.durationS=20}: client: seconds of connections (0: no limit)</li>
 * <li>{@code tls.connections=0}: client: stop after this many connections (0: no limit)</li>
 * <li>{@code tls.logIntervalS=1}: seconds between status lines</li>
 * <li>{@code tls.keystore=}: a PKCS12 keystore to use instead of the bundled one, {@code tls.password=tlsbench}</li>
 * </ul>
 *
 * Both print a status line per interval, {@code status: t_s=3 connections=4816 rate=1603.2/s resumed=99.9%
 * failed=0 handshake_ms=0.41} (rate, resumed share and handshake time over the interval). The server prints
 * {@code TlsBench listening on port N} once it accepts connections; the line {@code stop} on stdin, or its
 * client's end, ends it after {@code TlsBench stopped: connections=N resumed=N (X%) failed=N uptime_s=X}. The
 * client ends with {@code summary: connections=N resumed=N (X%) failed=N seconds=X rate=X/s handshake_ms=X}.
 * Exit status 0; 1 when it cannot listen or connect, or the client failed; 2 for bad settings.
 */
public final class TlsBench {
    private TlsBench() {
    }

    public static void main(String[] args) {
        int status = 1;
        try {
            String mode = args.length == 1 ? args[0] : "";
            if (mode.equals("--help") || mode.equals("-h")) {
                System.out.println(Settings.usage());
                status = 0;
            } else if (mode.equals("server")) {
                status = Server.main(Settings.fromSystem());
            } else if (mode.equals("client")) {
                status = Client.main(Settings.fromSystem());
            } else {
                System.err.println("TlsBench: one argument, server or client (--help for the settings)");
                status = 2;
            }
        } catch (IllegalArgumentException e) {
            System.err.println("TlsBench: " + e.getMessage());
            status = 2;
        } catch (Throwable t) { // a failure to start: say so, and end
            t.printStackTrace();
        } finally {
            System.out.flush();
        }
        System.exit(status);
    }
}
