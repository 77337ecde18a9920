package jvmlab.workloads.apiservice;

import java.util.Locale;
import java.util.Properties;

/** The settings of the service: system properties {@code -Dapi.NAME=value}; an unknown api.* name is an error. */
final class Config {
    static final String USAGE = String.join("\n",
            "usage: java [-Dapi.NAME=value ...] -cp build/java jvmlab.workloads.ApiService [--help]",
            "  api.host=0.0.0.0           address to listen on",
            "  api.port=8080              TCP port; 0 picks a free one (printed on the listening line)",
            "  api.threads=200            worker threads (like Tomcat's maxThreads)",
            "  api.queue=1000             connections with a request waiting for a worker; beyond, 503",
            "  api.idleTimeoutMs=30000    an idle keep-alive connection (or a stalled client) is closed after this",
            "  api.maxBodyBytes=65536     larger request bodies are refused with 413",
            "  api.products=500000        catalog size: product ids 1..N",
            "  api.users=100000           customer accounts: user ids 1..N",
            "  api.cacheFraction=0.25     product cache budget, a fraction of the max heap (0: no cache)",
            "  api.updatesPerSecond=100   catalog updates written through into the cache per second",
            "  api.batchIntervalMs=10000  period of the batch report (0: none)",
            "  api.batchMb=64             sales rows the batch report reads, in MB of objects",
            "  api.batchHoldMs=2000       how long the batch report holds its rows and report",
            "  api.ruleClasses=2000       pricing-rule classes, each in a class loader of its own, made at start-up",
            "  api.classesPerSecond=20    rule classes made again per second, each releasing the oldest loader",
            "  api.seed=42                seed of all the content (products, users, campaigns, batch rows)",
            "  api.logIntervalS=10        seconds between status lines",
            "Prints 'ApiService listening on port N' once it accepts connections; 'stop' on stdin or SIGTERM",
            "ends it with exit status 0 after a line of totals.");

    String host = "0.0.0.0";
    int port = 8080;
    int threads = 200;
    int queue = 1000;
    long idleTimeoutMs = 30000;
    int maxBodyBytes = 65536;
    int products = 500000;
    int users = 100000;
    double cacheFraction = 0.25;
    int updatesPerSecond = 100;
    long batchIntervalMs = 10000;
    int batchMb = 64;
    long batchHoldMs = 2000;
    int ruleClasses = 2000;
    double classesPerSecond = 20;
    long seed = 42;
    int logIntervalS = 10;

    /** Thrown for a setting that cannot be used; the message names the property and what it needs. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    static Config from(Properties properties) throws Invalid {
        Config c = new Config();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("api.")) {
                c.set(key.substring(4), properties.getProperty(key));
            }
        }
        return c;
    }

    private void set(String name, String value) throws Invalid {
        switch (name) {
            case "host": host = value; break;
            case "port": port = (int) whole(name, value, 0, 65535); break;
            case "threads": threads = (int) whole(name, value, 1, 10000); break;
            case "queue": queue = (int) whole(name, value, 1, 1000000); break;
            case "idleTimeoutMs": idleTimeoutMs = whole(name, value, 100, 3600000); break;
            case "maxBodyBytes": maxBodyBytes = (int) whole(name, value, 1024, 1 << 26); break;
            case "products": products = (int) whole(name, value, 10, 100000000); break;
            case "users": users = (int) whole(name, value, 1, 100000000); break;
            case "cacheFraction": cacheFraction = decimal(name, value, 0, 0.9); break;
            case "updatesPerSecond": updatesPerSecond = (int) whole(name, value, 0, 1000000); break;
            case "batchIntervalMs": batchIntervalMs = whole(name, value, 0, 86400000); break;
            case "batchMb": batchMb = (int) whole(name, value, 1, 1 << 20); break;
            case "batchHoldMs": batchHoldMs = whole(name, value, 0, 3600000); break;
            case "ruleClasses": ruleClasses = (int) whole(name, value, 1, 10000000); break;
            case "classesPerSecond": classesPerSecond = decimal(name, value, 0, 100000); break;
            case "seed": seed = whole(name, value, Long.MIN_VALUE, Long.MAX_VALUE); break;
            case "logIntervalS": logIntervalS = (int) whole(name, value, 1, 86400); break;
            default: throw new Invalid("unknown property -Dapi." + name + " (see --help)");
        }
    }

    private static long whole(String name, String value, long min, long max) throws Invalid {
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new Invalid("-Dapi." + name + ": expected a whole number, got '" + value + "'");
        }
        if (n < min || n > max) {
            throw new Invalid("-Dapi." + name + ": " + n + " is out of range [" + min + ", " + max + "]");
        }
        return n;
    }

    private static double decimal(String name, String value, double min, double max) throws Invalid {
        double x;
        try {
            x = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new Invalid("-Dapi." + name + ": expected a number, got '" + value + "'");
        }
        if (!(x >= min && x <= max)) {
            throw new Invalid("-Dapi." + name + ": " + value.trim() + " is out of range [" + min + ", " + max + "]");
        }
        return x;
    }

    /** The product cache's budget in bytes. */
    long cacheBytes() {
        return (long) (cacheFraction * Runtime.getRuntime().maxMemory());
    }

    /** One line with every setting, printed at start-up. */
    String describe() {
        String batch = batchIntervalMs == 0 ? "off"
                : batchMb + " MB every " + batchIntervalMs + " ms held " + batchHoldMs + " ms";
        return String.format(Locale.ROOT, "ApiService: threads=%d queue=%d idleTimeoutMs=%d maxBodyBytes=%d "
                        + "products=%d users=%d cache=%.1f MB (%.2f of max heap %d MB) updatesPerSecond=%d "
                        + "batch=%s ruleClasses=%d classesPerSecond=%.1f seed=%d",
                threads, queue, idleTimeoutMs, maxBodyBytes, products, users, cacheBytes() / 1048576.0,
                cacheFraction, Runtime.getRuntime().maxMemory() >> 20, updatesPerSecond, batch, ruleClasses,
                classesPerSecond, seed);
    }
}
