package org.hympj.rsched;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The result of a {@link Scheduler}: per send engine, the ordered slots it runs, with the times
 * the {@link Simulator} gives them. A slot's start is also the earliest time the engine may
 * issue the put (policies that keep links to one put rely on the waits).
 */
public final class Schedule {
    private final String policy;
    private final List<Put> puts;
    private final MachineModel model;
    private final List<List<Slot>> engines;
    private final Slot[] byPut;
    private final double makespan;
    private LowerBound bound;

    private Schedule(String policy, List<Put> puts, MachineModel model, List<List<Slot>> engines, Slot[] byPut, double makespan) {
        this.policy = policy;
        this.puts = puts;
        this.model = model;
        this.engines = engines;
        this.byPut = byPut;
        this.makespan = makespan;
    }

    static Schedule of(String policy, List<Put> puts, MachineModel m, int[][] queues, int[] engineOf, int[] recv,
                       double[] start, double[] end) {
        int n = puts.size();
        Slot[] byPut = new Slot[n];
        List<List<Slot>> engines = new ArrayList<>(queues.length);
        double makespan = 0;
        for (int e = 0; e < queues.length; e++) {
            List<Slot> list = new ArrayList<>(queues[e].length);
            for (int p : queues[e]) {
                Slot s = new Slot(p, e, recv[p], start[p], end[p]);
                byPut[p] = s;
                list.add(s);
                makespan = Math.max(makespan, end[p]);
            }
            engines.add(Collections.unmodifiableList(list));
        }
        return new Schedule(policy, List.copyOf(puts), m, Collections.unmodifiableList(engines), byPut, makespan);
    }

    public String policy() {
        return policy;
    }

    public List<Put> puts() {
        return puts;
    }

    public MachineModel model() {
        return model;
    }

    /** Per send engine (0..engines-1), its slots in the order the engine runs them. */
    public List<List<Slot>> engines() {
        return engines;
    }

    /** The slots of engine {@code e} in order. */
    public List<Slot> engine(int e) {
        return engines.get(e);
    }

    /** The slot of put {@code putId}. */
    public Slot slotOf(int putId) {
        if (putId < 0 || putId >= byPut.length) {
            throw new IllegalArgumentException("no put " + putId + " in a schedule of " + byPut.length);
        }
        return byPut[putId];
    }

    /** When the last put ends (0 for no puts). */
    public double makespanNs() {
        return makespan;
    }

    public LowerBound lowerBound() {
        if (bound == null) {
            bound = LowerBound.of(puts, model);
        }
        return bound;
    }

    /** {@link LowerBound#valueNs()} of the same puts and machine. */
    public double lowerBoundNs() {
        return lowerBound().valueNs();
    }

    /**
     * A text chart: one row per send engine, time left to right (the makespan over 64 columns),
     * each put drawn with the last character of its id in base 36, idle time as '.'; then the
     * slots in µs.
     */
    @Override
    public String toString() {
        final int width = 64;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%s: %d puts, makespan %.3f us, lower bound %.3f us (%s)%n",
            policy, puts.size(), makespan / 1000, lowerBoundNs() / 1000, lowerBound().binding()));
        double scale = makespan > 0 ? makespan / width : 1;
        for (int e = 0; e < engines.size(); e++) {
            sb.append('e').append(e).append(" |");
            List<Slot> slots = engines.get(e);
            int i = 0;
            for (int c = 0; c < width; c++) {
                double tc = (c + 0.5) * scale;
                while (i < slots.size() && slots.get(i).endNs() <= tc) {
                    i++;
                }
                if (i < slots.size() && slots.get(i).startNs() <= tc) {
                    sb.append(Character.forDigit(slots.get(i).putId() % 36, 36));
                } else {
                    sb.append('.');
                }
            }
            sb.append("|\n");
        }
        for (int e = 0; e < engines.size(); e++) {
            sb.append('e').append(e).append(':');
            for (Slot s : engines.get(e)) {
                Put p = puts.get(s.putId());
                sb.append(String.format(Locale.ROOT, " %d(d%d,%dB,r%d)@%.3f-%.3f", s.putId(), p.direction(), p.bytes(),
                    s.receiveEngine(), s.startNs() / 1000, s.endNs() / 1000));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
