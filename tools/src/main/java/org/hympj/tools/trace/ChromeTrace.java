package org.hympj.tools.trace;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.TreeSet;
import org.hympj.shm.trace.TraceEvent;
import org.hympj.shm.trace.TraceHeader;
import org.hympj.shm.trace.TraceJournal.RankTrace;
import org.hympj.shm.trace.Tracer;

/**
 * Writes a job's journals as Chrome/Perfetto trace event JSON
 * ({@code {"traceEvents":[…]}}, the format of chrome://tracing and ui.perfetto.dev): one
 * process per rank; thread "calls" with the posts and completions (instant events) and the
 * waitAll calls (complete events); one thread per DMA engine ("dma0".."dma3"), the IB adapter
 * ("ib") and PIO ("pio") holding the puts as complete ("X") events from their modelled start
 * to their modelled end. Timestamps are <b>modelled</b> microseconds since the job's epoch:
 * real instants (posts, completions) are divided by the time dilation, so they line up with
 * the puts; without a model, modelled time is real time.
 */
public final class ChromeTrace {
    static final int TID_CALLS = 1;
    static final int TID_DMA = 10;
    static final int TID_IB = 30;
    static final int TID_PIO = 31;
    static final int TID_NONE = 32;

    private ChromeTrace() {
    }

    /** The thread of a put: its engine on the rank. */
    static int tidOf(TraceHeader h, TraceEvent e) {
        if (e.engine < 0) {
            return h.model.equals("none") ? TID_NONE : TID_PIO;
        }
        String n = h.engineName(e.engine, e.channel);
        if (n.startsWith("dma")) {
            return TID_DMA + Integer.parseInt(n.substring(3));
        }
        return n.equals("ib") ? TID_IB : TID_NONE;
    }

    static String threadName(int tid) {
        if (tid == TID_CALLS) {
            return "calls";
        }
        if (tid >= TID_DMA && tid < TID_IB) {
            return "dma" + (tid - TID_DMA);
        }
        return tid == TID_IB ? "ib" : tid == TID_PIO ? "pio" : "no engine";
    }

    public static void write(TraceAnalysis a, Writer w) throws IOException {
        w.write("{\"displayTimeUnit\":\"ns\",\"otherData\":{");
        TraceHeader h0 = a.header(0);
        w.write("\"job\":" + str(h0.jobId) + ",\"model\":" + str(h0.model) + ",\"dilation\":" + num(h0.dilation)
            + ",\"clock\":\"modelled microseconds since the job's epoch\"},\n\"traceEvents\":[\n");
        boolean[] first = {true};
        for (RankTrace r : a.ranks()) {
            TraceHeader h = r.header;
            int pid = r.rank();
            TreeSet<Integer> tids = new TreeSet<>();
            tids.add(TID_CALLS);
            for (TraceEvent e : r.events) {
                if (e.kind == Tracer.PUT_ISSUED) {
                    tids.add(tidOf(h, e));
                }
            }
            emit(w, first, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"args\":{\"name\":"
                + str("rank " + pid) + "}}");
            emit(w, first, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + pid + ",\"args\":{\"sort_index\":"
                + pid + "}}");
            for (int tid : tids) {
                emit(w, first, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + tid
                    + ",\"args\":{\"name\":" + str(threadName(tid)) + "}}");
                emit(w, first, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + pid + ",\"tid\":" + tid
                    + ",\"args\":{\"sort_index\":" + tid + "}}");
            }
            long waitBegin = Long.MIN_VALUE;
            long waitRequests = 0;
            for (TraceEvent e : r.events) {
                double ts = h.modelledOf(e.nanos) / 1000.0;
                switch (e.kind) {
                    case Tracer.PUT_ISSUED:
                        emit(w, first, "{\"ph\":\"X\",\"name\":" + str("put to " + e.peer) + ",\"cat\":"
                            + str(e.info == null ? "put" : e.info) + ",\"pid\":" + pid + ",\"tid\":" + tidOf(h, e)
                            + ",\"ts\":" + num(e.modelledStart / 1000.0) + ",\"dur\":"
                            + num(Math.max(0, e.modelledEnd - e.modelledStart) / 1000.0) + ",\"args\":{\"peer\":" + e.peer
                            + ",\"tag\":" + e.tag + ",\"bytes\":" + e.bytes + ",\"channel\":" + str(e.channel == 1 ? "ib"
                            : "tca") + ",\"engine\":" + e.engine + ",\"link\":" + str(a.linkName(e.link)) + ",\"issued_us\":" + num(ts)
                            + "}}");
                        break;
                    case Tracer.WAIT_BEGIN:
                        waitBegin = e.nanos;
                        waitRequests = e.bytes;
                        break;
                    case Tracer.WAIT_END:
                        if (waitBegin != Long.MIN_VALUE) {
                            double b = h.modelledOf(waitBegin) / 1000.0;
                            emit(w, first, "{\"ph\":\"X\",\"name\":\"waitAll\",\"cat\":\"wait\",\"pid\":" + pid + ",\"tid\":"
                                + TID_CALLS + ",\"ts\":" + num(b) + ",\"dur\":" + num(Math.max(0, ts - b))
                                + ",\"args\":{\"requests\":" + waitRequests + "}}");
                            waitBegin = Long.MIN_VALUE;
                        }
                        break;
                    case Tracer.POST_SEND:
                    case Tracer.POST_RECV:
                    case Tracer.COMPLETE_SEND:
                    case Tracer.COMPLETE_RECV:
                    case Tracer.ROUTE:
                    case Tracer.PUT_COMPLETED:
                    case Tracer.START:
                        emit(w, first, "{\"ph\":\"i\",\"s\":\"t\",\"name\":" + str(e.kindName() + (e.peer >= 0 ? " "
                            + (e.kind == Tracer.POST_SEND ? "to " : "from ") + e.peer : "")) + ",\"cat\":\"call\",\"pid\":" + pid
                            + ",\"tid\":" + TID_CALLS + ",\"ts\":" + num(ts) + ",\"args\":{\"peer\":" + e.peer + ",\"tag\":"
                            + e.tag + ",\"bytes\":" + e.bytes + (e.info != null ? ",\"info\":" + str(e.info) : "") + "}}");
                        break;
                    default:
                        break;
                }
            }
        }
        w.write("\n]}\n");
    }

    private static void emit(Writer w, boolean[] first, String json) throws IOException {
        if (!first[0]) {
            w.write(",\n");
        }
        first[0] = false;
        w.write(json);
    }

    static String num(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "0";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%.3f", d);
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
