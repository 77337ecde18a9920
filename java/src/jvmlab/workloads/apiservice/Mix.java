package jvmlab.workloads.apiservice;

/**
 * Deterministic pseudo-random values from a seed and keys, so that every id has the same content on every run
 * and JDK, whatever the order of requests. The SplitMix64 finaliser (Steele, Lea, Flood: "Fast splittable
 * pseudorandom number generators", OOPSLA 2014).
 */
final class Mix {
    private Mix() {
    }

    static long hash(long seed, long key) {
        long z = seed + (key + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static long hash(long seed, long key, long salt) {
        return hash(hash(seed, key), salt);
    }

    /** A value in [0, n) from a hash. */
    static int below(long hash, int n) {
        return (int) ((hash >>> 1) % n);
    }

    /** A whole number in [1, n] from a hash: an id of a catalog of n. */
    static long id(long hash, int n) {
        return 1 + below(hash, n);
    }
}
