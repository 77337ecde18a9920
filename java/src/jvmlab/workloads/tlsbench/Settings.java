package jvmlab.workloads.tlsbench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/** The {@code tls.*} system properties, checked once at start (a bad value is exit status 2). */
public final class Settings {
    static final String[] CLIENTS = {"none", "ems", "noems"};

    final String host;
    final int port;
    final int threads;
    final String client;
    final String clientJava;
    final List<String> clientOpts;
    final int durationS;
    final long connections;
    final int logIntervalS;
    final String keystore;
    final String password;
    final boolean exitOnStdinEof;

    private Settings(Properties p) {
        host = p.getProperty("tls.host", "127.0.0.1");
        port = integer(p, "tls.port", 0, 0, 65535);
        threads = integer(p, "tls.threads", 2, 1, 1000);
        client = p.getProperty("tls.client", "none");
        if (!Arrays.asList(CLIENTS).contains(client)) {
            throw new IllegalArgumentException("tls.client=" + client + ": one of none, ems, noems");
        }
        clientJava = p.getProperty("tls.clientJava", "");
        clientOpts = new ArrayList<String>();
        for (String opt : p.getProperty("tls.clientOpts", "-Xmx128m").trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                clientOpts.add(opt);
            }
        }
        durationS = integer(p, "tls.durationS", 20, 0, Integer.MAX_VALUE);
        connections = integer(p, "tls.connections", 0, 0, Integer.MAX_VALUE);
        logIntervalS = integer(p, "tls.logIntervalS", 1, 1, 3600);
        keystore = p.getProperty("tls.keystore", "");
        password = p.getProperty("tls.password", "tlsbench");
        exitOnStdinEof = Boolean.parseBoolean(p.getProperty("tls.exitOnStdinEof", "false"));
    }

    public static Settings fromSystem() {
        return new Settings(System.getProperties());
    }

    private static int integer(Properties p, String key, int fallback, int min, int max) {
        String text = p.getProperty(key);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + "=" + text + ": a whole number from " + min + " to " + max);
    }

    /** The address a client reaches the server at. */
    String connectHost() {
        return host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    }

    public static String usage() {
        return "java [-Dtls.KEY=VALUE ...] -cp build/java jvmlab.workloads.TlsBench server|client\n"
                + "  tls.host=127.0.0.1      server: address to listen on; client: the server's address\n"
                + "  tls.port=0              server: TCP port (0: a free one); client: the server's port\n"
                + "  tls.threads=2           server: connection handler threads\n"
                + "  tls.client=none         server: ems or noems starts a client JVM (noems: without the\n"
                + "                          Extended Master Secret extension, -Djdk.tls.useExtendedMasterSecret=false)\n"
                + "  tls.clientJava=         server: the client's java (default: this JVM's)\n"
                + "  tls.clientOpts=-Xmx128m server: the client JVM's options, separated by spaces\n"
                + "  tls.durationS=20        client: seconds of connections (0: no limit)\n"
                + "  tls.connections=0       client: stop after this many connections (0: no limit)\n"
                + "  tls.logIntervalS=1      seconds between status lines\n"
                + "  tls.keystore=           a PKCS12 keystore instead of the bundled one (tls.password=tlsbench)\n"
                + "Both read commands on stdin: stop.";
    }
}
