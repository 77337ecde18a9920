package jvmlab.workloads.apiservice;

import java.util.List;
import java.util.Map;

/**
 * Approximate heap sizes of the objects the cache and the batch job hold, for their byte budgets: 64-bit JVM
 * with compressed pointers and compact (Latin-1) strings. An estimate, not a measurement.
 */
final class Footprint {
    static final int OBJECT = 16;
    static final int REFERENCE = 4;

    private Footprint() {
    }

    static long string(String s) {
        return 24 + 16 + s.length(); // String + its byte[]
    }

    static long strings(List<String> list) {
        long bytes = 24 + 16 + REFERENCE * list.size(); // ArrayList + its array
        for (String s : list) {
            bytes += string(s);
        }
        return bytes;
    }

    static long map(Map<String, String> map) {
        long bytes = 56 + 16 + 8L * map.size(); // LinkedHashMap + its table
        for (Map.Entry<String, String> e : map.entrySet()) {
            bytes += 40 + string(e.getKey()) + string(e.getValue()); // entry + key + value
        }
        return bytes;
    }
}
