package jvmlab.workloads.apiservice;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The status line, one per interval (never one per request):
 * {@code status: t_s=30 requests=36012 rate=1200.4/s errors=0 client_errors=3 rejected=0 connections=16
 * cache_entries=51234 cache_mb=210.3 hit=61.2% rule_classes=2600 batches=3 last_batch_ms=412 heap_used_mb=730}.
 */
final class StatusLine extends Periodic {
    private final Service service;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private long lastResponses;
    private long lastNanos = startNanos;

    StatusLine(Service service, PrintStream out, int intervalS) {
        super("status-line", intervalS * 1000000000L);
        this.service = service;
        this.out = out;
    }

    @Override
    void tick() {
        long now = System.nanoTime();
        long responses = service.stats.responses();
        double rate = (responses - lastResponses) / ((now - lastNanos) / 1e9);
        lastResponses = responses;
        lastNanos = now;
        out.println(line(Math.round((now - startNanos) / 1e9), responses, rate));
    }

    private String line(long seconds, long responses, double rate) {
        Stats s = service.stats;
        ProductCache cache = service.cache;
        long lookups = cache.hits() + cache.misses();
        Runtime rt = Runtime.getRuntime();
        return String.format(Locale.ROOT, "status: t_s=%d requests=%d rate=%.1f/s errors=%d client_errors=%d "
                        + "rejected=%d connections=%d cache_entries=%d cache_mb=%.1f hit=%.1f%% rule_classes=%d "
                        + "batches=%d last_batch_ms=%d heap_used_mb=%d",
                seconds, responses, rate, s.errors(), s.clientErrors(), s.rejectedCount(), s.openConnections(),
                cache.entries(), cache.bytes() / 1048576.0, lookups == 0 ? 0.0 : 100.0 * cache.hits() / lookups,
                service.rules.compiled(), service.batch == null ? 0 : service.batch.runs(),
                service.batch == null ? 0 : service.batch.lastMillis(), (rt.totalMemory() - rt.freeMemory()) >> 20);
    }
}
