package jvmlab.workloads.apiservice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON parser for request bodies: objects (LinkedHashMap), arrays (ArrayList), strings, numbers (Long
 * when whole, else Double), booleans and null. Throws {@link Invalid} with the offset of the first error.
 */
final class JsonReader {
    private static final int MAX_DEPTH = 32;
    private final String text;
    private int pos;

    /** Text that is not one JSON value. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    private JsonReader(String text) {
        this.text = text;
    }

    static Object parse(String text) throws Invalid {
        JsonReader reader = new JsonReader(text);
        Object value = reader.value(0);
        reader.skipSpace();
        if (reader.pos < text.length()) {
            throw reader.error("end of input");
        }
        return value;
    }

    private Object value(int depth) throws Invalid {
        if (depth > MAX_DEPTH) {
            throw error("at most " + MAX_DEPTH + " nested levels");
        }
        skipSpace();
        char c = peek();
        if (c == '{') {
            return object(depth);
        } else if (c == '[') {
            return array(depth);
        } else if (c == '"') {
            return string();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
        }
        return literal();
    }

    private Map<String, Object> object(int depth) throws Invalid {
        Map<String, Object> map = new LinkedHashMap<String, Object>();
        pos++;
        skipSpace();
        if (peek() == '}') {
            pos++;
            return map;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("a member name");
            }
            String name = string();
            skipSpace();
            expect(':');
            map.put(name, value(depth + 1));
            skipSpace();
            if (peek() == '}') {
                pos++;
                return map;
            }
            expect(',');
        }
    }

    private List<Object> array(int depth) throws Invalid {
        List<Object> list = new ArrayList<Object>();
        pos++;
        skipSpace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            list.add(value(depth + 1));
            skipSpace();
            if (peek() == ']') {
                pos++;
                return list;
            }
            expect(',');
        }
    }

    private String string() throws Invalid {
        pos++;
        StringBuilder s = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return s.toString();
            } else if (c == '\\') {
                s.append(escape());
            } else if (c < 0x20) {
                throw error("no control character in a string");
            } else {
                s.append(c);
            }
        }
    }

    private char escape() throws Invalid {
        char c = next();
        switch (c) {
            case '"': case '\\': case '/': return c;
            case 'b': return '\b';
            case 'f': return '\f';
            case 'n': return '\n';
            case 'r': return '\r';
            case 't': return '\t';
            case 'u': return unicode();
            default: throw error("a valid escape");
        }
    }

    private char unicode() throws Invalid {
        if (pos + 4 > text.length()) {
            throw error("four hex digits");
        }
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(pos++), 16);
            if (digit < 0) {
                throw error("four hex digits");
            }
            code = code * 16 + digit;
        }
        return (char) code;
    }

    private Object number() throws Invalid {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        int digits = digits();
        boolean whole = true;
        if (pos < text.length() && text.charAt(pos) == '.') {
            pos++;
            whole = false;
            digits = Math.min(digits, digits());
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            pos++;
            whole = false;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            digits = Math.min(digits, digits());
        }
        if (digits == 0) {
            pos = start;
            throw error("a number");
        }
        String number = text.substring(start, pos);
        try {
            return whole ? (Object) Long.valueOf(number) : (Object) Double.valueOf(number);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("a number that fits in 64 bits");
        }
    }

    private int digits() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos - start;
    }

    private Object literal() throws Invalid {
        if (text.startsWith("true", pos)) {
            pos += 4;
            return Boolean.TRUE;
        } else if (text.startsWith("false", pos)) {
            pos += 5;
            return Boolean.FALSE;
        } else if (text.startsWith("null", pos)) {
            pos += 4;
            return null;
        }
        throw error("a value");
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private char peek() throws Invalid {
        if (pos >= text.length()) {
            throw error("more input");
        }
        return text.charAt(pos);
    }

    private char next() throws Invalid {
        char c = peek();
        pos++;
        return c;
    }

    private void expect(char c) throws Invalid {
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        pos++;
    }

    private Invalid error(String expected) {
        return new Invalid("invalid JSON at offset " + pos + ": expected " + expected);
    }
}
