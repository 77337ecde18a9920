package jvmlab.workloads.apiservice;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The parameters of a query string ({@code a=1&b=x+y}), percent-decoded as UTF-8; the first of a name wins. */
final class QueryString {
    private final Map<String, String> values = new HashMap<String, String>();

    QueryString(String query) throws HttpException {
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (!values.containsKey(name)) {
                values.put(name, eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
    }

    String get(String name) {
        return values.get(name);
    }

    /** A whole-number parameter in [min, max], or the default when absent. */
    int integer(String name, int fallback, int min, int max) throws HttpException {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw HttpException.of(400, name + " must be a whole number from " + min + " to " + max);
    }

    private static String decode(String s) throws HttpException {
        if (s.indexOf('%') < 0 && s.indexOf('+') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                bytes.write(' ');
            } else if (c != '%') {
                bytes.write(c);
            } else {
                int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
                if (lo < 0) {
                    throw HttpException.of(400, "malformed percent-encoding in the query string");
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            }
        }
        return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    }
}
