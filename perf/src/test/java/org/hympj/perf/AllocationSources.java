package org.hympj.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a rank's thread allocated, from the JFR recordings its JVM wrote: {@link AllocationTest}
 * records every rank with {@link #JFC} (allocation samples only) and, when a case allocates in
 * every window, names the allocating code in its failure message. The two-hosts variant failed so
 * once in CI (session 17: rank 1 allocating 33–158 bytes per iteration in every case) and could
 * not be made to fail again on the same machine in 20 runs: the next failure should say why.
 */
final class AllocationSources {
    /** A JFR configuration with nothing but allocation samples (with their stacks) of the ranks' threads. */
    static final String JFC = """
        <?xml version="1.0" encoding="UTF-8"?>
        <configuration version="2.0" label="hympj-alloc">
          <event name="jdk.ObjectAllocationSample">
            <setting name="enabled">true</setting>
            <setting name="throttle">300/s</setting>
            <setting name="stackTrace">true</setting>
          </event>
        </configuration>
        """;
    private static final int FRAMES = 10;
    private static final int TOP = 6;

    private AllocationSources() {
    }

    /** The JVM argument that records a rank into a file of its own in {@code dir}, with {@code jfc}. */
    static String jvmArg(Path dir, Path jfc) {
        return "-XX:StartFlightRecording=settings=" + jfc + ",filename=" + dir + "/";
    }

    /**
     * The heaviest allocation sites of each recording's {@code main} thread (the rank's own) in
     * the rank program's calls (not in start-up), by sampled weight: one block per recording, its top {@value #TOP} stacks of {@value #FRAMES}
     * frames each; a note when there is none.
     */
    static String summary(Path dir) {
        StringBuilder b = new StringBuilder();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".jfr")).sorted().toList();
        } catch (IOException e) {
            return "no recordings: " + e;
        }
        for (Path f : files) {
            Map<String, Long> weight = new HashMap<>();
            try {
                for (RecordedEvent e : RecordingFile.readAllEvents(f)) {
                    RecordedThread t = e.getThread("eventThread");
                    if (!"jdk.ObjectAllocationSample".equals(e.getEventType().getName()) || t == null
                        || !"main".equals(t.getJavaName()) || !inMeasuredCalls(e)) {
                        continue;
                    }
                    weight.merge(site(e), e.getLong("weight"), Long::sum);
                }
            } catch (IOException e) {
                b.append(f.getFileName()).append(": unreadable: ").append(e).append('\n');
                continue;
            }
            b.append(f.getFileName()).append(": ").append(weight.isEmpty() ? "no samples in its main thread" : "")
                .append('\n');
            List<Map.Entry<String, Long>> top = new ArrayList<>(weight.entrySet());
            top.sort(Map.Entry.<String, Long>comparingByValue().reversed());
            for (Map.Entry<String, Long> e : top.subList(0, Math.min(TOP, top.size()))) {
                b.append(String.format(Locale.ROOT, "  %,d bytes sampled: %s%n", e.getValue(), e.getKey()));
            }
        }
        return b.toString();
    }

    /**
     * True for a sample taken in {@link AllocRank}'s own calls into the library (its windows and
     * their warm-ups), not in {@code Mpj.init} (start-up and the library's JIT warm-up, which
     * allocate by design and would hide a hot path's objects).
     */
    private static boolean inMeasuredCalls(RecordedEvent e) {
        if (e.getStackTrace() == null) {
            return false;
        }
        boolean inRank = false;
        for (RecordedFrame fr : e.getStackTrace().getFrames()) {
            String m = fr.getMethod().getType().getName() + "." + fr.getMethod().getName();
            if (m.equals("org.hympj.api.Mpj.init")) {
                return false;
            }
            inRank |= m.equals(AllocRank.class.getName() + ".main");
        }
        return inRank;
    }

    private static String site(RecordedEvent e) {
        StringBuilder s = new StringBuilder(e.getClass("objectClass").getName());
        if (e.getStackTrace() != null) {
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            for (RecordedFrame fr : frames.subList(0, Math.min(FRAMES, frames.size()))) {
                s.append(" <- ").append(fr.getMethod().getType().getName()).append('.').append(fr.getMethod().getName())
                    .append(':').append(fr.getLineNumber()).append(fr.getType() == null ? "" : " (" + fr.getType() + ")");
            }
        }
        return s.toString();
    }
}
