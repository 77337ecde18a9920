package jvmlab.workloads.chunkgen;

import java.util.Random;

/**
 * Makes the terrain of a chunk: a 3D density field from octave noise, shaped by the blended biomes and
 * sampled on a coarse grid (cells of 4 x 8 x 4 blocks, interpolated between their corners), then the
 * surface layers, bedrock and caves.
 */
final class TerrainGenerator {
    static final int SEA_LEVEL = 62;
    private static final int CELL_XZ = CellGrid.CELL_XZ;
    private static final int CORNERS_XZ = CellGrid.CORNERS_XZ;
    private static final int CORNERS_Y = CellGrid.CORNERS_Y;
    private static final int BLEND_RADIUS = 2;
    private static final int GRID = CORNERS_XZ + 2 * BLEND_RADIUS;
    private static final double[] BLEND_WEIGHTS = blendWeights();

    private final long seed;
    private final Climate climate;
    private final OctaveNoise lowerLimit;
    private final OctaveNoise upperLimit;
    private final OctaveNoise selector;
    private final OctaveNoise heightVariation;
    private final OctaveNoise surfaceDepth;
    private final CaveCarver caves;

    TerrainGenerator(long seed) {
        this.seed = seed;
        Random random = new Random(seed);
        climate = new Climate(seed);
        lowerLimit = new OctaveNoise(random, 16, 256);
        upperLimit = new OctaveNoise(random, 16, 256);
        selector = new OctaveNoise(random, 8, 96);
        heightVariation = new OctaveNoise(random, 8, 400);
        surfaceDepth = new OctaveNoise(random, 4, 32);
        caves = new CaveCarver(seed);
    }

    static Random chunkRandom(long seed, int chunkX, int chunkZ, long salt) {
        return new Random(seed ^ (chunkX * 341873128712L + chunkZ * 132897987541L + salt));
    }

    ProtoChunk generate(int chunkX, int chunkZ) {
        ProtoChunk chunk = new ProtoChunk(chunkX, chunkZ);
        Random random = chunkRandom(seed, chunkX, chunkZ, 0);
        int blockX = chunkX * ProtoChunk.SIZE;
        int blockZ = chunkZ * ProtoChunk.SIZE;
        Biome[] grid = climate.grid(blockX - BLEND_RADIUS * CELL_XZ, blockZ - BLEND_RADIUS * CELL_XZ, GRID);
        fill(chunk, density(blockX, blockZ, grid));
        for (int z = 0; z < ProtoChunk.SIZE; z++) {
            for (int x = 0; x < ProtoChunk.SIZE; x++) {
                Biome biome = climate.biomeAt(blockX + x, blockZ + z);
                chunk.biomes[ProtoChunk.column(x, z)] = (byte) biome.ordinal();
                cover(chunk, x, z, biome, random);
            }
        }
        caves.carve(chunk);
        chunk.computeSurface();
        return chunk;
    }

    /** Density at every cell corner; solid where > 0. */
    private double[] density(int blockX, int blockZ, Biome[] grid) {
        double[] out = new double[CellGrid.CORNERS];
        for (int i = 0; i < CORNERS_XZ; i++) {
            for (int k = 0; k < CORNERS_XZ; k++) {
                double x = blockX + i * CELL_XZ;
                double z = blockZ + k * CELL_XZ;
                double[] shape = blendedShape(grid, i, k);
                double base = SEA_LEVEL + 2 + shape[0] * 40 + heightVariation.sample2d(x, z) * 6;
                double amplitude = 4 + shape[1] * 90;
                for (int j = 0; j < CORNERS_Y; j++) {
                    out[CellGrid.corner(i, j, k)] = densityAt(x, j * CellGrid.CELL_Y, z, base, amplitude);
                }
            }
        }
        return out;
    }

    private double densityAt(double x, double y, double z, double base, double amplitude) {
        double falloff = (base - y) / amplitude;
        double select = Math.min(1, Math.max(0, (selector.sample(x, y * 0.5, z) * 5 + 1) / 2));
        double lower = lowerLimit.sample(x, y, z);
        double upper = upperLimit.sample(x, y, z);
        double density = falloff + 1.5 * PerlinNoise.lerp(select, lower, upper);
        if (y > 232) {
            density = PerlinNoise.lerp((y - 232) / 24.0, density, -1); // no floating land at the top
        }
        return density;
    }

    /** Base height and roughness around corner (i, k), weighted by distance; higher neighbours count half. */
    private static double[] blendedShape(Biome[] grid, int i, int k) {
        Biome center = grid[(k + BLEND_RADIUS) * GRID + i + BLEND_RADIUS];
        double depth = 0;
        double scale = 0;
        double total = 0;
        for (int dk = -BLEND_RADIUS; dk <= BLEND_RADIUS; dk++) {
            for (int di = -BLEND_RADIUS; di <= BLEND_RADIUS; di++) {
                Biome b = grid[(k + dk + BLEND_RADIUS) * GRID + i + di + BLEND_RADIUS];
                double w = BLEND_WEIGHTS[(dk + BLEND_RADIUS) * 5 + di + BLEND_RADIUS] / (b.depth + 2);
                if (b.depth > center.depth) {
                    w /= 2;
                }
                depth += b.depth * w;
                scale += b.scale * w;
                total += w;
            }
        }
        return new double[] {depth / total, scale / total};
    }

    private static double[] blendWeights() {
        double[] w = new double[25];
        for (int dz = -2; dz <= 2; dz++) {
            for (int dx = -2; dx <= 2; dx++) {
                w[(dz + 2) * 5 + dx + 2] = 10 / StrictMath.sqrt(dx * dx + dz * dz + 0.2);
            }
        }
        return w;
    }

    /** Stone where the density interpolated between the cell corners is positive, water below sea level. */
    private static void fill(final ProtoChunk chunk, double[] density) {
        CellGrid.forEachBlock(density, new CellGrid.BlockVisitor() {
            @Override
            public void visit(int x, int y, int z, double value) {
                chunk.set(x, y, z, value > 0 ? Blocks.STONE : y <= SEA_LEVEL ? Blocks.WATER : Blocks.AIR);
            }
        });
    }

    /** Top and filler layers of one column (by its biome), sea floor, and bedrock. */
    private void cover(ProtoChunk chunk, int x, int z, Biome biome, Random random) {
        double noise = surfaceDepth.sample2d(chunk.x * 16 + x, chunk.z * 16 + z);
        int layers = (int) (3 + noise * 2.5 + random.nextDouble() * 0.25);
        int remaining = -1;
        for (int y = ProtoChunk.HEIGHT - 1; y >= 0; y--) {
            int block = chunk.get(x, y, z);
            if (block != Blocks.STONE) {
                remaining = -1;
                continue;
            }
            if (remaining == -1) {
                remaining = layers;
                chunk.set(x, y, z, y >= SEA_LEVEL - 1 ? biome.top : underwater(biome, noise));
            } else if (remaining > 0) {
                remaining--;
                chunk.set(x, y, z, y >= SEA_LEVEL - 4 ? biome.filler : underwater(biome, noise));
            }
        }
        chunk.set(x, 0, z, Blocks.BEDROCK);
        for (int y = 1; y < 5; y++) {
            if (random.nextInt(5) >= y) {
                chunk.set(x, y, z, Blocks.BEDROCK);
            }
        }
    }

    private static byte underwater(Biome biome, double noise) {
        if (biome == Biome.BEACH || biome == Biome.DESERT) {
            return Blocks.SAND;
        }
        return noise > 0.3 ? Blocks.CLAY : noise < -0.2 ? Blocks.SAND : Blocks.GRAVEL;
    }
}
