package jvmlab.workloads.apiservice;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** A response: status, a JSON body, and the head that goes before it on the wire. */
final class HttpResponse {
    final int status;
    final byte[] body;
    private final String allow;

    private HttpResponse(int status, byte[] body, String allow) {
        this.status = status;
        this.body = body;
        this.allow = allow;
    }

    static HttpResponse json(int status, JsonWriter json) {
        return new HttpResponse(status, json.toBytes(), null);
    }

    static HttpResponse json(int status, byte[] body) {
        return new HttpResponse(status, body, null);
    }

    static HttpResponse error(HttpException e) {
        return error(e.status, e.getMessage(), e.allow);
    }

    /** {"status": 404, "error": "Not Found", "message": "..."}, and an Allow header for 405. */
    static HttpResponse error(int status, String message, String allow) {
        JsonWriter w = new JsonWriter(128 + message.length()).beginObject().field("status", status)
                .field("error", reason(status)).field("message", message).endObject();
        return new HttpResponse(status, w.toBytes(), allow);
    }

    /** The head and the body (none for HEAD) to write; {@code keepAlive} decides the Connection header. */
    ByteBuffer[] encode(boolean keepAlive, boolean http11, boolean withBody) {
        StringBuilder head = new StringBuilder(160).append("HTTP/1.1 ").append(status).append(' ')
                .append(reason(status)).append("\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ")
                .append(body.length).append("\r\n");
        if (!keepAlive) {
            head.append("Connection: close\r\n");
        } else if (!http11) {
            head.append("Connection: keep-alive\r\n");
        }
        if (allow != null) {
            head.append("Allow: ").append(allow).append("\r\n");
        }
        ByteBuffer headBytes = ByteBuffer.wrap(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        return withBody ? new ByteBuffer[] {headBytes, ByteBuffer.wrap(body)} : new ByteBuffer[] {headBytes};
    }

    static String reason(int status) {
        switch (status) {
            case 200: return "OK";
            case 201: return "Created";
            case 400: return "Bad Request";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 411: return "Length Required";
            case 413: return "Content Too Large";
            case 431: return "Request Header Fields Too Large";
            case 500: return "Internal Server Error";
            case 503: return "Service Unavailable";
            case 505: return "HTTP Version Not Supported";
            default: throw new IllegalArgumentException("no reason phrase for status " + status);
        }
    }
}
