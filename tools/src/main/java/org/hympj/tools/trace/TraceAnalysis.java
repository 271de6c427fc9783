package org.hympj.tools.trace;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hympj.shm.trace.TraceEvent;
import org.hympj.shm.trace.TraceHeader;
import org.hympj.shm.trace.TraceJournal.RankTrace;
import org.hympj.shm.trace.Tracer;

/**
 * What the tools derive from a job's journals: posts paired with their completions (a send
 * with the receive it completed at the peer, a receive post with its own completion, a
 * waitAll's begin with its end), and the waitAll windows that delimit exchanges.
 */
public final class TraceAnalysis {
    private static final int ANY = -1;
    private static final int PROC_NULL = -2;

    private final List<RankTrace> ranks;
    /** Per rank (index in {@link #ranks}): waitAll calls in order. */
    private final List<List<Wait>> waits = new ArrayList<>();
    /** Send posts paired with the peer's receive completion (real ns from post to completion). */
    private final List<Pair> sends = new ArrayList<>();
    /** Receive posts paired with their completion on the same rank. */
    private final List<Pair> recvs = new ArrayList<>();
    private final List<TraceEvent> unmatchedSends = new ArrayList<>();
    private final List<TraceEvent> unmatchedRecvPosts = new ArrayList<>();
    private final List<TraceEvent> unmatchedRecvCompletions = new ArrayList<>();

    /** A post and the event that completed it. */
    public static final class Pair {
        public final TraceEvent post;
        public final TraceEvent done;

        Pair(TraceEvent post, TraceEvent done) {
            this.post = post;
            this.done = done;
        }

        public long nanos() {
            return done.nanos - post.nanos;
        }
    }

    /** One waitAll: real begin and end, and how many requests it waited for. */
    public static final class Wait {
        public final int rank;
        public final long begin;
        public final long end;
        public final long requests;
        /** End of the previous waitAll of the rank (or Long.MIN_VALUE): the exchange is (after, end]. */
        public final long after;
        /** Indices of the begin and end events in the rank's event list (-1 for a whole-journal window). */
        final int beginIdx;
        final int endIdx;

        Wait(int rank, long begin, long end, long requests, long after, int beginIdx, int endIdx) {
            this.rank = rank;
            this.begin = begin;
            this.end = end;
            this.requests = requests;
            this.after = after;
            this.beginIdx = beginIdx;
            this.endIdx = endIdx;
        }
    }

    /** One exchange: a window per rank and the puts issued in it. */
    public static final class Exchange {
        /** 1-based number among the candidate waitAll calls of rank 0, and how many there are. */
        public final int number;
        public final int of;
        /** Per rank (index in the trace list): its window, or null when the rank has none. */
        public final Wait[] windows;
        public final List<TraceEvent> puts;

        Exchange(int number, int of, Wait[] windows, List<TraceEvent> puts) {
            this.number = number;
            this.of = of;
            this.windows = windows;
            this.puts = puts;
        }
    }

    public TraceAnalysis(List<RankTrace> ranks) {
        this.ranks = ranks;
        for (RankTrace r : ranks) {
            waits.add(waitsOf(r));
        }
        pairSends();
        pairRecvs();
    }

    public List<RankTrace> ranks() {
        return ranks;
    }

    public TraceHeader header(int index) {
        return ranks.get(index).header;
    }

    /**
     * The name of a put's first link ({@code r5.x+}, {@code r2.ib-up}: {@code NetTopology#linkName}),
     * from the job's model and size as the headers give them; {@code link<id>} when that model
     * cannot be loaded here (a properties file that is gone), {@code -} for none.
     */
    public String linkName(int link) {
        if (link < 0) {
            return "-";
        }
        if (!topologyLoaded) {
            topologyLoaded = true;
            try {
                TraceHeader h = header(0);
                topology = org.hympj.model.JobFabric.topologyFor(org.hympj.model.ModelParams.load(h.model),
                    h.size, h.subcluster);
            } catch (RuntimeException e) {
                topology = null; // no journal, or a model this machine cannot load
            }
        }
        return topology == null ? "link" + link : topology.linkName(link);
    }

    private boolean topologyLoaded;
    private org.hympj.model.NetTopology topology;

    public List<Pair> sends() {
        return sends;
    }

    public List<Pair> recvs() {
        return recvs;
    }

    public List<Wait> waits(int index) {
        return waits.get(index);
    }

    /** Send posts no receive completed at the peer (the peer's journal may be missing or cut by a crash). */
    public List<TraceEvent> unmatchedSends() {
        return unmatchedSends;
    }

    public List<TraceEvent> unmatchedRecvPosts() {
        return unmatchedRecvPosts;
    }

    /** Receive completions without a send post in the sender's journal. */
    public List<TraceEvent> unmatchedRecvCompletions() {
        return unmatchedRecvCompletions;
    }

    /** The trace of world rank {@code rank}, or null. */
    public RankTrace rank(int rank) {
        for (RankTrace r : ranks) {
            if (r.rank() == rank) {
                return r;
            }
        }
        return null;
    }

    private static List<Wait> waitsOf(RankTrace r) {
        List<Wait> out = new ArrayList<>();
        long begin = Long.MIN_VALUE;
        int beginIdx = -1;
        long requests = 0;
        long after = Long.MIN_VALUE;
        for (int i = 0; i < r.events.size(); i++) {
            TraceEvent e = r.events.get(i);
            if (e.kind == Tracer.WAIT_BEGIN) {
                begin = e.nanos;
                beginIdx = i;
                requests = e.bytes;
            } else if (e.kind == Tracer.WAIT_END && begin != Long.MIN_VALUE) {
                out.add(new Wait(r.rank(), begin, e.nanos, requests, after, beginIdx, i));
                after = e.nanos;
                begin = Long.MIN_VALUE;
            }
        }
        return out;
    }

    /** Pairs, per (sender, receiver, tag) in order, each send post with a receive completion at the peer. */
    private void pairSends() {
        Map<Long, ArrayDeque<TraceEvent>> posted = new HashMap<>();
        for (RankTrace r : ranks) {
            for (TraceEvent e : r.events) {
                if (e.kind == Tracer.POST_SEND) {
                    posted.computeIfAbsent(key(r.rank(), e.peer, e.tag), k -> new ArrayDeque<>()).addLast(e);
                }
            }
        }
        for (RankTrace r : ranks) {
            for (TraceEvent e : r.events) {
                if (e.kind == Tracer.COMPLETE_RECV) {
                    ArrayDeque<TraceEvent> q = posted.get(key(e.peer, r.rank(), e.tag));
                    if (q == null || q.isEmpty()) {
                        unmatchedRecvCompletions.add(e);
                    } else {
                        sends.add(new Pair(q.pollFirst(), e));
                    }
                }
            }
        }
        for (ArrayDeque<TraceEvent> q : posted.values()) {
            unmatchedSends.addAll(q);
        }
        unmatchedSends.sort((a, b) -> Long.compare(a.nanos, b.nanos));
    }

    /** Pairs each receive completion with the earliest open post that accepts it (wildcards too). */
    private void pairRecvs() {
        for (RankTrace r : ranks) {
            Map<Long, ArrayDeque<TraceEvent>> open = new HashMap<>();
            for (TraceEvent e : r.events) {
                if (e.kind == Tracer.POST_RECV) {
                    if (e.peer != PROC_NULL) {
                        open.computeIfAbsent(key(0, e.peer, e.tag), k -> new ArrayDeque<>()).addLast(e);
                    }
                } else if (e.kind == Tracer.COMPLETE_RECV) {
                    ArrayDeque<TraceEvent> best = null;
                    for (long k : new long[] {key(0, e.peer, e.tag), key(0, ANY, e.tag), key(0, e.peer, ANY),
                        key(0, ANY, ANY)}) {
                        ArrayDeque<TraceEvent> q = open.get(k);
                        if (q != null && !q.isEmpty() && (best == null || q.peekFirst().nanos < best.peekFirst().nanos)) {
                            best = q;
                        }
                    }
                    if (best != null) {
                        recvs.add(new Pair(best.pollFirst(), e));
                    }
                }
            }
            for (ArrayDeque<TraceEvent> q : open.values()) {
                unmatchedRecvPosts.addAll(q);
            }
        }
    }

    private static long key(int a, int b, int tag) {
        return ((long) (a + 2) << 48) ^ ((long) (b + 2) << 32) ^ (tag & 0xffffffffL);
    }

    /**
     * The {@code n}-th exchange (1-based; negative counts from the end, -1 = the last): the
     * n-th waitAll of rank 0 among those with at least {@code minRequests} requests
     * ({@code minRequests <= 0}: the largest request count rank 0 waited for, so a barrier's
     * waitAll between halo exchanges is not taken for one). Its window on rank 0 runs from
     * the end of rank 0's previous waitAll to the end of this one; every other rank takes its
     * candidate window that overlaps it most. The puts of a rank are those of the messages its
     * waitAll waited for: the sends among the last {@code requests} posts before the waitAll
     * (after the previous one), and the puts with their destination and tag issued from the
     * first of those posts to the end of the waitAll — so a barrier's messages just before the
     * startAll are not drawn.
     * Without any waitAll the whole journal is one exchange.
     */
    public Exchange exchange(int n, long minRequests) {
        Wait[] windows = new Wait[ranks.size()];
        List<Wait> first = waits.get(0);
        if (first.isEmpty()) {
            for (int i = 0; i < ranks.size(); i++) {
                windows[i] = new Wait(ranks.get(i).rank(), Long.MIN_VALUE, Long.MAX_VALUE, 0, Long.MIN_VALUE, -1, -1);
            }
            return new Exchange(1, 1, windows, putsIn(windows));
        }
        List<Wait> cands = candidates(first, minRequests);
        int idx = n < 0 ? cands.size() + n : n - 1;
        if (idx < 0 || idx >= cands.size()) {
            throw new IllegalArgumentException("--exchange " + n + ": rank " + ranks.get(0).rank() + " has "
                + cands.size() + " exchange(s) (waitAll calls with " + (minRequests > 0 ? "at least " + minRequests
                : "the most, " + cands.get(0).requests) + " requests)");
        }
        Wait w0 = cands.get(idx);
        windows[0] = w0;
        for (int i = 1; i < ranks.size(); i++) {
            Wait best = null;
            long bestOverlap = Long.MIN_VALUE;
            List<Wait> ci = candidates(waits.get(i), minRequests);
            // windows follow each other in time: look at the few around rank 0's end
            int lo0 = 0;
            int hi0 = ci.size();
            while (lo0 < hi0) {
                int mid = (lo0 + hi0) >>> 1;
                if (ci.get(mid).end < w0.end) {
                    lo0 = mid + 1;
                } else {
                    hi0 = mid;
                }
            }
            for (Wait w : ci.subList(Math.max(0, lo0 - 3), Math.min(ci.size(), lo0 + 3))) {
                long lo = Math.max(w.after == Long.MIN_VALUE ? w.begin : w.after, w0.after == Long.MIN_VALUE ? w0.begin : w0.after);
                long hi = Math.min(w.end, w0.end);
                long overlap = hi - lo;
                if (overlap > bestOverlap || (overlap == bestOverlap && best != null
                    && Math.abs(w.end - w0.end) < Math.abs(best.end - w0.end))) {
                    best = w;
                    bestOverlap = overlap;
                }
            }
            windows[i] = best;
        }
        return new Exchange(idx + 1, cands.size(), windows, putsIn(windows));
    }

    /** How many exchanges {@link #exchange} can pick from. */
    public int exchanges(long minRequests) {
        return waits.get(0).isEmpty() ? 1 : candidates(waits.get(0), minRequests).size();
    }

    /**
     * The exchange whose puts took the least modelled time (per rank, from its first put issue
     * to its last put end; the largest over the ranks): on a loaded machine, the one the
     * operating system disturbed least.
     */
    public Exchange shortestExchange(long minRequests) {
        Exchange best = null;
        long bestSpan = Long.MAX_VALUE;
        int n = exchanges(minRequests);
        for (int k = 1; k <= n; k++) {
            Exchange x = exchange(k, minRequests);
            long span = span(x);
            if (!x.puts.isEmpty() && span < bestSpan) {
                best = x;
                bestSpan = span;
            }
        }
        return best != null ? best : exchange(-1, minRequests);
    }

    /** The largest over the ranks of (last put end - first put issue), modelled ns. */
    public long span(Exchange x) {
        Map<Integer, long[]> per = new HashMap<>();
        for (TraceEvent e : x.puts) {
            long issued = (long) rank(e.rank).header.modelledOf(e.nanos);
            long[] v = per.computeIfAbsent(e.rank, r -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            v[0] = Math.min(v[0], Math.min(issued, e.modelledStart));
            v[1] = Math.max(v[1], e.modelledEnd);
        }
        long span = 0;
        for (long[] v : per.values()) {
            span = Math.max(span, v[1] - v[0]);
        }
        return span;
    }

    /** The waitAll calls of a rank that count as exchanges. */
    public static List<Wait> candidates(List<Wait> ws, long minRequests) {
        long min = minRequests;
        if (min <= 0) {
            for (Wait w : ws) {
                min = Math.max(min, w.requests);
            }
        }
        List<Wait> out = new ArrayList<>();
        for (Wait w : ws) {
            if (w.requests >= min) {
                out.add(w);
            }
        }
        return out;
    }

    private List<TraceEvent> putsIn(Wait[] windows) {
        List<TraceEvent> out = new ArrayList<>();
        for (int i = 0; i < ranks.size(); i++) {
            Wait w = windows[i];
            if (w == null) {
                continue;
            }
            List<TraceEvent> ev = ranks.get(i).events;
            if (w.beginIdx < 0) {
                for (TraceEvent e : ev) {
                    if (e.kind == Tracer.PUT_ISSUED) {
                        out.add(e);
                    }
                }
                continue;
            }
            java.util.Set<Long> sent = new java.util.HashSet<>();
            int first = w.beginIdx;
            long posts = 0;
            for (int k = w.beginIdx - 1; k >= 0 && posts < w.requests; k--) {
                TraceEvent e = ev.get(k);
                if (e.nanos <= w.after && (e.kind == Tracer.WAIT_END)) {
                    break;
                }
                if (e.kind == Tracer.POST_SEND || e.kind == Tracer.POST_RECV) {
                    posts++;
                    first = k;
                    if (e.kind == Tracer.POST_SEND) {
                        sent.add(key(0, e.peer, e.tag));
                    }
                }
            }
            for (int k = first; k <= w.endIdx; k++) {
                TraceEvent e = ev.get(k);
                if (e.kind == Tracer.PUT_ISSUED && sent.contains(key(0, e.peer, e.tag))) {
                    out.add(e);
                }
            }
        }
        return out;
    }
}
