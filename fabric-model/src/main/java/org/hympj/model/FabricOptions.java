package org.hympj.model;

import java.util.List;
import org.hympj.rsched.Schedulers;

/**
 * The options of a job that decide how its messages use the emulated fabrics: the model, the
 * TCA subcluster, the route policy and its table, striping, and the RSched policy. The
 * launcher writes them into the job's configuration; the simulator takes them from its own
 * command line, under the same names as {@code bin/mpjrun}. Validated at construction: a bad
 * value is refused with the option's name and the values it takes.
 */
public final class FabricOptions {
    /** --sched value of the unscheduled eager/rendezvous baseline whose handshake is paid for on the model. */
    public static final String SCHED_RNDV = "rndv";
    /** The values --route takes ({@code tca+ib}: TCA where it reaches, IB elsewhere, without the router's table). */
    public static final List<String> ROUTES = List.of("auto", "hybrid", "tca", "ib", "tca+ib");

    /** A preset (ha-pacs, tofu), a model file, or "none". */
    public final String model;
    /** Ranks of the job. */
    public final int size;
    /** Ranks per TCA subcluster (1..size). */
    public final int subcluster;
    public final String route;
    /** Route table: a preset name or a file ("" = the model's preset, else ha-pacs). */
    public final String routeTable;
    /** Striping threshold override: -1 = the table's, 0 = off, else bytes. */
    public final long stripe;
    /** none, rndv, or an RSched policy for persistent TCA sets. */
    public final String sched;
    /** S3's pseudo-collective mode: a barrier at the start of Startall and at the end of Waitall. */
    public final boolean schedBarrier;

    /**
     * @param subcluster ranks per TCA subcluster; 0 or less: every rank in one
     * @throws IllegalArgumentException naming the option for a bad route or sched value
     */
    public FabricOptions(String model, int size, int subcluster, String route, String routeTable, long stripe,
                         String sched, boolean schedBarrier) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1, was " + size);
        }
        checkRoute("--route", route);
        this.model = model == null || model.isEmpty() ? "none" : model;
        this.size = size;
        this.subcluster = subcluster <= 0 ? size : subcluster;
        this.route = route;
        this.routeTable = routeTable == null ? "" : routeTable;
        this.stripe = stripe;
        this.sched = sched == null ? "none" : checkSched("--sched", sched);
        this.schedBarrier = schedBarrier;
    }

    /**
     * {@code value} if it is a --route value; else an IllegalArgumentException naming {@code what}
     * (the option or hint) and the values it takes.
     */
    public static String checkRoute(String what, String value) {
        if (!ROUTES.contains(value)) {
            throw new IllegalArgumentException(what + " must be one of " + String.join(", ", ROUTES) + ", was "
                + (value == null ? "null" : "'" + value + "'"));
        }
        return value;
    }

    /**
     * {@code value} if it is a --sched value (none, rndv or an RSched policy); else an
     * IllegalArgumentException naming {@code what} (the option or hint) and the values it takes.
     */
    public static String checkSched(String what, String value) {
        String v = value == null ? null : value.trim().toLowerCase(java.util.Locale.ROOT);
        if (v != null && (v.equals("none") || v.equals(SCHED_RNDV))) {
            return v;
        }
        try {
            Schedulers.parse(v);
            return v;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " must be none, " + SCHED_RNDV + " or an RSched policy ("
                + String.join(", ", Schedulers.NAMES) + "), was " + (value == null ? "null" : "'" + value + "'"), e);
        }
    }

    /** Native shared memory: no model, one channel. */
    public static FabricOptions nativeShm(int size) {
        return new FabricOptions("none", size, size, "auto", "", -1, "none", false);
    }

    /** True under a timing model. */
    public boolean modelled() {
        return !model.equals("none");
    }

    /** True when --sched names an RSched policy (not none, not rndv): persistent TCA sets are scheduled. */
    public boolean rsched() {
        return !sched.equals("none") && !sched.equals(SCHED_RNDV);
    }

    /**
     * True for --sched rndv: no scheduler (as none), and under a model a rendezvous's RTS and
     * CTS are planned as control puts (S3's original protocol), not free as with none.
     */
    public boolean rendezvousHandshakePuts() {
        return sched.equals(SCHED_RNDV);
    }

    /** True when the hybrid router picks the fabric per message (--route hybrid, or auto under a model). */
    public boolean hybrid() {
        return route.equals("hybrid") || (route.equals("auto") && modelled());
    }

    /** The route table to load: as given, else the model's preset when there is one, else ha-pacs. */
    public String routeTableName() {
        if (!routeTable.isEmpty()) {
            return routeTable;
        }
        return org.hympj.router.RouteTable.class.getResource(model + ".route") != null ? model : "ha-pacs";
    }

    /** True when messages take emulated fabrics (a model, or a forced route), with one ring set per fabric. */
    public boolean emulatesFabrics() {
        return modelled() || !route.equals("auto");
    }

    /** Channels per ordered pair: 1 natively, 2 (TCA, IB) when fabrics are emulated. */
    public int channels() {
        return emulatesFabrics() ? 2 : 1;
    }

    /** Bulk region per pair by default: 2 MiB up to 16 ranks, then 512 KiB (there are size² of them). */
    public static int defaultBulkBytes(int ranks) {
        return ranks <= 16 ? 2 << 20 : 512 << 10;
    }

    /** Eager up to 1/8 of the bulk region (256 KiB by default): a halo face of 128² doubles goes without handshake. */
    public static int defaultEagerLimit(int bulkBytes) {
        return bulkBytes / 8;
    }

    @Override
    public String toString() {
        return "model " + model + ", subcluster " + subcluster + ", route " + route
            + (sched.equals("none") ? "" : ", sched " + sched + (schedBarrier ? " (barrier)" : ""));
    }
}
