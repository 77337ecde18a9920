package jvmlab.workloads.chunkgen;

import java.util.Random;

/** Fractal noise: octaves of Perlin noise, each at twice the frequency and half the amplitude of the last. */
final class OctaveNoise {
    private final PerlinNoise[] octaves;
    private final double baseFrequency;
    private final double normalization;

    /** {@code count} octaves, the lowest with a wavelength of {@code wavelength} blocks. */
    OctaveNoise(Random random, int count, double wavelength) {
        octaves = new PerlinNoise[count];
        for (int i = 0; i < count; i++) {
            octaves[i] = new PerlinNoise(random);
        }
        baseFrequency = 1.0 / wavelength;
        normalization = 1.0 / (2.0 - StrictMath.pow(0.5, count - 1)); // sum of the amplitudes 1 + 1/2 + ...
    }

    /** About [-1, 1]. */
    double sample(double x, double y, double z) {
        double sum = 0;
        double frequency = baseFrequency;
        double amplitude = 1;
        for (PerlinNoise octave : octaves) {
            sum += amplitude * octave.sample(x * frequency, y * frequency, z * frequency);
            frequency *= 2;
            amplitude *= 0.5;
        }
        return sum * normalization;
    }

    double sample2d(double x, double z) {
        return sample(x, 0.0, z);
    }
}
