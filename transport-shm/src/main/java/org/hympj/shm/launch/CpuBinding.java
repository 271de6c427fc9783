package org.hympj.shm.launch;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --bind-to core}: the CPUs this launcher may use (Linux's {@code Cpus_allowed_list}),
 * and util-linux's {@code taskset}, which starts each rank on one of them. Checked before any
 * rank starts.
 */
final class CpuBinding {
    private CpuBinding() {
    }

    /** The CPUs this process may run on, in order. */
    static int[] allowedCpus() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseList(line.substring("Cpus_allowed_list:".length()).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("--bind-to core: cannot read /proc/self/status", e);
        }
        throw new IllegalArgumentException("--bind-to core: /proc/self/status has no Cpus_allowed_list (Linux only)");
    }

    /** "0-3,6,8-9" → [0, 1, 2, 3, 6, 8, 9]. */
    static int[] parseList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            int lo = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
            int hi = dash < 0 ? lo : Integer.parseInt(p.substring(dash + 1));
            for (int c = lo; c <= hi; c++) {
                cpus.add(c);
            }
        }
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("--bind-to core: no CPU in the allowed list '" + list + "'");
        }
        return cpus.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The path of taskset on PATH. */
    static String taskset() {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
            Path t = Paths.get(dir.isEmpty() ? "." : dir, "taskset");
            if (Files.isExecutable(t)) {
                return t.toString();
            }
        }
        throw new IllegalArgumentException("--bind-to core needs util-linux's taskset on PATH, which is not there; "
            + "install util-linux or use --bind-to none");
    }
}
