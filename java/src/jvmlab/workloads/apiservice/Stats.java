package jvmlab.workloads.apiservice;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The service's counters: responses by status class, connections refused for a full queue, connections open,
 * failures. A failure's stack trace goes to stderr for the first few only, never to the client.
 */
final class Stats {
    private static final int PRINTED_FAILURES = 5;
    private final LongAdder responses = new LongAdder();
    private final LongAdder clientErrors = new LongAdder();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final AtomicInteger open = new AtomicInteger();

    void responded(int status) {
        responses.increment();
        if (status >= 500) {
            serverErrors.increment();
        } else if (status >= 400) {
            clientErrors.increment();
        }
    }

    /** A connection answered 503 because the request queue was full. */
    void rejected() {
        rejected.increment();
        responded(503);
    }

    void opened() {
        open.incrementAndGet();
    }

    void closed() {
        open.decrementAndGet();
    }

    /** A failure of the service itself (a bug, or an Error such as OutOfMemoryError). */
    void failure(Throwable t) {
        failures.increment();
        if (failures.sum() <= PRINTED_FAILURES) {
            System.err.println("ApiService: request failed (the first " + PRINTED_FAILURES + " failures are shown)");
            t.printStackTrace();
        }
    }

    long responses() {
        return responses.sum();
    }

    /** Responses with a 5xx status, the 503s of a full queue included. */
    long errors() {
        return serverErrors.sum();
    }

    long clientErrors() {
        return clientErrors.sum();
    }

    long rejectedCount() {
        return rejected.sum();
    }

    int openConnections() {
        return open.get();
    }
}
