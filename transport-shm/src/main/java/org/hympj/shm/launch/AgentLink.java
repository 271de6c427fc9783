package org.hympj.shm.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The launcher's end of one host agent: the agent's process (a plain child for a local host,
 * the launch agent — ssh — for a remote one), the commands written to its standard input and a
 * thread that queues each line it writes, then its end, as {@link Event}s.
 */
final class AgentLink {
    /** A line from host {@code host}'s agent; {@code line == null}: its output ended (it exited or died). */
    static final class Event {
        final int host;
        final String line;

        Event(int host, String line) {
            this.host = host;
            this.line = line;
        }
    }

    final int host;
    final String name;
    private final Process process;
    private final PrintStream to;
    private final StringBuilder stderr = new StringBuilder();
    /** When the agent last wrote a line (its heartbeat among them). */
    private volatile long lastHeardNs = System.nanoTime();
    /** Reads the agent's standard error; joined before a message quotes it (it may lag the agent's end). */
    private Thread stderrReader;

    private AgentLink(int host, String name, Process process) {
        this.host = host;
        this.name = name;
        this.process = process;
        this.to = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** Starts {@code command} for host {@code host}; its lines go to {@code events}. */
    static AgentLink start(int host, String name, List<String> command, BlockingQueue<Event> events) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot start the launch agent for host " + name + " (" + command.get(0) + "): "
                + e.getMessage(), e);
        }
        AgentLink link = new AgentLink(host, name, p);
        Thread out = new Thread(() -> {
            try (BufferedReader br = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = br.readLine()) != null) {
                    link.lastHeardNs = System.nanoTime();
                    if (!l.equals(AgentWire.ALIVE)) {
                        events.add(new Event(host, l));
                    }
                }
            } catch (IOException ignored) {
                // the agent went away
            }
            events.add(new Event(host, null));
        }, "hympj-agent-" + host);
        out.setDaemon(true);
        out.start();
        Thread err = new Thread(() -> {
            try (BufferedReader br = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = br.readLine()) != null) {
                    synchronized (link.stderr) {
                        if (link.stderr.length() < 16_384) {
                            link.stderr.append(l).append('\n');
                        }
                    }
                    System.err.println("[host " + name + "] " + l);
                }
            } catch (IOException ignored) {
                // the agent went away
            }
        }, "hympj-agent-err-" + host);
        err.setDaemon(true);
        link.stderrReader = err;
        err.start();
        return link;
    }

    /** Writes a command (ignored once the agent is gone). */
    void send(String line) {
        AgentWire.send(to, line);
    }

    /**
     * What the agent (or the launch agent, e.g. ssh) wrote to its standard error, once it has
     * ended: waits up to a second for the reader to reach the end of the stream, so a message
     * about an agent that failed quotes what it said (the end of its standard output can be seen
     * before its last error line is read).
     */
    String stderrAfterEnd() {
        try {
            if (process.waitFor(1, TimeUnit.SECONDS)) {
                stderrReader.join(1_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return stderr();
    }

    /** What the agent (or the launch agent, e.g. ssh) wrote to its standard error so far. */
    String stderr() {
        synchronized (stderr) {
            return stderr.toString().trim();
        }
    }

    /** Nanoseconds since the agent last wrote a line. */
    long silentFor(long nowNs) {
        return nowNs - lastHeardNs;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Waits for the agent to exit, then ends it (closing its input first: an agent reads that as the launcher gone). */
    void stop(long waitMillis) {
        try {
            if (!process.waitFor(waitMillis, TimeUnit.MILLISECONDS)) {
                end(2);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the launch agent's process at once: the agent is out of reach and would answer nothing. */
    void abandon() {
        to.close();
        process.destroyForcibly();
    }

    /** Ends the agent at once (the launcher is being stopped). */
    void kill() {
        end(3);
    }

    /**
     * Closes the agent's input — it stops its ranks and removes its files when its input ends —
     * waits {@code seconds} for it, then TERM, then KILL.
     */
    private void end(long seconds) {
        to.close();
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(2, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
