package jvmlab.workloads.chunkgen;

import java.io.File;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/** The work for one chunk: terrain of it and its neighbours, decoration, light, serialization, saving. */
final class WorldGenerator {
    private final ProtoCache terrain;
    private final Decorator decorator;
    private final RegionFiles regions;
    private final AtomicLong checksum = new AtomicLong();
    private final AtomicLong compressedBytes = new AtomicLong();

    WorldGenerator(long seed, File world, int cacheCapacity) throws IOException {
        final TerrainGenerator generator = new TerrainGenerator(seed);
        terrain = new ProtoCache(new ProtoCache.Maker() {
            @Override
            public ProtoChunk make(int chunkX, int chunkZ) {
                return generator.generate(chunkX, chunkZ);
            }
        }, cacheCapacity);
        decorator = new Decorator(seed);
        regions = new RegionFiles(world);
    }

    void generate(int chunkX, int chunkZ) throws IOException {
        ProtoChunk[] around = new ProtoChunk[9];
        for (int dz = -1; dz <= 1; dz++) {
            for (int dx = -1; dx <= 1; dx++) {
                around[(dz + 1) * 3 + dx + 1] = terrain.get(chunkX + dx, chunkZ + dz);
            }
        }
        Chunk chunk = new Chunk(around[4]);
        decorator.decorate(chunk, around);
        chunk.computeHeightmaps();
        SkyLight.compute(chunk);
        byte[] data = ChunkSerializer.compressed(chunk);
        regions.write(chunkX, chunkZ, data);
        checksum.addAndGet(chunk.checksum());
        compressedBytes.addAndGet(data.length);
    }

    /** The sum of the chunks' checksums: the same for the same seed and area, whatever the threads did. */
    long checksum() {
        return checksum.get();
    }

    long terrainsMade() {
        return terrain.made();
    }

    long compressedBytes() {
        return compressedBytes.get();
    }

    int regionCount() {
        return regions.count();
    }

    long regionBytes() {
        return regions.bytes();
    }

    void close() throws IOException {
        regions.close();
    }
}
