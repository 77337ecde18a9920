package jvmlab.workloads.bigcode;

/** The command line of bigcode: {@code --name value} or {@code --name=value}. */
final class Options {
    static final String USAGE = String.join("\n",
            "usage: java -cp build/java jvmlab.workloads.BigCode [options]",
            "  --classes N       generated classes (default 2000)",
            "  --methods N       methods per class (default 20)",
            "  --method-size N   arithmetic blocks in each method's loop, about 10 bytes of bytecode each (default 48)",
            "  --data N          length of the array each call loops over (default 16)",
            "  --hot F           fraction of the methods in the hot set (default 0.1)",
            "  --hot-share F     fraction of the calls that go to the hot set; the rest to any method (default 0.99)",
            "  --threads N       threads calling the methods (default 2)",
            "  --duration-s N    seconds of calls after the classes are loaded (default 30)",
            "  --ops N           stop after N calls instead of the duration (0: by duration); the checksum then",
            "                    depends on the seed and sizes alone",
            "  --seed N          seed of the generated code and of the calls (default 1)",
            "  --report-ms N     milliseconds between status lines (default 1000)",
            "  --help            this text");

    int classes = 2000;
    int methods = 20;
    int methodSize = 48;
    int data = 16;
    double hot = 0.1;
    double hotShare = 0.99;
    int threads = 2;
    long durationS = 30;
    long ops;
    long seed = 1;
    long reportMs = 1000;
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
        return o;
    }

    private void set(String name, String value) throws Invalid {
        if (name.equals("--classes")) {
            classes = (int) number(name, value, 1, 1000000);
        } else if (name.equals("--methods")) {
            methods = (int) number(name, value, 1, 1000);
        } else if (name.equals("--method-size")) {
            methodSize = (int) number(name, value, 1, 900);
        } else if (name.equals("--data")) {
            data = (int) number(name, value, 1, 1000000);
        } else if (name.equals("--hot")) {
            hot = fraction(name, value, false);
        } else if (name.equals("--hot-share")) {
            hotShare = fraction(name, value, true);
        } else if (name.equals("--threads")) {
            threads = (int) number(name, value, 1, 512);
        } else if (name.equals("--duration-s")) {
            durationS = number(name, value, 1, 86400);
        } else if (name.equals("--ops")) {
            ops = number(name, value, 0, Long.MAX_VALUE);
        } else if (name.equals("--seed")) {
            seed = number(name, value, Long.MIN_VALUE, Long.MAX_VALUE);
        } else if (name.equals("--report-ms")) {
            reportMs = number(name, value, 50, 3600000);
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

    /** A fraction in (0, 1], or [0, 1] when zero is allowed. */
    private static double fraction(String name, String value, boolean zero) throws Invalid {
        double f;
        try {
            f = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new Invalid(name + ": expected a fraction such as 0.1, got '" + value + "'");
        }
        if (!(zero ? f >= 0 : f > 0) || !(f <= 1)) {
            throw new Invalid(name + ": " + value.trim() + " is out of range " + (zero ? "[0, 1]" : "(0, 1]"));
        }
        return f;
    }

    long methodCount() {
        return (long) classes * methods;
    }
}
