package jvmlab.workloads.apiservice;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The account endpoints: a customer's recent orders, and placing an order priced by the campaigns' rules. */
final class OrderApi {
    private static final int MAX_LINES = 50;
    private static final int MAX_QUANTITY = 99;

    private final Catalog catalog;
    private final ProductCache cache;
    private final Customers customers;
    private final PricingRules rules;

    OrderApi(Catalog catalog, ProductCache cache, Customers customers, PricingRules rules) {
        this.catalog = catalog;
        this.cache = cache;
        this.customers = customers;
        this.rules = rules;
    }

    /** GET /api/users/{id}/orders?limit=10. */
    HttpResponse recentOrders(long userId, QueryString params) throws HttpException {
        if (!customers.contains(userId)) {
            throw HttpException.of(404, "no user " + userId);
        }
        int limit = params.integer("limit", 10, 1, 50);
        JsonWriter w = new JsonWriter(8192).beginObject().name("user");
        customers.user(userId).write(w);
        w.field("orderCount", customers.orderCount(userId)).name("orders").beginArray();
        for (Order order : customers.recentOrders(userId, limit, cache, catalog)) {
            order.write(w);
        }
        return HttpResponse.json(200, w.endArray().endObject());
    }

    /** POST /api/orders with {"userId": 7, "items": [{"productId": 42, "quantity": 2}, ...]}. */
    HttpResponse place(byte[] body) throws HttpException {
        Map<String, Object> order = object(parse(body), "the body");
        long userId = whole(order.get("userId"), "userId", 1, Long.MAX_VALUE);
        if (!customers.contains(userId)) {
            throw HttpException.of(404, "no user " + userId);
        }
        Object items = order.get("items");
        if (!(items instanceof List) || ((List<?>) items).isEmpty() || ((List<?>) items).size() > MAX_LINES) {
            throw HttpException.of(400, "items must be an array of 1 to " + MAX_LINES + " items");
        }
        List<OrderLine> lines = lines((List<?>) items);
        PricingRules.Outcome pricing = rules.apply(userId, Order.subtotal(lines), Order.items(lines));
        Order placed = new Order(orderId(userId, lines), userId, Customers.TODAY, "accepted", lines,
                pricing.campaign, pricing.discountCents);
        JsonWriter w = new JsonWriter(2048);
        placed.write(w);
        return HttpResponse.json(201, w);
    }

    private List<OrderLine> lines(List<?> items) throws HttpException {
        List<OrderLine> lines = new ArrayList<OrderLine>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String at = "items[" + i + "]";
            Map<String, Object> item = object(items.get(i), at);
            long productId = whole(item.get("productId"), at + ".productId", 1, Long.MAX_VALUE);
            if (!catalog.contains(productId)) {
                throw HttpException.of(404, "no product " + productId);
            }
            int quantity = (int) whole(item.get("quantity"), at + ".quantity", 1, MAX_QUANTITY);
            lines.add(new OrderLine(cache.get(productId), quantity));
        }
        return lines;
    }

    private static Object parse(byte[] body) throws HttpException {
        try {
            return JsonReader.parse(new String(body, StandardCharsets.UTF_8));
        } catch (JsonReader.Invalid e) {
            throw HttpException.of(400, e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String what) throws HttpException {
        if (!(value instanceof Map)) {
            throw HttpException.of(400, what + " must be a JSON object");
        }
        return (Map<String, Object>) value;
    }

    private static long whole(Object value, String what, long min, long max) throws HttpException {
        if (!(value instanceof Long) || (Long) value < min || (Long) value > max) {
            throw HttpException.of(400, what + " must be a whole number from " + min + (max == Long.MAX_VALUE
                    ? " up" : " to " + max));
        }
        return (Long) value;
    }

    /** The same order gets the same id: a hash of the customer and the lines. */
    private static String orderId(long userId, List<OrderLine> lines) {
        long h = userId;
        for (OrderLine line : lines) {
            h = Mix.hash(h, line.productId, line.quantity);
        }
        return String.format(Locale.ROOT, "ORD-%016X", h);
    }
}
