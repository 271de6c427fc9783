package org.hympj.shm.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.launch.Launcher;

/**
 * A program run with plain {@code java} (no launcher): the flags of {@link Launcher#jvmFlags()},
 * the test JVM's class path, not part of any job (HYMPJ_JOB_DIR / HYMPJ_RANK removed), output
 * captured, at most 60 s.
 */
public final class JavaProcess {
    public final long pid;
    public final int exit;
    public final String output;
    public final List<String> lines;

    private JavaProcess(long pid, int exit, String output) {
        this.pid = pid;
        this.exit = exit;
        this.output = output;
        this.lines = Arrays.asList(output.split("\n"));
    }

    public static JavaProcess run(Class<?> main, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        cmd.addAll(Launcher.jvmFlags());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove(ShmMpj.ENV_JOB_DIR);
        pb.environment().remove(ShmMpj.ENV_RANK);
        pb.environment().putAll(env);
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(main.getSimpleName() + " did not end within 60 s");
        }
        return new JavaProcess(p.pid(), p.exitValue(), out.get(10, TimeUnit.SECONDS));
    }

    /** Lines starting with {@code prefix}, the prefix removed. */
    public List<String> values(String prefix) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith(prefix)) {
                out.add(l.substring(prefix.length()));
            }
        }
        return out;
    }

    public String report() {
        return "exit " + exit + ", pid " + pid + ", output:\n" + output;
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output unreadable: " + e + ")";
        }
    }
}
