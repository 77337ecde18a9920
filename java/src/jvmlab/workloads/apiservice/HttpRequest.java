package jvmlab.workloads.apiservice;

import java.util.Map;

/** A request as read off a connection: its request line, headers (names in lower case) and body. */
final class HttpRequest {
    private static final byte[] NO_BODY = new byte[0];

    final String method;
    final String path;
    final String query;
    final boolean http11;
    final long contentLength;
    final byte[] body;
    private final Map<String, String> headers;

    /** A request's head; {@link #withBody} adds the body once it has arrived. */
    HttpRequest(String method, String path, String query, boolean http11, Map<String, String> headers,
            long contentLength) {
        this(method, path, query, http11, headers, contentLength, NO_BODY);
    }

    private HttpRequest(String method, String path, String query, boolean http11, Map<String, String> headers,
            long contentLength, byte[] body) {
        this.method = method;
        this.path = path;
        this.query = query;
        this.http11 = http11;
        this.headers = headers;
        this.contentLength = contentLength;
        this.body = body;
    }

    HttpRequest withBody(byte[] body) {
        return new HttpRequest(method, path, query, http11, headers, contentLength, body);
    }

    /** The header's value (several of one name joined by ", "), or null. */
    String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }

    /** Whether the client wants the connection kept: HTTP/1.1 unless "close", HTTP/1.0 only if "keep-alive". */
    boolean keepAlive() {
        String connection = header("connection");
        return http11 ? !hasToken(connection, "close") : hasToken(connection, "keep-alive");
    }

    boolean isHead() {
        return method.equals("HEAD");
    }

    private static boolean hasToken(String list, String token) {
        if (list == null) {
            return false;
        }
        for (String item : list.split(",")) {
            if (item.trim().equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }
}
