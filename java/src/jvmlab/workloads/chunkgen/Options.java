package jvmlab.workloads.chunkgen;

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

    /** Thrown for a command line that cannot be used; the message names the option and what it needs. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    static Options parse(String[] args) throws Invalid {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                o.help = true;
                continue;
            }
            if (!arg.startsWith("--")) {
                throw new Invalid("unexpected argument '" + arg + "' (options start with --; see --help)");
            }
            String name = arg;
            String value;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new Invalid(arg + ": needs a value");
            }
            o.set(name, value);
        }
        if (o.cache < 0) {
            o.cache = 24 * o.radius + 64;
        }
        return o;
    }

    private void set(String name, String value) throws Invalid {
        if (name.equals("--radius")) {
            radius = (int) number(name, value, 0, 2000);
        } else if (name.equals("--threads")) {
            threads = (int) number(name, value, 1, 512);
        } else if (name.equals("--out")) {
            out = new File(value);
        } else if (name.equals("--seed")) {
            seed = number(name, value, Long.MIN_VALUE, Long.MAX_VALUE);
        } else if (name.equals("--center-x")) {
            centerX = (int) number(name, value, -1000000, 1000000);
        } else if (name.equals("--center-z")) {
            centerZ = (int) number(name, value, -1000000, 1000000);
        } else if (name.equals("--report-ms")) {
            reportMs = number(name, value, 50, 3600000);
        } else if (name.equals("--cache")) {
            cache = (int) number(name, value, 9, 10000000);
        } else {
            throw new Invalid("unknown option " + name + " (see --help)");
        }
    }

    private static long number(String name, String value, long min, long max) throws Invalid {
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new Invalid(name + ": expected a whole number, got '" + value + "'");
        }
        if (n < min || n > max) {
            throw new Invalid(name + ": " + n + " is out of range [" + min + ", " + max + "]");
        }
        return n;
    }

    long chunks() {
        long side = 2L * radius + 1;
        return side * side;
    }
}
