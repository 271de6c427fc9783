package org.hympj.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The two JVMs of a floor benchmark that is not a HyMPJ job ({@code ring-pingpong},
 * {@code aeron-loop}): started role 1 first, then role 0, whose output carries the rows; both
 * must exit 0 within 300 s; both are gone when this returns (killed on any failure).
 */
final class ChildPair {
    private static final long TIMEOUT_S = 300;

    private ChildPair() {
    }

    /**
     * Runs {@code commands[1]} then {@code commands[0]}; returns role 0's output lines that start
     * with {@code rowPrefix}. Role 1's output is discarded, both processes' errors go to ours.
     *
     * @throws IOException naming {@code what} when a process fails or does not end in time
     */
    static List<String> rows(List<List<String>> commands, String rowPrefix, String what)
        throws IOException, InterruptedException {
        Process[] p = new Process[2];
        try {
            for (int role = 1; role >= 0; role--) {
                p[role] = new ProcessBuilder(commands.get(role)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            }
            p[1].getInputStream().close();
            String text = new String(p[0].getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            for (Process q : p) {
                if (!q.waitFor(TIMEOUT_S, TimeUnit.SECONDS) || q.exitValue() != 0) {
                    throw new IOException("a " + what + " process failed (exit "
                        + (q.isAlive() ? "none: killed after " + TIMEOUT_S + " s" : q.exitValue()) + ")");
                }
            }
            List<String> rows = new ArrayList<>();
            for (String l : text.split("\n")) {
                if (l.startsWith(rowPrefix)) {
                    rows.add(l);
                }
            }
            return rows;
        } finally {
            for (Process q : p) {
                if (q != null) {
                    q.destroyForcibly();
                    q.waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** One launch of a floor benchmark: its rows, numbered {@code rep}. */
    interface Launch {
        List<String> rows(int rep) throws IOException, InterruptedException;
    }

    /**
     * Runs {@code reps} launches holding the benchmark lock (no other benchmark at the same time)
     * and prints their rows as each ends; returns the exit code of {@code hympj-bench NAME}: 0, or 1
     * after printing what failed.
     */
    static int launches(String name, int reps, PrintStream out, Launch launch) {
        try (Quiet lock = Quiet.lock(java.time.Duration.ofSeconds(1800), System.err)) {
            for (int rep = 1; rep <= reps; rep++) {
                for (String line : launch.rows(rep)) {
                    out.println(line);
                }
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            System.err.println("hympj-bench " + name + ": " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /** The start of a child's command: this JVM's java, the flags the floor programs need, our class path. */
    static List<String> java(String... flags) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-XX:+UseSerialGC", "-Dagrona.disable.bounds.checks=true"));
        cmd.addAll(List.of(flags));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        return cmd;
    }
}
