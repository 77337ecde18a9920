package jvmlab.workloads.chunkgen;

import java.util.Random;

/** Ken Perlin's improved noise (2002) over a permutation shuffled from a seed, with a random origin offset. */
final class PerlinNoise {
    private final int[] permutation = new int[512];
    private final double originX;
    private final double originY;
    private final double originZ;

    PerlinNoise(Random random) {
        originX = random.nextDouble() * 256.0;
        originY = random.nextDouble() * 256.0;
        originZ = random.nextDouble() * 256.0;
        for (int i = 0; i < 256; i++) {
            permutation[i] = i;
        }
        for (int i = 255; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = permutation[i];
            permutation[i] = permutation[j];
            permutation[j] = t;
        }
        System.arraycopy(permutation, 0, permutation, 256, 256);
    }

    /** Noise in about [-1, 1] at (x, y, z); 0 at every lattice point. */
    double sample(double x, double y, double z) {
        x += originX;
        y += originY;
        z += originZ;
        int xi = floor(x);
        int yi = floor(y);
        int zi = floor(z);
        double xf = x - xi;
        double yf = y - yi;
        double zf = z - zi;
        int[] p = permutation;
        int a = p[xi & 255] + (yi & 255);
        int aa = p[a] + (zi & 255);
        int ab = p[a + 1] + (zi & 255);
        int b = p[(xi + 1) & 255] + (yi & 255);
        int ba = p[b] + (zi & 255);
        int bb = p[b + 1] + (zi & 255);
        double u = fade(xf);
        double v = fade(yf);
        double w = fade(zf);
        double x1 = lerp(u, grad(p[aa], xf, yf, zf), grad(p[ba], xf - 1, yf, zf));
        double x2 = lerp(u, grad(p[ab], xf, yf - 1, zf), grad(p[bb], xf - 1, yf - 1, zf));
        double x3 = lerp(u, grad(p[aa + 1], xf, yf, zf - 1), grad(p[ba + 1], xf - 1, yf, zf - 1));
        double x4 = lerp(u, grad(p[ab + 1], xf, yf - 1, zf - 1), grad(p[bb + 1], xf - 1, yf - 1, zf - 1));
        return lerp(w, lerp(v, x1, x2), lerp(v, x3, x4));
    }

    static int floor(double v) {
        int i = (int) v;
        return v < i ? i - 1 : i;
    }

    static double lerp(double t, double a, double b) {
        return a + t * (b - a);
    }

    private static double fade(double t) {
        return t * t * t * (t * (t * 6 - 15) + 10);
    }

    /** The dot product of (x, y, z) with one of the 12 cube-edge gradients picked by the hash. */
    private static double grad(int hash, double x, double y, double z) {
        int h = hash & 15;
        double u = h < 8 ? x : y;
        double v = h < 4 ? y : (h == 12 || h == 14 ? x : z);
        return ((h & 1) == 0 ? u : -u) + ((h & 2) == 0 ? v : -v);
    }
}
