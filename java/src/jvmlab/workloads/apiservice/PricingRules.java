package jvmlab.workloads.apiservice;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The active campaigns: {@code slots} pricing rules, each compiled into classes of its own (its copy of
 * {@link PricingRule} and a proxy class, in a fresh {@link RuleLoader}). All are compiled at start-up; then
 * {@code perSecond} of them are compiled again, oldest first, each replacing the one in its slot, whose loader
 * is released: every loader lives {@code slots / perSecond} seconds. Orders call their rule reflectively, as
 * a plugin host does, which on JDK 8 to 17 also generates method accessor classes for the rules used most.
 */
final class PricingRules extends Periodic {
    private static final long TICK_NANOS = 100000000L;

    /** A rule's verdict on an order: the campaign that applied and its discount, or none. */
    static final class Outcome {
        final String campaign;
        final long discountCents;

        Outcome(String campaign, long discountCents) {
            this.campaign = campaign;
            this.discountCents = discountCents;
        }
    }

    private static final class Compiled {
        final Object rule;
        final Method applies;
        final Method discount;
        final Method campaign;

        Compiled(Object rule, Class<?> type) throws NoSuchMethodException {
            this.rule = rule;
            this.applies = type.getMethod("applies", long.class, int.class);
            this.discount = type.getMethod("discountCents", long.class, int.class);
            this.campaign = type.getMethod("campaign");
        }
    }

    private final long seed;
    private final byte[] ruleClass = RuleLoader.ruleClassBytes();
    private final AtomicReferenceArray<Compiled> slots;
    private final double perTick;
    private double due;
    private volatile long compiled; // one writer at a time: start-up, then this thread
    private int next;

    PricingRules(long seed, int slots, double perSecond) {
        super("rule-compiler", TICK_NANOS);
        this.seed = seed;
        this.slots = new AtomicReferenceArray<Compiled>(slots);
        this.perTick = perSecond * (TICK_NANOS / 1e9);
    }

    /** Compiles every slot's rule: the start-up burst of class definitions. */
    void compileAll() {
        for (int slot = 0; slot < slots.length(); slot++) {
            slots.set(slot, compile(slot));
        }
    }

    @Override
    void tick() {
        due += perTick;
        while (due >= 1 && !stopped()) {
            slots.set(next, compile(next));
            next = (next + 1) % slots.length();
            due -= 1;
        }
    }

    private Compiled compile(int slot) {
        RuleLoader loader = new RuleLoader(PricingRules.class.getClassLoader(), ruleClass);
        try {
            Class<?> type = loader.loadClass(RuleLoader.RULE);
            Object rule = Proxy.newProxyInstance(loader, new Class<?>[] {type}, new RuleHandler(seed, slot));
            compiled++;
            return new Compiled(rule, type);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot compile the rule of campaign slot " + slot + ": " + e, e);
        }
    }

    /** The campaign of a customer (by slot) applied to an order. */
    Outcome apply(long userId, long subtotalCents, int items) {
        Compiled c = slots.get(Mix.below(Mix.hash(seed, userId, 22), slots.length()));
        try {
            if (!(Boolean) c.applies.invoke(c.rule, subtotalCents, items)) {
                return new Outcome(null, 0);
            }
            long discount = (Long) c.discount.invoke(c.rule, subtotalCents, items);
            return new Outcome((String) c.campaign.invoke(c.rule), discount);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("pricing rule failed: " + e.getCause(), e.getCause());
        }
    }

    /** Rule classes compiled since start, the start-up ones included. */
    long compiled() {
        return compiled;
    }
}
