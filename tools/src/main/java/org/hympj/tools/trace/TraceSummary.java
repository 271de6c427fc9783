package org.hympj.tools.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.hympj.shm.trace.TraceEvent;
import org.hympj.shm.trace.TraceHeader;
import org.hympj.shm.trace.TraceJournal.RankTrace;
import org.hympj.shm.trace.Tracer;

/**
 * The text summary of a job's journals: per rank and event kind the count, the bytes, and
 * the time from post to completion (median, p99, max; HdrHistogram) where the kind has one:
 * <ul>
 *   <li>post_send: post to the receive completion at the peer (real time: one clock for the machine);
 *   <li>post_recv: post to its completion on the rank;
 *   <li>put_issued: modelled start to modelled end of the put on its engine (modelled time);
 *   <li>put_completed, complete_send: when the sender saw its put / send done (counts only);
 *   <li>wait_begin: the waitAll's duration (real time).
 * </ul>
 * Then puts per engine and per protocol, puts per first link, and the pairing checks (sends no receive completed).
 */
public final class TraceSummary {
    private TraceSummary() {
    }

    public static String of(TraceAnalysis a) {
        StringBuilder out = new StringBuilder();
        TraceHeader h0 = a.header(0);
        out.append(String.format(Locale.ROOT, "HyMPJ trace of job %s: %d rank journal(s) of %d ranks, model %s, "
            + "dilation %s%n", h0.jobId, a.ranks().size(), h0.size, h0.model, trim(h0.dilation)));
        Map<Integer, List<Long>> sendLat = new TreeMap<>();
        for (TraceAnalysis.Pair p : a.sends()) {
            sendLat.computeIfAbsent(p.post.rank, k -> new ArrayList<>()).add(p.nanos());
        }
        Map<Integer, List<Long>> recvLat = new TreeMap<>();
        for (TraceAnalysis.Pair p : a.recvs()) {
            recvLat.computeIfAbsent(p.post.rank, k -> new ArrayList<>()).add(p.nanos());
        }
        out.append(String.format(Locale.ROOT, "%n%-5s %-14s %9s %14s  %-34s %11s %11s %11s%n", "rank", "event", "count",
            "bytes", "post -> completion", "median us", "p99 us", "max us"));
        for (int i = 0; i < a.ranks().size(); i++) {
            RankTrace r = a.ranks().get(i);
            long[] count = new long[16];
            long[] bytes = new long[16];
            List<Long> putDur = new ArrayList<>();
            for (TraceEvent e : r.events) {
                int k = Math.min(e.kind, 15);
                count[k]++;
                if (e.kind != Tracer.WAIT_BEGIN && e.kind != Tracer.WAIT_END) {
                    bytes[k] += e.bytes;
                }
                if (e.kind == Tracer.PUT_ISSUED) {
                    putDur.add(e.modelledEnd - e.modelledStart);
                }
            }
            List<Long> waitDur = new ArrayList<>();
            for (TraceAnalysis.Wait w : a.waits(i)) {
                waitDur.add(w.end - w.begin);
            }
            for (int k = 1; k < 16; k++) {
                if (count[k] == 0) {
                    continue;
                }
                String what = "";
                List<Long> lat = null;
                switch (k) {
                    case Tracer.POST_SEND:
                        what = "to receive done at the peer";
                        lat = sendLat.get(r.rank());
                        break;
                    case Tracer.POST_RECV:
                        what = "to receive done";
                        lat = recvLat.get(r.rank());
                        break;
                    case Tracer.PUT_ISSUED:
                        what = "modelled start to end (model us)";
                        lat = putDur;
                        break;
                    case Tracer.WAIT_BEGIN:
                        what = "waitAll duration";
                        lat = waitDur;
                        break;
                    default:
                        break;
                }
                boolean noBytes = k == Tracer.WAIT_BEGIN || k == Tracer.WAIT_END;
                out.append(String.format(Locale.ROOT, "%-5d %-14s %9d %14s  %-34s%s%n", r.rank(), TraceEvent.kindName(k),
                    count[k], noBytes ? "-" : Long.toString(bytes[k]), what, lat == null || lat.isEmpty() ? ""
                        : percentiles(lat)));
            }
        }
        // puts per engine and protocol
        boolean anyPut = a.ranks().stream().anyMatch(r -> r.events.stream().anyMatch(e -> e.kind == Tracer.PUT_ISSUED));
        if (!anyPut) {
            out.append(String.format(Locale.ROOT, "%nno puts recorded (puts, their engines and modelled times are "
                + "recorded under a timing model: --model ha-pacs)%n"));
        } else {
            out.append(String.format(Locale.ROOT, "%n%-5s %-8s %-34s %9s %14s %16s%n", "rank", "engine", "protocol",
                "puts", "bytes", "busy (model us)"));
        }
        for (RankTrace r : a.ranks()) {
            Map<String, long[]> rows = new TreeMap<>();
            for (TraceEvent e : r.events) {
                if (e.kind == Tracer.PUT_ISSUED) {
                    String key = String.format(Locale.ROOT, "%-8s %-34s", r.header.engineName(e.engine, e.channel),
                        e.info == null ? "-" : e.info);
                    long[] v = rows.computeIfAbsent(key, x -> new long[3]);
                    v[0]++;
                    v[1] += e.bytes;
                    v[2] += e.modelledEnd - e.modelledStart;
                }
            }
            for (Map.Entry<String, long[]> e : rows.entrySet()) {
                out.append(String.format(Locale.ROOT, "%-5d %s %9d %14d %16.1f%n", r.rank(), e.getKey(), e.getValue()[0],
                    e.getValue()[1], e.getValue()[2] / 1000.0));
            }
        }
        if (anyPut) {
            out.append(String.format(Locale.ROOT, "%n%-5s %-12s %9s %14s%n", "rank", "first link", "puts", "bytes"));
            for (RankTrace r : a.ranks()) {
                Map<Integer, long[]> rows = new TreeMap<>();
                for (TraceEvent e : r.events) {
                    if (e.kind == Tracer.PUT_ISSUED) {
                        long[] v = rows.computeIfAbsent(e.link, x -> new long[2]);
                        v[0]++;
                        v[1] += e.bytes;
                    }
                }
                for (Map.Entry<Integer, long[]> e : rows.entrySet()) {
                    out.append(String.format(Locale.ROOT, "%-5d %-12s %9d %14d%n", r.rank(), a.linkName(e.getKey()),
                        e.getValue()[0], e.getValue()[1]));
                }
            }
        }
        out.append(String.format(Locale.ROOT, "%npairing: %d send(s) completed at the peer, %d send post(s) without a "
                + "receive completion, %d receive completion(s) without a send post, %d receive post(s) not completed%n",
            a.sends().size(), a.unmatchedSends().size(), a.unmatchedRecvCompletions().size(),
            a.unmatchedRecvPosts().size()));
        return out.toString();
    }

    static String percentiles(List<Long> nanos) {
        Histogram h = new Histogram(3);
        for (long v : nanos) {
            h.recordValue(Math.max(0, v));
        }
        return String.format(Locale.ROOT, " %11.2f %11.2f %11.2f", h.getValueAtPercentile(50) / 1000.0,
            h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0);
    }

    static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
