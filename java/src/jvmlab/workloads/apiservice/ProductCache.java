package jvmlab.workloads.apiservice;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The long-lived product cache, bounded in estimated bytes (a fraction of the max heap): products are loaded
 * from the catalog on a miss and put in; catalog updates put new versions in (a write-through near cache).
 * Every version is dropped oldest first once the budget is spent, so entries live for a while (several young
 * collections under load) and then die, in the old generation if they were promoted.
 */
final class ProductCache {
    private final Catalog catalog;
    private final long capacityBytes;
    private final ConcurrentHashMap<Long, Product> entries = new ConcurrentHashMap<Long, Product>();
    private final ConcurrentLinkedQueue<Product> oldestFirst = new ConcurrentLinkedQueue<Product>();
    private final AtomicLong bytes = new AtomicLong();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    ProductCache(Catalog catalog, long capacityBytes) {
        this.catalog = catalog;
        this.capacityBytes = capacityBytes;
    }

    /** The product, from the cache or loaded into it; {@code catalog.contains(id)} must hold. */
    Product get(long id) {
        Product product = entries.get(id);
        if (product != null) {
            hits.increment();
            return product;
        }
        misses.increment();
        product = catalog.product(id);
        put(product);
        return product;
    }

    /** Puts a product's new version in, replacing the one there. */
    void put(Product product) {
        if (capacityBytes <= 0) {
            return;
        }
        entries.put(product.id, product);
        oldestFirst.add(product);
        if (bytes.addAndGet(product.footprintBytes) > capacityBytes) {
            evict();
        }
    }

    private void evict() {
        while (bytes.get() > capacityBytes) {
            Product oldest = oldestFirst.poll();
            if (oldest == null) {
                return;
            }
            entries.remove(oldest.id, oldest);
            bytes.addAndGet(-oldest.footprintBytes);
        }
    }

    int entries() {
        return entries.size();
    }

    /** Estimated bytes held, superseded versions included until they are dropped. */
    long bytes() {
        return bytes.get();
    }

    long hits() {
        return hits.sum();
    }

    long misses() {
        return misses.sum();
    }
}
