package jvmlab.workloads;

import jvmlab.workloads.apiservice.Service;

/**
 * apiservice: a portal's HTTP API in plain Java (no dependencies; JDK 8+), the workload of the load
 * experiments. Product pages, search, order histories and order placement answered in JSON, each request
 * building and dropping an object graph; a product cache sized from the max heap with steady churn; a batch
 * report every few seconds that loads, holds and drops a burst of objects; pricing-rule classes generated in
 * class loaders of their own, many at start-up and then steadily, each loader released after a while
 * (metaspace growth, "Metadata GC Threshold" collections under default metaspace settings).
 *
 * <pre>
 * java -Dapi.port=8080 -cp build/java jvmlab.workloads.ApiService
 *   GET  /health                     {"status":"up"}
 *   GET  /api/products/{id}          a product with its related products
 *   GET  /api/search?q=..&amp;limit=20&amp;offset=0   ranked hits and facets
 *   GET  /api/users/{id}/orders?limit=10          a customer and their recent orders
 *   POST /api/orders                 {"userId":7,"items":[{"productId":42,"quantity":2}]} -> 201, the priced order
 * </pre>
 *
 * Settings are system properties (defaults shown; {@code --help} prints them):
 * <ul>
 * <li>{@code api.host=0.0.0.0}: address to listen on</li>
 * <li>{@code api.port=8080}: TCP port; 0 picks a free one, printed on the listening line</li>
 * <li>{@code api.threads=200}: worker threads (like Tomcat's maxThreads)</li>
 * <li>{@code api.queue=1000}: connections with a request waiting for a worker; beyond, 503</li>
 * <li>{@code api.idleTimeoutMs=30000}: an idle keep-alive connection, or a stalled client, is closed after this</li>
 * <li>{@code api.maxBodyBytes=65536}: larger request bodies are refused with 413</li>
 * <li>{@code api.products=500000}: catalog size, product ids 1..N</li>
 * <li>{@code api.users=100000}: customer accounts, user ids 1..N</li>
 * <li>{@code api.cacheFraction=0.25}: product cache budget as a fraction of the max heap (0: no cache)</li>
 * <li>{@code api.updatesPerSecond=100}: catalog updates written through into the cache per second</li>
 * <li>{@code api.batchIntervalMs=10000}: period of the batch report (0: none)</li>
 * <li>{@code api.batchMb=64}: sales rows the batch report reads, in MB of objects</li>
 * <li>{@code api.batchHoldMs=2000}: how long the batch report holds its rows and report</li>
 * <li>{@code api.ruleClasses=2000}: pricing-rule classes made at start-up, each in a class loader of its own</li>
 * <li>{@code api.classesPerSecond=20}: rule classes made again per second, each releasing the oldest loader</li>
 * <li>{@code api.seed=42}: seed of all the content (products, users, campaigns, batch rows)</li>
 * <li>{@code api.logIntervalS=10}: seconds between status lines</li>
 * </ul>
 *
 * Prints its settings, then {@code ApiService listening on port N} once it accepts connections, then a status
 * line every {@code api.logIntervalS} seconds. The line {@code stop} on stdin, or SIGTERM, ends it with exit
 * status 0 after {@code ApiService stopped: requests=N errors=N client_errors=N rejected=N uptime_s=X}.
 * Exit status 2 for bad settings, 1 when it cannot listen or fails to start.
 */
public final class ApiService {
    private ApiService() {
    }

    public static void main(String[] args) {
        int status = 1;
        try {
            status = Service.main(args);
        } catch (Throwable t) { // a failure to start, OutOfMemoryError included: say so, and end
            t.printStackTrace();
        } finally {
            System.out.flush();
            if (status != 0) {
                System.exit(status);
            }
        }
    }
}
