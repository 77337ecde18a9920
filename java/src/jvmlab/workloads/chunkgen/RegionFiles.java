package jvmlab.workloads.chunkgen;

import java.io.File;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;

/** The region files of a world folder ({@code region/r.X.Z.mca}), opened as chunks arrive. */
final class RegionFiles {
    private final File folder;
    private final ConcurrentHashMap<Long, RegionFile> open = new ConcurrentHashMap<Long, RegionFile>();

    RegionFiles(File world) throws IOException {
        folder = new File(world, "region");
        if (!folder.isDirectory() && !folder.mkdirs()) {
            throw new IOException("cannot create " + folder);
        }
    }

    void write(int chunkX, int chunkZ, byte[] data) throws IOException {
        region(chunkX >> 5, chunkZ >> 5).write(chunkX, chunkZ, data);
    }

    private RegionFile region(int rx, int rz) throws IOException {
        Long key = ((long) rx << 32) ^ (rz & 0xFFFFFFFFL);
        RegionFile region = open.get(key);
        if (region != null) {
            return region;
        }
        synchronized (this) {
            region = open.get(key);
            if (region == null) {
                region = new RegionFile(new File(folder, "r." + rx + "." + rz + ".mca"));
                open.put(key, region);
            }
            return region;
        }
    }

    int count() {
        return open.size();
    }

    long bytes() {
        long total = 0;
        for (RegionFile r : open.values()) {
            total += r.size();
        }
        return total;
    }

    void close() throws IOException {
        IOException first = null;
        for (RegionFile r : open.values()) {
            try {
                r.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
