package jvmlab.workloads.chunkgen;

/** Chunk coordinates in concentric square rings around a centre, the order a pre-generator works in. */
final class Spiral {
    private Spiral() {
    }

    /** {@code (2r+1)^2} pairs {x0, z0, x1, z1, ...}: the centre, then ring 1, ring 2, ... ring r. */
    static int[] square(int centerX, int centerZ, int radius) {
        int side = 2 * radius + 1;
        int[] out = new int[side * side * 2];
        int n = 0;
        out[n++] = centerX;
        out[n++] = centerZ;
        for (int k = 1; k <= radius; k++) {
            for (int x = -k; x <= k; x++) {
                out[n++] = centerX + x;
                out[n++] = centerZ - k;
            }
            for (int z = -k + 1; z <= k; z++) {
                out[n++] = centerX + k;
                out[n++] = centerZ + z;
            }
            for (int x = k - 1; x >= -k; x--) {
                out[n++] = centerX + x;
                out[n++] = centerZ + k;
            }
            for (int z = k - 1; z >= -k + 1; z--) {
                out[n++] = centerX - k;
                out[n++] = centerZ + z;
            }
        }
        return out;
    }
}
