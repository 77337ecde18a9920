package jvmlab.workloads;

/**
 * The command line of the bundled workloads: {@code --name value} or {@code --name=value}, {@code --help},
 * and the checks of whole numbers and fractions, each refusal naming the option and what it needs.
 */
public final class CommandLine {
    private CommandLine() {
    }

    /** Thrown for a command line that cannot be used; the message names the option and what it needs. */
    public static final class Invalid extends Exception {
        public Invalid(String message) {
            super(message);
        }
    }

    /** Takes one option's value. */
    public interface Setter {
        void set(String name, String value) throws Invalid;
    }

    /** Hands each option to {@code setter}; returns whether {@code --help} (or {@code -h}) was given. */
    public static boolean parse(String[] args, Setter setter) throws Invalid {
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                help = true;
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
            setter.set(name, value);
        }
        return help;
    }

    /** A whole number in [min, max]. */
    public static long number(String name, String value, long min, long max) throws Invalid {
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
    public static double fraction(String name, String value, boolean zero) throws Invalid {
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
}
