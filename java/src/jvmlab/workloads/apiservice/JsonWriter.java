package jvmlab.workloads.apiservice;

import java.nio.charset.StandardCharsets;

/**
 * JSON text into a StringBuilder, commas placed for the caller; then UTF-8 bytes, as a web framework's
 * serialiser does for every response.
 */
final class JsonWriter {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private final StringBuilder out;
    private boolean comma;

    JsonWriter(int capacity) {
        out = new StringBuilder(capacity);
    }

    JsonWriter beginObject() {
        separate();
        out.append('{');
        comma = false;
        return this;
    }

    JsonWriter endObject() {
        out.append('}');
        comma = true;
        return this;
    }

    JsonWriter beginArray() {
        separate();
        out.append('[');
        comma = false;
        return this;
    }

    JsonWriter endArray() {
        out.append(']');
        comma = true;
        return this;
    }

    JsonWriter name(String name) {
        separate();
        quoted(name);
        out.append(':');
        comma = false;
        return this;
    }

    JsonWriter value(String value) {
        separate();
        if (value == null) {
            out.append("null");
        } else {
            quoted(value);
        }
        comma = true;
        return this;
    }

    JsonWriter value(long value) {
        separate();
        out.append(value);
        comma = true;
        return this;
    }

    JsonWriter value(boolean value) {
        separate();
        out.append(value);
        comma = true;
        return this;
    }

    /** An amount of cents as a decimal number: 1999 is 19.99. */
    JsonWriter money(long cents) {
        separate();
        if (cents < 0) {
            out.append('-');
            cents = -cents;
        }
        out.append(cents / 100).append('.');
        long rest = cents % 100;
        out.append(rest < 10 ? "0" : "").append(rest);
        comma = true;
        return this;
    }

    /** Tenths as a decimal number: 47 is 4.7. */
    JsonWriter tenths(long tenths) {
        separate();
        out.append(tenths / 10).append('.').append(tenths % 10);
        comma = true;
        return this;
    }

    JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    JsonWriter field(String name, boolean value) {
        return name(name).value(value);
    }

    byte[] toBytes() {
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void separate() {
        if (comma) {
            out.append(',');
        }
    }

    private void quoted(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 15]);
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
