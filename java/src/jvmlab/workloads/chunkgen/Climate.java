package jvmlab.workloads.chunkgen;

import java.util.Random;

/** Climate noises (continentalness, erosion, temperature, humidity) and the biome they make at a column. */
final class Climate {
    private final OctaveNoise continentalness;
    private final OctaveNoise erosion;
    private final OctaveNoise temperature;
    private final OctaveNoise humidity;

    Climate(long seed) {
        continentalness = new OctaveNoise(new Random(seed ^ 0x5DEECE66DL), 6, 1200);
        erosion = new OctaveNoise(new Random(seed + 17), 5, 700);
        temperature = new OctaveNoise(new Random(seed * 31 + 3), 5, 900);
        humidity = new OctaveNoise(new Random(seed * 37 + 5), 5, 800);
    }

    Biome biomeAt(int blockX, int blockZ) {
        double c = continentalness.sample2d(blockX, blockZ) * 1.6;
        double e = erosion.sample2d(blockX, blockZ) * 1.6;
        double t = temperature.sample2d(blockX, blockZ) * 1.6;
        double h = humidity.sample2d(blockX, blockZ) * 1.6;
        return Biome.of(c, e, t, h);
    }

    /**
     * Biomes on a grid of {@code n x n} points 4 blocks apart, the first at (originX, originZ): what the
     * terrain blends its shape from.
     */
    Biome[] grid(int originX, int originZ, int n) {
        Biome[] out = new Biome[n * n];
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < n; i++) {
                out[k * n + i] = biomeAt(originX + i * 4, originZ + k * 4);
            }
        }
        return out;
    }
}
