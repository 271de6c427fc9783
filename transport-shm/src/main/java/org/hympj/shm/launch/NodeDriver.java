package org.hympj.shm.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hympj.net.HostDriver;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.pml.Idler;

/**
 * The media driver of one node of a job a resource manager started (srun, mpirun), in a process
 * of its own beside the node's ranks. A rank that dies, the node's first rank included (it starts
 * this process), does not take the node's network with it: the node's other ranks still tell the
 * other nodes which rank failed ({@code NetPeers#relayFailure}) instead of the other nodes
 * learning it when the connection falls silent, and naming whichever rank's connection went
 * first.
 *
 * <p>It prints {@code HYMPJ-NODE-DRIVER <endpoint>} as its first line, then watches the node's
 * ranks; once every one of them is gone (exited after its finalize, or dead) it closes the driver
 * and removes the node's files. The node's first rank leaves only after the other nodes' ranks
 * said goodbye, so nothing they need is still on its way through this driver then.
 *
 * <pre>usage: NodeDriver JOB_DIR ADDRESS FIRST_RANK LOCAL_RANKS</pre>
 */
public final class NodeDriver {
    static final String READY = "HYMPJ-NODE-DRIVER ";
    /** A rank of the node that has not registered this long after the driver started never will. */
    private static final long REGISTER_TIMEOUT_NS = 60_000_000_000L;
    /** After the last rank: time for the driver to send what it was given last (a failure notice). */
    private static final long GRACE_MS = 300;
    private static final long WATCH_MS = 20;

    private NodeDriver() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: NodeDriver JOB_DIR ADDRESS FIRST_RANK LOCAL_RANKS");
            System.exit(2);
        }
        JobDirectory job = JobDirectory.open(Paths.get(args[0]));
        int first = Integer.parseInt(args[2]);
        int count = Integer.parseInt(args[3]);
        HostDriver driver;
        try {
            driver = HostDriver.launch(job.aeronDir(), job.hosts().net(), Idler.strategy(LaunchSpec.DEFAULT_DRIVER_IDLE,
                1, Runtime.getRuntime().availableProcessors()), args[1], 0);
        } catch (RuntimeException e) {
            System.err.println("hympj node driver: " + e.getMessage());
            System.exit(3);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            driver.close();
            job.delete();
        }, "hympj-node-driver-end")); // also when the resource manager ends the job (SIGTERM)
        System.out.println(READY + driver.endpoint());
        System.out.flush();
        JobControl control = job.openControl();
        long start = System.nanoTime();
        while (!allGone(control, first, count, start)) {
            Thread.sleep(WATCH_MS);
        }
        Thread.sleep(GRACE_MS);
        System.exit(0);
    }

    /** Every rank of the node registered and exited (or never registered within the timeout). */
    static boolean allGone(JobControl control, int first, int count, long start) {
        for (int r = first; r < first + count; r++) {
            if (control.pid(r) == 0) {
                if (System.nanoTime() - start < REGISTER_TIMEOUT_NS) {
                    return false;
                }
            } else if (control.rankAlive(r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Starts the node's driver process for the job in {@code jobDir} on {@code address} and
     * returns it once it said its endpoint ({@link Started#endpoint}).
     *
     * @throws IOException naming the reason when it did not start within 30 s
     */
    static Started start(Path jobDir, String address, int first, int count) throws IOException {
        List<String> cmd = Launcher.helperJvm(Launcher.javaCommand());
        cmd.add("-XX:TieredStopAtLevel=1"); // a driver thread needs no C2 beside the ranks
        cmd.add(NodeDriver.class.getName());
        cmd.add(jobDir.toString());
        cmd.add(address);
        cmd.add(Integer.toString(first));
        cmd.add(Integer.toString(count));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String l;
        try {
            l = line.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while the node's network driver started");
        } catch (ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            throw new IOException("the node's network driver did not start within 30 s");
        }
        if (l == null || !l.startsWith(READY)) {
            p.destroyForcibly();
            throw new IOException("the node's network driver did not start (it said: " + l + "; its errors are above)");
        }
        return new Started(p, l.substring(READY.length()).trim());
    }

    /** A started driver process and the endpoint it receives on. */
    static final class Started {
        final Process process;
        final String endpoint;

        Started(Process process, String endpoint) {
            this.process = process;
            this.endpoint = endpoint;
        }
    }
}
