package org.hympj.shm.pml;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hympj.api.Comm;
import org.hympj.model.FabricPolicy;
import org.hympj.model.JobFabric;

/**
 * A communicator's hints (MPI-4's info on a communicator): {@link Comm#HINT_SCHED} and
 * {@link Comm#HINT_ROUTE}, and the {@link FabricPolicy} they make — the job's where a hint is not
 * given. Immutable: {@link Comm#dup(Map)} makes a communicator with new hints.
 */
final class CommHints {
    /** The keys a communicator takes. */
    static final List<String> KEYS = List.of(Comm.HINT_SCHED, Comm.HINT_ROUTE);

    private final Map<String, String> given;
    private final FabricPolicy policy;

    private CommHints(Map<String, String> given, FabricPolicy policy) {
        this.given = given;
        this.policy = policy;
    }

    /** No hints: the job's policy. */
    static CommHints of(JobFabric fabric) {
        return new CommHints(Collections.emptyMap(), fabric.policy());
    }

    /** The policy messages bound on the communicator are made under. */
    FabricPolicy policy() {
        return policy;
    }

    /**
     * These hints with {@code more} applied (a key given again takes the new value).
     *
     * @throws IllegalArgumentException naming {@code op} and the key for a null map, key or value, an
     *         unknown key or a value the key does not take
     */
    CommHints with(String op, Map<String, String> more, JobFabric fabric) {
        if (more == null) {
            throw new IllegalArgumentException(op + ": hints must not be null (an empty map for none)");
        }
        Map<String, String> all = new TreeMap<>(given);
        for (Map.Entry<String, String> e : more.entrySet()) {
            String key = e.getKey();
            if (key == null || !KEYS.contains(key)) {
                throw new IllegalArgumentException(op + ": unknown hint " + (key == null ? "null" : "'" + key + "'")
                    + "; the hints are " + String.join(", ", KEYS));
            }
            if (e.getValue() == null) {
                throw new IllegalArgumentException(op + ": hint " + key + " must not be null");
            }
            all.put(key, e.getValue());
        }
        FabricPolicy p = fabric.policy(all.get(Comm.HINT_SCHED), all.get(Comm.HINT_ROUTE), op + ": hint "
            + Comm.HINT_SCHED, op + ": hint " + Comm.HINT_ROUTE);
        // as the policy normalised them
        if (all.containsKey(Comm.HINT_SCHED)) {
            all.put(Comm.HINT_SCHED, p.sched());
        }
        return new CommHints(Collections.unmodifiableMap(all), p);
    }

    /**
     * The value in force for {@code key}: the hint, or the job's setting.
     *
     * @throws IllegalArgumentException for an unknown key
     */
    String get(String key) {
        if (Comm.HINT_SCHED.equals(key)) {
            return policy.sched();
        }
        if (Comm.HINT_ROUTE.equals(key)) {
            return policy.route();
        }
        throw new IllegalArgumentException("hint: unknown key " + (key == null ? "null" : "'" + key + "'")
            + "; the hints are " + String.join(", ", KEYS));
    }

    /** A number the ranks compare to find hints that differ between them. */
    int fingerprint() {
        return given.toString().hashCode();
    }

    @Override
    public String toString() {
        return given.toString();
    }
}
