package jvmlab.workloads.chunkgen;

/**
 * Biomes: how the terrain is shaped (base height and roughness, blended across biome borders), what covers
 * it, and which trees grow how densely. Ids are the saved format's numeric biome ids.
 */
enum Biome {
    OCEAN(0, -1.0, 0.10, Blocks.GRAVEL, Blocks.GRAVEL, 0, Tree.NONE),
    DEEP_OCEAN(24, -1.8, 0.10, Blocks.GRAVEL, Blocks.GRAVEL, 0, Tree.NONE),
    BEACH(16, 0.0, 0.025, Blocks.SAND, Blocks.SAND, 0, Tree.NONE),
    PLAINS(1, 0.125, 0.05, Blocks.GRASS_BLOCK, Blocks.DIRT, 1, Tree.OAK),
    DESERT(2, 0.125, 0.05, Blocks.SAND, Blocks.SANDSTONE, 0, Tree.NONE),
    FOREST(4, 0.1, 0.2, Blocks.GRASS_BLOCK, Blocks.DIRT, 10, Tree.OAK),
    BIRCH_FOREST(27, 0.1, 0.2, Blocks.GRASS_BLOCK, Blocks.DIRT, 10, Tree.BIRCH),
    TAIGA(5, 0.2, 0.2, Blocks.GRASS_BLOCK, Blocks.DIRT, 10, Tree.SPRUCE),
    SNOWY_TUNDRA(12, 0.125, 0.05, Blocks.GRASS_BLOCK, Blocks.DIRT, 1, Tree.SPRUCE),
    MOUNTAINS(3, 1.0, 0.5, Blocks.GRASS_BLOCK, Blocks.DIRT, 2, Tree.SPRUCE),
    SNOWY_MOUNTAINS(13, 0.45, 0.3, Blocks.SNOW_BLOCK, Blocks.DIRT, 1, Tree.SPRUCE);

    enum Tree { NONE, OAK, BIRCH, SPRUCE }

    private static final Biome[] VALUES = values();

    final int id;
    /** Base height: 0 about sea level, negative under water, 1 high ground. */
    final double depth;
    /** Roughness: how far the terrain strays from the base height. */
    final double scale;
    final byte top;
    final byte filler;
    final int treesPerChunk;
    final Tree tree;

    Biome(int id, double depth, double scale, byte top, byte filler, int treesPerChunk, Tree tree) {
        this.id = id;
        this.depth = depth;
        this.scale = scale;
        this.top = top;
        this.filler = filler;
        this.treesPerChunk = treesPerChunk;
        this.tree = tree;
    }

    static Biome byOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    boolean isCold() {
        return this == SNOWY_TUNDRA || this == SNOWY_MOUNTAINS || this == TAIGA;
    }

    boolean isOcean() {
        return this == OCEAN || this == DEEP_OCEAN;
    }

    /**
     * The biome of a climate: continentalness (sea to inland), erosion (rugged to flat), temperature and
     * humidity, each about [-1, 1].
     */
    static Biome of(double continentalness, double erosion, double temperature, double humidity) {
        if (continentalness < -0.28) {
            return continentalness < -0.45 ? DEEP_OCEAN : OCEAN;
        }
        if (continentalness < -0.2) {
            return BEACH;
        }
        if (erosion < -0.25 && continentalness > 0.0) {
            return temperature < -0.15 ? SNOWY_MOUNTAINS : MOUNTAINS;
        }
        if (temperature > 0.3 && humidity < 0.0) {
            return DESERT;
        }
        if (temperature < -0.35) {
            return humidity > 0.1 ? TAIGA : SNOWY_TUNDRA;
        }
        if (humidity > 0.15) {
            return temperature > 0.1 ? BIRCH_FOREST : FOREST;
        }
        return humidity < -0.2 && temperature < 0.0 ? TAIGA : PLAINS;
    }
}
