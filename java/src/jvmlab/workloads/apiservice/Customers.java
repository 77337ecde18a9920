package jvmlab.workloads.apiservice;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The customer accounts 1 to {@code size} and their order histories, made from the seed and the ids alone; the
 * products of past orders come through the product cache, as the order page of a shop reads them.
 */
final class Customers {
    /** The day the histories end: 2024-06-01. */
    static final long TODAY = 19875;
    private static final long ACCOUNT = 11;
    private static final long HISTORY = 12;

    private final long seed;
    private final int size;

    Customers(long seed, int size) {
        this.seed = seed;
        this.size = size;
    }

    boolean contains(long id) {
        return id >= 1 && id <= size;
    }

    /** The id-th account; {@code contains(id)} must hold. */
    User user(long id) {
        long h = Mix.hash(seed, id, ACCOUNT);
        String first = Words.pick(Words.FIRST_NAMES, h);
        String last = Words.pick(Words.LAST_NAMES, h >>> 12);
        String email = (first + "." + last + id + "@example.com").toLowerCase(Locale.ROOT);
        return new User(id, first + " " + last, email, Words.pick(Words.TIERS, h >>> 24),
                Words.pick(Words.CITIES, h >>> 36), TODAY - 30 - Mix.below(h >>> 44, 3000));
    }

    /** How many orders the account has placed. */
    int orderCount(long userId) {
        return 1 + Mix.below(Mix.hash(seed, userId, HISTORY), 40);
    }

    /** The account's most recent orders, newest first. */
    List<Order> recentOrders(long userId, int limit, ProductCache products, Catalog catalog) {
        int count = Math.min(limit, orderCount(userId));
        List<Order> orders = new ArrayList<Order>(count);
        long day = TODAY;
        for (int k = 0; k < count; k++) {
            long h = Mix.hash(seed, userId * 64 + k, HISTORY);
            day -= 1 + Mix.below(h, 21);
            orders.add(new Order(String.format(Locale.ROOT, "ORD-%d-%03d", userId, k), userId, day,
                    k == 0 ? "processing" : Words.pick(Words.ORDER_STATES, h >>> 8),
                    lines(h, products, catalog), null, 0));
        }
        return orders;
    }

    private static List<OrderLine> lines(long h, ProductCache products, Catalog catalog) {
        int count = 1 + Mix.below(h >>> 16, 5);
        List<OrderLine> lines = new ArrayList<OrderLine>(count);
        for (int i = 0; i < count; i++) {
            long productId = Mix.id(Mix.hash(h, i), catalog.size());
            lines.add(new OrderLine(products.get(productId), 1 + Mix.below(Mix.hash(h, i + 100), 3)));
        }
        return lines;
    }
}
