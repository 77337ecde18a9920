package jvmlab.workloads;

import jvmlab.workloads.chunkgen.Task;

/**
 * chunkgen: a Minecraft-like world pre-generator, the bundled workload of the JDK shoot-out. Noise terrain
 * with biomes, caves, ores and trees for 16 x 16 x 256 chunks, saved compressed into Anvil region files by a
 * pool of workers; CPU- and allocation-heavy, with a visible JIT warm-up. No dependencies; runs on JDK 8+.
 *
 * <pre>
 * java -cp build/java jvmlab.workloads.ChunkGen --radius 12 --threads 2 --out world
 * </pre>
 *
 * Prints {@code Processed: 1234 chunks (29.2%), Rate: 31.5 cps, ETA: 0:00:41} every second (the rate over
 * that second), then a summary; {@code --help} lists the options.
 */
public final class ChunkGen {
    private ChunkGen() {
    }

    public static void main(String[] args) {
        int status = 1;
        try {
            status = Task.main(args);
        } catch (Throwable t) { // OutOfMemoryError in main: say so, and end even if workers are stuck
            t.printStackTrace();
        } finally {
            System.out.flush();
            if (status != 0) {
                System.exit(status);
            }
        }
    }
}
