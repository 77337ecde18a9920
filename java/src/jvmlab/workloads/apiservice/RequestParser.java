package jvmlab.workloads.apiservice;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses a request head (RFC 9112): request line, then header fields. Strict where leniency lets requests be
 * read two ways (spaces before a colon, folded lines, conflicting lengths, a length with a transfer coding);
 * everything wrong is a fatal {@link HttpException}: 400, 431 (too many fields), 411 (a chunked body), 413
 * (a body over the limit), 505 (a version other than 1.0 and 1.1).
 */
final class RequestParser {
    private static final int MAX_FIELDS = 100;
    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private RequestParser() {
    }

    /** The head in {@code bytes[from, to)}, its blank line excluded. */
    static HttpRequest parse(byte[] bytes, int from, int to, long maxBody) throws HttpException {
        List<String> lines = lines(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1));
        if (lines.size() - 1 > MAX_FIELDS) {
            throw HttpException.fatal(431, "more than " + MAX_FIELDS + " header fields");
        }
        String[] requestLine = requestLine(lines.get(0));
        boolean http11 = requestLine[2].equals("HTTP/1.1");
        Map<String, String> headers = new HashMap<String, String>();
        for (int i = 1; i < lines.size(); i++) {
            field(lines.get(i), headers);
        }
        if (http11 && headers.get("host") == null) {
            throw HttpException.fatal(400, "an HTTP/1.1 request needs a Host header");
        }
        String target = requestLine[1];
        int q = target.indexOf('?');
        return new HttpRequest(requestLine[0], q < 0 ? target : target.substring(0, q),
                q < 0 ? "" : target.substring(q + 1), http11, headers, bodyLength(headers, maxBody));
    }

    /** The lines of a head, each ended by LF or CRLF. */
    private static List<String> lines(String head) {
        List<String> lines = new ArrayList<String>(16);
        int start = 0;
        while (start <= head.length()) {
            int end = head.indexOf('\n', start);
            if (end < 0) {
                end = head.length();
            }
            lines.add(head.substring(start, end > start && head.charAt(end - 1) == '\r' ? end - 1 : end));
            start = end + 1;
        }
        return lines;
    }

    private static String[] requestLine(String line) throws HttpException {
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || !isToken(parts[0]) || !isTarget(parts[1])) {
            throw HttpException.fatal(400, "malformed request line");
        }
        String version = parts[2];
        if (version.length() != 8 || !version.startsWith("HTTP/") || !isDigits(version.substring(5, 6))
                || version.charAt(6) != '.' || !isDigits(version.substring(7))) {
            throw HttpException.fatal(400, "malformed HTTP version");
        }
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            throw HttpException.fatal(505, version + " is not supported; use HTTP/1.1");
        }
        return parts;
    }

    private static void field(String line, Map<String, String> headers) throws HttpException {
        int colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.substring(0, colon))) {
            throw HttpException.fatal(400, "malformed header field");
        }
        String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
        String value = line.substring(colon + 1).trim();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw HttpException.fatal(400, "control character in header " + name);
            }
        }
        String earlier = headers.get(name);
        if (earlier == null) {
            headers.put(name, value);
        } else if (name.equals("host") || (name.equals("content-length") && !earlier.equals(value))) {
            throw HttpException.fatal(400, "conflicting " + name + " headers");
        } else if (!name.equals("content-length")) {
            headers.put(name, earlier + ", " + value);
        }
    }

    private static long bodyLength(Map<String, String> headers, long maxBody) throws HttpException {
        String length = headers.get("content-length");
        String coding = headers.get("transfer-encoding");
        if (coding != null) {
            if (length != null) {
                throw HttpException.fatal(400, "both Content-Length and Transfer-Encoding");
            }
            if (coding.toLowerCase(Locale.ROOT).trim().endsWith("chunked")) {
                throw HttpException.fatal(411, "chunked request bodies are not supported; send Content-Length");
            }
            throw HttpException.fatal(400, "unknown transfer coding " + coding);
        }
        if (length == null) {
            return 0;
        }
        if (length.isEmpty() || length.length() > 18 || !isDigits(length)) {
            throw HttpException.fatal(400, "malformed Content-Length");
        }
        long n = Long.parseLong(length);
        if (n > maxBody) {
            throw HttpException.fatal(413, "request body of " + n + " bytes; the limit is " + maxBody);
        }
        return n;
    }

    private static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alphanumeric && TOKEN_SYMBOLS.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** An origin-form target: a path from '/', visible ASCII only. */
    private static boolean isTarget(String s) {
        if (!s.startsWith("/")) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
