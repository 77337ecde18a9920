package jvmlab.workloads.apiservice;

import java.nio.charset.StandardCharsets;

/**
 * Maps a request to its endpoint: 404 for an unknown path, 405 (with Allow) for a method the path does not
 * take, the endpoint's own error for a bad parameter, 500 for a failure in the service (never its stack
 * trace: that goes to {@link Stats#failure}).
 */
final class Router {
    private static final String PRODUCTS = "/api/products/";
    private static final String USERS = "/api/users/";
    private static final String ORDERS = "/orders";
    private static final byte[] UP = "{\"status\":\"up\"}".getBytes(StandardCharsets.UTF_8);

    private final CatalogApi catalog;
    private final OrderApi orders;
    private final Stats stats;

    Router(CatalogApi catalog, OrderApi orders, Stats stats) {
        this.catalog = catalog;
        this.orders = orders;
        this.stats = stats;
    }

    HttpResponse respond(HttpRequest request) {
        try {
            return route(request);
        } catch (HttpException e) {
            return HttpResponse.error(e);
        } catch (RuntimeException e) {
            stats.failure(e);
            return HttpResponse.error(500, "the service failed; see its log", null);
        }
    }

    private HttpResponse route(HttpRequest r) throws HttpException {
        String path = r.path;
        if (path.equals("/health")) {
            get(r);
            return HttpResponse.json(200, UP);
        } else if (path.equals("/api/search")) {
            get(r);
            return catalog.search(new QueryString(r.query));
        } else if (path.equals("/api/orders")) {
            post(r);
            return orders.place(r.body);
        } else if (path.startsWith(PRODUCTS) && path.length() > PRODUCTS.length()
                && path.indexOf('/', PRODUCTS.length()) < 0) {
            get(r);
            return catalog.product(id(path.substring(PRODUCTS.length()), "product"));
        } else if (path.startsWith(USERS) && path.endsWith(ORDERS)
                && path.indexOf('/', USERS.length()) == path.length() - ORDERS.length()
                && path.length() > USERS.length() + ORDERS.length()) {
            get(r);
            long id = id(path.substring(USERS.length(), path.length() - ORDERS.length()), "user");
            return orders.recentOrders(id, new QueryString(r.query));
        }
        throw HttpException.of(404, "no resource at " + path);
    }

    private static void get(HttpRequest r) throws HttpException {
        if (!r.method.equals("GET") && !r.isHead()) {
            throw HttpException.methodNotAllowed(r.method, "GET, HEAD");
        }
    }

    private static void post(HttpRequest r) throws HttpException {
        if (!r.method.equals("POST")) {
            throw HttpException.methodNotAllowed(r.method, "POST");
        }
    }

    private static long id(String segment, String what) throws HttpException {
        if (segment.length() <= 18) {
            try {
                long id = Long.parseLong(segment);
                if (id >= 1 && segment.charAt(0) != '+') {
                    return id;
                }
            } catch (NumberFormatException e) {
                // answered below
            }
        }
        throw HttpException.of(400, what + " id must be a whole number from 1, not '" + segment + "'");
    }
}
