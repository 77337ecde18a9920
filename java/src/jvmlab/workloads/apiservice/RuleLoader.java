package jvmlab.workloads.apiservice;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The class loader of one compiled campaign, child first for {@link PricingRule}: it defines its own copy from
 * the bundled class bytes, as a rules or script engine gives each compiled unit a loader of its own; any
 * other class comes from the parent. Its classes are unloaded once it is unreachable and a collection that
 * unloads classes has run.
 */
final class RuleLoader extends ClassLoader {
    static final String RULE = PricingRule.class.getName();
    private final byte[] ruleClass;

    RuleLoader(ClassLoader parent, byte[] ruleClass) {
        super(parent);
        this.ruleClass = ruleClass;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals(RULE)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = defineClass(name, ruleClass, 0, ruleClass.length);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    /** The bytes of the bundled {@link PricingRule} class. */
    static byte[] ruleClassBytes() {
        InputStream in = PricingRule.class.getResourceAsStream(PricingRule.class.getSimpleName() + ".class");
        if (in == null) {
            throw new IllegalStateException("no class file for " + RULE + " next to the service's classes");
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(2048);
            byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) > 0;) {
                bytes.write(buffer, 0, n);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the class file of " + RULE + ": " + e.getMessage(), e);
        } finally {
            try {
                in.close();
            } catch (IOException ignored) {
                // nothing was lost: the bytes are read or the error is thrown
            }
        }
    }
}
