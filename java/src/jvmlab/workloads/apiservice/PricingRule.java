package jvmlab.workloads.apiservice;

/**
 * A campaign's pricing rule as a rules engine compiles it. The service never uses this copy: every compiled
 * campaign gets its own, defined from these class bytes by its {@link RuleLoader}, and a proxy class that
 * implements it ({@link PricingRules}).
 */
public interface PricingRule {
    String campaign();

    int priority();

    boolean applies(long subtotalCents, int items);

    long discountCents(long subtotalCents, int items);

    String describe();
}
