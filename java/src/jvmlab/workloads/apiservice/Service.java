package jvmlab.workloads.apiservice;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The service put together: the catalog and its cache with the change feed, the customers, the campaigns'
 * rule classes, the endpoints behind the HTTP server, the batch report and the status line; then the
 * commands on stdin until {@code stop}.
 */
public final class Service {
    final Stats stats = new Stats();
    final ProductCache cache;
    final PricingRules rules;
    final BatchReport batch;
    private final Config config;
    private final PrintStream out;
    private final Catalog catalog;
    private final CatalogUpdates updates;
    private final StatusLine status;
    private final long startNanos = System.nanoTime();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private HttpServer server;

    private Service(Config config, PrintStream out) {
        this.config = config;
        this.out = out;
        catalog = new Catalog(config.seed, config.products);
        cache = new ProductCache(catalog, config.cacheBytes());
        updates = config.updatesPerSecond > 0 && config.cacheFraction > 0
                ? new CatalogUpdates(catalog, cache, config.seed, config.updatesPerSecond) : null;
        rules = new PricingRules(config.seed, config.ruleClasses, config.classesPerSecond);
        batch = config.batchIntervalMs > 0
                ? new BatchReport(catalog, config.seed, config.batchIntervalMs, config.batchMb, config.batchHoldMs)
                : null;
        status = new StatusLine(this, out, config.logIntervalS);
    }

    /** Runs the service with a command line; returns the exit status (0 done, 1 failed, 2 bad settings). */
    public static int main(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(Config.USAGE);
            return 0;
        } else if (args.length > 0) {
            System.err.println("ApiService: unexpected argument '" + args[0] + "' (settings are -Dapi.NAME=value; "
                    + "see --help)");
            return 2;
        }
        Config config;
        try {
            config = Config.from(System.getProperties());
        } catch (Config.Invalid e) {
            System.err.println("ApiService: " + e.getMessage());
            return 2;
        }
        Service service = new Service(config, System.out);
        try {
            service.start();
        } catch (IOException e) {
            System.err.println("ApiService: cannot listen on " + config.host + ":" + config.port + ": "
                    + e.getMessage());
            return 1;
        }
        service.readCommands(System.in);
        return 0;
    }

    private void start() throws IOException {
        out.println(config.describe());
        long compileStart = System.nanoTime();
        rules.compileAll();
        out.printf(Locale.ROOT, "ApiService: %d pricing-rule classes made in %.2f s%n", config.ruleClasses,
                (System.nanoTime() - compileStart) / 1e9);
        Router router = new Router(new CatalogApi(catalog, cache, config.seed),
                new OrderApi(catalog, cache, new Customers(config.seed, config.users), rules), stats);
        server = new HttpServer(config, router, stats);
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                stop();
            }
        }, "api-shutdown"));
        if (!TermSignal.install()) {
            System.err.println("ApiService: this JVM does not let SIGTERM be handled; it will exit with status 143");
        }
        int port = server.start();
        out.println("ApiService listening on port " + port);
        out.flush();
        startBackground();
    }

    private void startBackground() {
        status.start();
        if (config.classesPerSecond > 0) {
            rules.start();
        }
        if (updates != null) {
            updates.start();
        }
        if (batch != null) {
            batch.start();
        }
    }

    /** Reads commands until {@code stop} (exits 0) or the end of stdin (the service goes on). */
    private void readCommands(InputStream in) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        try {
            for (String line; (line = reader.readLine()) != null;) {
                if (line.trim().equals("stop")) {
                    System.exit(0);
                } else if (!line.trim().isEmpty()) {
                    System.err.println("ApiService: unknown command '" + line.trim() + "' (the command is: stop)");
                }
            }
        } catch (IOException e) {
            System.err.println("ApiService: stdin unreadable, no commands: " + e.getMessage());
        }
    }

    /** Stops everything (once), then prints the totals. */
    private void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        status.stop();
        rules.stop();
        if (updates != null) {
            updates.stop();
        }
        if (batch != null) {
            batch.stop();
        }
        server.stop();
        out.printf(Locale.ROOT,
                "ApiService stopped: requests=%d errors=%d client_errors=%d rejected=%d uptime_s=%.1f%n",
                stats.responses(), stats.errors(), stats.clientErrors(), stats.rejectedCount(),
                (System.nanoTime() - startNanos) / 1e9);
        out.flush();
    }
}
