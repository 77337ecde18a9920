package jvmlab.workloads.bigcode;

import java.util.zip.CRC32;

/**
 * Defines the generated classes and makes one instance of each (which links and verifies it), so that
 * loading is over before the calls start.
 */
final class Loader extends ClassLoader {
    private long bytecodeBytes;
    private final CRC32 crc = new CRC32();

    Loader(ClassLoader parent) {
        super(parent);
    }

    Kernel[] defineAll(Generator generator, int classes) throws ReflectiveOperationException {
        Kernel[] kernels = new Kernel[classes];
        for (int i = 0; i < classes; i++) {
            byte[] bytes = generator.generate(i);
            bytecodeBytes += bytes.length;
            crc.update(bytes, 0, bytes.length);
            defineClass(Generator.className(i).replace('/', '.'), bytes, 0, bytes.length);
        }
        for (int i = 0; i < classes; i++) {
            Class<?> c = loadClass(Generator.className(i).replace('/', '.'));
            kernels[i] = (Kernel) c.getDeclaredConstructor().newInstance();
        }
        return kernels;
    }

    /** The size of the class files defined. */
    long bytes() {
        return bytecodeBytes;
    }

    /** CRC-32 of the class files in order: the same seed and sizes give the same value. */
    long crc() {
        return crc.getValue();
    }
}
