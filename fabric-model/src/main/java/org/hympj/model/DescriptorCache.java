package org.hympj.model;

/**
 * S5's descriptor cache for non-persistent TCA traffic: descriptors are built in host memory
 * and promoted to the DMAC's internal memory after a number of uses; when full, an entry is
 * evicted by the policy (LRU, LFU or first-come). Pure and allocation-free after
 * construction; one per rank.
 */
public final class DescriptorCache {
    /** Where a looked-up descriptor lives for this use. */
    public enum Where { MISS, HOST, INTERNAL }

    public enum Policy { LRU, LFU, FIFO }

    private final Policy policy;
    private final int promoteAfter;
    private final long[] keys;
    private final int[] uses;
    private final long[] lastUse;
    private final long[] inserted;
    private final boolean[] internal;
    private int count;
    private long clock;
    private long hits;
    private long misses;

    public DescriptorCache(Policy policy, int entries, int promoteAfter) {
        if (entries < 1) {
            throw new IllegalArgumentException("cache entries must be >= 1, was " + entries);
        }
        this.policy = policy;
        this.promoteAfter = Math.max(1, promoteAfter);
        this.keys = new long[entries];
        this.uses = new int[entries];
        this.lastUse = new long[entries];
        this.inserted = new long[entries];
        this.internal = new boolean[entries];
    }

    /** A rank's cache as the model sizes it: tca.cache.policy, .entries, .promote.after. */
    public static DescriptorCache of(ModelParams p) {
        return new DescriptorCache(policy(p.string("tca.cache.policy", "lru")), (int) p.count("tca.cache.entries", 64),
            (int) p.count("tca.cache.promote.after", 4));
    }

    public static Policy policy(String name) {
        switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "lru":
                return Policy.LRU;
            case "lfu":
                return Policy.LFU;
            case "fifo":
            case "first-come":
                return Policy.FIFO;
            default:
                throw new IllegalArgumentException("descriptor cache policy must be lru, lfu or fifo, was " + name);
        }
    }

    /** Looks up (and records a use of) the descriptor for {@code key}. */
    public Where use(long key) {
        clock++;
        for (int i = 0; i < count; i++) {
            if (keys[i] == key) {
                hits++;
                uses[i]++;
                lastUse[i] = clock;
                if (!internal[i] && uses[i] >= promoteAfter) {
                    internal[i] = true; // promoted: later uses start from internal memory
                    return Where.HOST;
                }
                return internal[i] ? Where.INTERNAL : Where.HOST;
            }
        }
        misses++;
        int slot = count < keys.length ? count++ : victim();
        keys[slot] = key;
        uses[slot] = 1;
        lastUse[slot] = clock;
        inserted[slot] = clock;
        internal[slot] = promoteAfter <= 1;
        return Where.MISS;
    }

    private int victim() {
        int v = 0;
        for (int i = 1; i < count; i++) {
            boolean better;
            switch (policy) {
                case LRU:
                    better = lastUse[i] < lastUse[v];
                    break;
                case LFU:
                    better = uses[i] < uses[v] || (uses[i] == uses[v] && lastUse[i] < lastUse[v]);
                    break;
                default:
                    better = inserted[i] < inserted[v];
            }
            if (better) {
                v = i;
            }
        }
        return v;
    }

    public long hits() {
        return hits;
    }

    public long misses() {
        return misses;
    }

    public int size() {
        return count;
    }
}
