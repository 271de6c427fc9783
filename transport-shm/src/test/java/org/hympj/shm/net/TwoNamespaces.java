package org.hympj.shm.net;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two network namespaces of this machine joined by a veth pair (10.77.0.1 and 10.77.0.2, with
 * their loopback up): two "hosts" with network stacks of their own for the multi-host tests.
 * Made by {@link #create()} (false where namespaces cannot be made: not root, no {@code ip}),
 * removed by {@link #remove()} (the veth pair goes with its namespaces).
 */
final class TwoNamespaces {
    static final String[] ADDR = {"10.77.0.1", "10.77.0.2"};
    /** The namespaces' names, unique to this JVM and a tag (two test classes may hold theirs at once). */
    final String[] ns;
    private final String tag;

    TwoNamespaces(String tag) {
        this.tag = tag;
        long pid = ProcessHandle.current().pid();
        this.ns = new String[] {"hympj-" + tag + "0-" + pid, "hympj-" + tag + "1-" + pid};
    }

    /** Creates both namespaces and the link; false (and nothing left) when this machine does not let us. */
    boolean create() throws IOException, InterruptedException {
        if (!run("ip", "netns", "add", ns[0])) {
            return false;
        }
        String[] dev = {dev(0), dev(1)};
        boolean ok = run("ip", "netns", "add", ns[1])
            && run("ip", "link", "add", dev[0], "type", "veth", "peer", "name", dev[1])
            && run("ip", "link", "set", dev[0], "netns", ns[0])
            && run("ip", "link", "set", dev[1], "netns", ns[1]);
        for (int i = 0; ok && i < 2; i++) {
            ok = run("ip", "netns", "exec", ns[i], "ip", "addr", "add", ADDR[i] + "/24", "dev", dev[i])
                && run("ip", "netns", "exec", ns[i], "ip", "link", "set", dev[i], "up")
                && run("ip", "netns", "exec", ns[i], "ip", "link", "set", "lo", "up");
        }
        if (!ok) {
            remove();
        }
        return ok;
    }

    /** The veth device of namespace {@code i} (at most 15 characters). */
    String dev(int i) {
        return "hy" + i + tag + vethTag();
    }

    /** Takes namespace {@code i}'s end of the link down or up again (a cut cable, as far as the hosts can tell). */
    boolean link(int i, boolean up) throws IOException, InterruptedException {
        return run(in(i, "ip", "link", "set", dev(i), up ? "up" : "down"));
    }

    /** A short tag for the veth names. */
    private static String vethTag() {
        return Long.toString(ProcessHandle.current().pid() % 100_000);
    }

    void remove() throws IOException, InterruptedException {
        for (String n : ns) {
            run("ip", "netns", "del", n);
        }
    }

    /** {@code cmd} run in namespace {@code i}. */
    List<String> in(int i, String... cmd) {
        List<String> out = new ArrayList<>(List.of("ip", "netns", "exec", ns[i]));
        out.addAll(List.of(cmd));
        return out;
    }

    /** Runs a command to its end (20 s at most); true if it exited with 0. */
    static boolean run(String... cmd) throws IOException, InterruptedException {
        return run(List.of(cmd));
    }

    static boolean run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return false;
        }
        return p.exitValue() == 0;
    }
}
