package jvmlab.workloads.apiservice;

/**
 * The catalog's change feed: a steady number of product updates per second, each written through into the
 * cache as a new version, whatever the requests ask for. This keeps the cache churning even under a load
 * that asks for the same few ids.
 */
final class CatalogUpdates extends Periodic {
    private static final long TICK_NANOS = 100000000L;
    private static final long FEED = 5;
    private final Catalog catalog;
    private final ProductCache cache;
    private final long seed;
    private final double perTick;
    private double due;
    private long sent;

    CatalogUpdates(Catalog catalog, ProductCache cache, long seed, int perSecond) {
        super("catalog-updates", TICK_NANOS);
        this.catalog = catalog;
        this.cache = cache;
        this.seed = seed;
        this.perTick = perSecond * (TICK_NANOS / 1e9);
    }

    @Override
    void tick() {
        due += perTick;
        while (due >= 1) {
            long id = Mix.id(Mix.hash(seed, sent++, FEED), catalog.size());
            cache.put(catalog.product(id));
            due -= 1;
        }
    }
}
