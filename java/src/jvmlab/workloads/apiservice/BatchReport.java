package jvmlab.workloads.apiservice;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The periodic sales report: reads a day of sales rows (about {@code mb} MB of objects), aggregates them by
 * category and region, by hour and by product, renders the report, holds all of it while the report is
 * "uploaded" ({@code holdMs}), then drops it: a burst of allocation and of live data at every run.
 */
final class BatchReport extends Periodic {
    private static final long MB = 1 << 20;
    private static final int TOP_PRODUCTS = 100;
    private final Catalog catalog;
    private final long seed;
    private final long bytes;
    private final long holdMs;
    private volatile Object held; // the rows and the report of the run under way: reachable until dropped
    private volatile long runs;
    private volatile long lastMillis;

    BatchReport(Catalog catalog, long seed, long intervalMs, int mb, long holdMs) {
        super("batch-report", intervalMs * 1000000L);
        this.catalog = catalog;
        this.seed = seed;
        this.bytes = mb * MB;
        this.holdMs = holdMs;
    }

    @Override
    void tick() throws InterruptedException {
        long start = System.nanoTime();
        List<Sale> sales = readSales(runs);
        held = new Object[] {sales, render(sales)};
        lastMillis = (System.nanoTime() - start) / 1000000L;
        try {
            Thread.sleep(holdMs);
        } finally {
            held = null;
            runs++;
        }
    }

    private List<Sale> readSales(long run) {
        List<Sale> sales = new ArrayList<Sale>();
        long total = 0;
        for (long row = 0; total < bytes; row++) {
            long h = Mix.hash(seed ^ run, row);
            long productId = Mix.id(h, catalog.size());
            int quantity = 1 + Mix.below(h >>> 8, 4);
            Sale sale = new Sale(row / 3, productId, decoded(catalog.category(productId)),
                    decoded(Words.pick(Words.REGIONS, h >>> 16)), Mix.below(h >>> 24, 24), quantity,
                    quantity * catalog.priceCents(productId));
            sales.add(sale);
            total += sale.footprintBytes();
        }
        return sales;
    }

    /** A string as a driver decodes it from a row's bytes: a copy of its own. */
    private static String decoded(String s) {
        return new String(s.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.ISO_8859_1);
    }

    private static byte[] render(List<Sale> sales) {
        Map<String, long[]> byCategoryRegion = new HashMap<String, long[]>();
        Map<Long, long[]> byProduct = new HashMap<Long, long[]>();
        long[] byHour = new long[24];
        for (Sale s : sales) {
            add(byCategoryRegion, s.category + "/" + s.region, s);
            add(byProduct, s.productId, s);
            byHour[s.hour] += s.amountCents;
        }
        StringBuilder text = new StringBuilder(64 * 1024).append("category/region,units,revenue\n");
        for (Map.Entry<String, long[]> e : sorted(byCategoryRegion, byCategoryRegion.size())) {
            line(text, e.getKey(), e.getValue());
        }
        text.append("hour,revenue\n");
        for (int hour = 0; hour < 24; hour++) {
            text.append(hour).append(',').append(byHour[hour]).append('\n');
        }
        text.append("product,units,revenue\n");
        for (Map.Entry<Long, long[]> e : sorted(byProduct, TOP_PRODUCTS)) {
            line(text, "SKU-" + e.getKey(), e.getValue());
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static <K> void add(Map<K, long[]> totals, K key, Sale sale) {
        long[] sum = totals.get(key);
        if (sum == null) {
            sum = new long[2];
            totals.put(key, sum);
        }
        sum[0] += sale.quantity;
        sum[1] += sale.amountCents;
    }

    /** The entries with the highest revenue first, at most {@code limit}. */
    private static <K> List<Map.Entry<K, long[]>> sorted(Map<K, long[]> totals, int limit) {
        List<Map.Entry<K, long[]>> entries = new ArrayList<Map.Entry<K, long[]>>(totals.entrySet());
        Collections.sort(entries, new Comparator<Map.Entry<K, long[]>>() {
            @Override
            public int compare(Map.Entry<K, long[]> a, Map.Entry<K, long[]> b) {
                return Long.compare(b.getValue()[1], a.getValue()[1]);
            }
        });
        return entries.subList(0, Math.min(limit, entries.size()));
    }

    private static void line(StringBuilder text, String key, long[] sum) {
        text.append(key).append(',').append(sum[0]).append(',')
                .append(String.format(Locale.ROOT, "%.2f", sum[1] / 100.0)).append('\n');
    }

    long runs() {
        return runs;
    }

    /** How long the last run took to read and aggregate its rows and render the report. */
    long lastMillis() {
        return lastMillis;
    }
}
