package jvmlab.workloads.chunkgen;

import jvmlab.workloads.CommandLine;

import java.io.File;

/** The command line of chunkgen: {@code --name value} or {@code --name=value}. */
final class Options {
    static final String USAGE = String.join("\n",
            "usage: java -cp build/java jvmlab.workloads.ChunkGen [options]",
            "  --radius N       chunks around the centre: (2N+1)^2 chunks in all (default 12)",
            "  --threads N      worker threads (default: the number of CPUs)",
            "  --out DIR        world folder; region files go to DIR/region (default: world)",
            "  --seed N         world seed (default 8675309)",
            "  --center-x N     centre chunk x (default 0)",
            "  --center-z N     centre chunk z (default 0)",
            "  --report-ms N    milliseconds between progress lines (default 1000)",
            "  --cache N        chunk terrains kept for neighbours (default 24 x radius + 64)",
            "  --help           this text");

    int radius = 12;
    int threads = Runtime.getRuntime().availableProcessors();
    File out = new File("world");
    long seed = 8675309L;
    int centerX;
    int centerZ;
    long reportMs = 1000;
    int cache = -1;
    boolean help;

    static Options parse(String[] args) throws CommandLine.Invalid {
        Options o = new Options();
        o.help = CommandLine.parse(args, o::set);
        if (o.cache < 0) {
            o.cache = 24 * o.radius + 64;
        }
        return o;
    }

    private void set(String name, String value) throws CommandLine.Invalid {
        if (name.equals("--radius")) {
            radius = (int) CommandLine.number(name, value, 0, 2000);
        } else if (name.equals("--threads")) {
            threads = (int) CommandLine.number(name, value, 1, 512);
        } else if (name.equals("--out")) {
            out = new File(value);
        } else if (name.equals("--seed")) {
            seed = CommandLine.number(name, value, Long.MIN_VALUE, Long.MAX_VALUE);
        } else if (name.equals("--center-x")) {
            centerX = (int) CommandLine.number(name, value, -1000000, 1000000);
        } else if (name.equals("--center-z")) {
            centerZ = (int) CommandLine.number(name, value, -1000000, 1000000);
        } else if (name.equals("--report-ms")) {
            reportMs = CommandLine.number(name, value, 50, 3600000);
        } else if (name.equals("--cache")) {
            cache = (int) CommandLine.number(name, value, 9, 10000000);
        } else {
            throw new CommandLine.Invalid("unknown option " + name + " (see --help)");
        }
    }

    long chunks() {
        long side = 2L * radius + 1;
        return side * side;
    }
}
