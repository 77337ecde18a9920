package jvmlab.workloads.bigcode;

import jvmlab.workloads.CommandLine;

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

    static Options parse(String[] args) throws CommandLine.Invalid {
        Options o = new Options();
        o.help = CommandLine.parse(args, o::set);
        return o;
    }

    private void set(String name, String value) throws CommandLine.Invalid {
        if (name.equals("--classes")) {
            classes = (int) CommandLine.number(name, value, 1, 1000000);
        } else if (name.equals("--methods")) {
            methods = (int) CommandLine.number(name, value, 1, 1000);
        } else if (name.equals("--method-size")) {
            methodSize = (int) CommandLine.number(name, value, 1, 900);
        } else if (name.equals("--data")) {
            data = (int) CommandLine.number(name, value, 1, 1000000);
        } else if (name.equals("--hot")) {
            hot = CommandLine.fraction(name, value, false);
        } else if (name.equals("--hot-share")) {
            hotShare = CommandLine.fraction(name, value, true);
        } else if (name.equals("--threads")) {
            threads = (int) CommandLine.number(name, value, 1, 512);
        } else if (name.equals("--duration-s")) {
            durationS = CommandLine.number(name, value, 1, 86400);
        } else if (name.equals("--ops")) {
            ops = CommandLine.number(name, value, 0, Long.MAX_VALUE);
        } else if (name.equals("--seed")) {
            seed = CommandLine.number(name, value, Long.MIN_VALUE, Long.MAX_VALUE);
        } else if (name.equals("--report-ms")) {
            reportMs = CommandLine.number(name, value, 50, 3600000);
        } else {
            throw new CommandLine.Invalid("unknown option " + name + " (see --help)");
        }
    }

    long methodCount() {
        return (long) classes * methods;
    }
}
